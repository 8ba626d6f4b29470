import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis new NAME`: creates a session (one collection view).
struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a session: a collection view with its bounds, layout and clock.",
        discussion: "Starts a server in the background when none is running (like tmux).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Option(help: ArgumentHelp("The view's size WIDTHxHEIGHT.", valueName: "WxH")) var bounds = "375x812"
    @Option(help: ArgumentHelp("The layout: \(LayoutVocabulary.names), or list (the compositional list preset, with --appearance).")) var layout = "flow"
    @OptionGroup(title: "Layout") var metrics: LayoutOptions
    @Option(help: ArgumentHelp("Content insets TOP,LEFT,BOTTOM,RIGHT or one number.", valueName: "insets")) var contentInset: String?
    @Option(help: ArgumentHelp("Dynamics steps per second: \(ParamRanges.dynamicsStepRatesText) (60, UIKit's, by default; 120 and 240 solve contacts and joints more finely).",
                               valueName: "hz")) var stepRate: Int?
    @Flag(help: "Time moves only with `trellis advance` (deterministic animations).") var manualClock = false
    @Flag(help: "Replace a session of that name if there is one (its viewers are told it closed).")
    var replace = false

    func run() throws {
        let size = try parsing { () throws(SyntaxError) in try CommandSyntax.size(bounds) }
        var params: [String: JSONValue] = [
            "name": .string(name), "bounds": .array([.number(size.width), .number(size.height)]),
            "layout": try metrics.spec(type: layout), "clock": .string(manualClock ? "manual" : "live"),
        ]
        if let stepRate { params["dynamicsStepRate"] = .number(Double(try checkedStepRate(stepRate))) }
        if let contentInset {
            let i = try parsing { () throws(SyntaxError) in try CommandSyntax.insets(contentInset) }
            params["contentInset"] = wire(i)
        }
        try withServer(global, session: name) { c in
            let created = replace ? try replaceSession(c, params) : try c.call("session.create", params)
            c.emit(created) { [Human.session($0)] }
        }
    }
}
