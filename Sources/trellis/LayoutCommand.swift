import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis layout NAME flow|circle|line|coverFlow|stack|carousel …`: setCollectionViewLayout, optionally animated.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Change a session's layout (setCollectionViewLayout), at once or animated.")

    @OptionGroup var session: SessionArguments
    @Argument(help: "flow, circle, line, coverFlow, stack or carousel.") var type: String
    @OptionGroup(title: "Layout") var metrics: LayoutOptions
    @OptionGroup(title: "Animation") var animation: AnimationOptions

    func run() throws {
        var params = try animation.params(animatedByDefault: false)
        params["layout"] = try metrics.spec(type: type)
        try session.call("layout.set", params) { r in
            ["layout \(r["layout"]?.stringValue ?? type)" + (params["animated"] == .bool(true) ? " (animated, transition \(Human.number(r["transition"])))" : "")]
        }
    }
}
