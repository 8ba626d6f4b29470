import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis layout NAME flow|circle …`: setCollectionViewLayout, optionally animated.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Change a session's layout (setCollectionViewLayout), at once or animated.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Argument(help: "flow or circle.") var type: String
    @OptionGroup(title: "Layout") var metrics: LayoutOptions
    @OptionGroup(title: "Animation") var animation: OptInAnimationOptions

    func run() throws {
        var params: [String: JSONValue] = ["session": .string(name), "layout": try metrics.spec(type: type)]
        params.merge(try animation.params()) { $1 }
        try withServer(global) { c in
            c.emit(try c.call("layout.set", params)) { r in
                ["layout \(r["layout"]?.stringValue ?? type)" + (params["animated"] != nil ? " (animated, transition \(Human.number(r["transition"])))" : "")]
            }
        }
    }
}
