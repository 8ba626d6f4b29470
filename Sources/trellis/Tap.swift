import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis tap NAME X,Y`: a tap at a content point, with UIKit's highlight/selection flow.
struct Tap: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tap at a point in content coordinates: prints the view hit, the delegate events and the selection.")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("The point X,Y in content coordinates.", valueName: "X,Y")) var point: String

    func run() throws {
        let p = try parsing { () throws(SyntaxError) in try CommandSyntax.point(point) }
        _ = try checkingRanges { () throws(RangeError) in
            try GestureRanges.check(p, in: GestureRanges.point, option: "the point", text: point, unit: "pt")
        }
        try session.call("gesture.tap", ["point": wire(p)]) { r in
            let events = r["events"]?.arrayValue ?? []
            return [hitLine(r["hit"], point: point)]
                + events.map { "\($0["event"]?.stringValue ?? "?") \(Human.path($0["at"])) \($0["id"]?.stringValue ?? "")" }
                + [Human.selected(r)]
        }
    }
}
