import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis touch NAME [--at X,Y] [--up]`: a finger down on the content (catches a fling or a
/// bounce where it is, and an orthogonal band's under --at), or lifted again.
struct Touch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put a finger down (stops deceleration or a bounce where it is), or lift it with --up.",
        discussion: """
            Lifting without a drag in between lets an offset stopped past an edge bounce back. \
            Prints the scroll state. --at takes each of X, Y from -1000000000 to 1000000000 (exit \
            65 outside, nothing sent).
            """)

    @OptionGroup var session: SessionArguments
    @Option(parsing: .unconditional, help: ArgumentHelp("Where, in the view (an orthogonal band there is caught too).", valueName: "X,Y")) var at: String?
    @Flag(help: "Lift the finger (gesture.touch up) instead of putting it down.") var up = false

    func run() throws {
        var params: [String: JSONValue] = ["phase": .string(up ? "up" : "down")]
        if let at {
            let point = try parsing { () throws(SyntaxError) in try CommandSyntax.point(at) }
            _ = try checkingRanges { () throws(RangeError) in
                try GestureRanges.check(point, in: GestureRanges.point, option: "--at", text: at, unit: "pt")
            }
            params["at"] = wire(point)
        }
        try session.call("gesture.touch", params, human: Human.scrollState)
    }
}
