import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis scroll-config NAME [--bounces true|false] …`: UIScrollView's scrolling settings
/// (scroll.configure); with no option, prints them.
struct ScrollConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll-config",
        abstract: "Set how a session scrolls under a finger (bounces, paging, deceleration…); prints the settings.")

    @OptionGroup var session: SessionArguments
    @Option(help: ArgumentHelp("Rubber-band past the content's edges.", valueName: "true|false")) var bounces: String?
    @Option(help: ArgumentHelp("Bounce vertically even when the content fits.", valueName: "true|false")) var alwaysBounceVertical: String?
    @Option(help: ArgumentHelp("Bounce horizontally even when the content fits.", valueName: "true|false")) var alwaysBounceHorizontal: String?
    @Option(help: ArgumentHelp("Come to rest on whole pages of the bounds (pagingEnabled).", valueName: "true|false")) var paging: String?
    @Option(help: ArgumentHelp("normal (0.998/ms), fast (0.99/ms) or a rate per ms.", valueName: "rate")) var deceleration: String?
    @Option(help: ArgumentHelp("Accept pan gestures at all.", valueName: "true|false")) var scrollEnabled: String?

    func run() throws {
        let given: [(String, String?)] = [
            ("bounces", bounces), ("always-bounce-vertical", alwaysBounceVertical), ("always-bounce-horizontal", alwaysBounceHorizontal),
            ("paging", paging), ("deceleration", deceleration), ("scroll-enabled", scrollEnabled),
        ]
        let settings = ScrollSettings(options: given.compactMap { name, value in value.map { (name, $0) } })
        let params = try parsing { () throws(SyntaxError) in try settings.params() }
        try session.call("scroll.configure", params) { r in
            let c = r["configuration"] ?? r
            guard case .object(let members) = c else { return [Human.setting("configuration", c)] }
            return [members.keys.sorted().map { "\($0)=\(Human.setting($0, members[$0]!))" }.joined(separator: " ")]
        }
    }
}
