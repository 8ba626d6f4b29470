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
    @Flag(help: "Animate the transition (implied by --duration or --curve).") var animated = false
    @Option(help: ArgumentHelp("Animation duration in seconds (or 300ms; default 0.3).", valueName: "seconds")) var duration: String?
    @Option(help: "linear, easeIn, easeOut, easeInEaseOut (default) or spring.") var curve: String?

    func run() throws {
        var params: [String: JSONValue] = ["session": .string(name), "layout": try metrics.spec(type: type)]
        if animated || duration != nil || curve != nil { params["animated"] = .bool(true) }
        if let duration { params["duration"] = .number(try parsing { () throws(SyntaxError) in try CommandSyntax.seconds(duration) }) }
        if let curve { params["curve"] = .string(curve) }
        try withServer(global) { c in
            c.emit(try c.call("layout.set", params)) { r in
                ["layout \(r["layout"]?.stringValue ?? type)" + (params["animated"] != nil ? " (animated, transition \(Human.number(r["transition"])))" : "")]
            }
        }
    }
}
