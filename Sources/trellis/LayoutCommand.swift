import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis layout NAME TYPE …` (a layout of the registry): setCollectionViewLayout, optionally animated.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Change a session's layout (setCollectionViewLayout), at once or animated.")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("The layout: \(LayoutVocabulary.names), or list (the compositional list preset, with --appearance).", valueName: "type")) var type: String
    @OptionGroup(title: "Layout") var metrics: LayoutOptions
    @OptionGroup(title: "Animation") var animation: AnimateOnRequestOptions

    func run() throws {
        var params = try animation.params()
        params["layout"] = try metrics.spec(type: type)
        try session.call("layout.set", params) { r in
            ["layout \(r["layout"]?.stringValue ?? type)" + (params["animated"] == .bool(true) ? " (animated, transition \(Human.number(r["transition"])))" : "")]
        }
    }
}
