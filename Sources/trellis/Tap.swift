import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis tap NAME X,Y`: a tap at a content point, with UIKit's highlight/selection flow.
struct Tap: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tap at a point in content coordinates: prints the view hit, the delegate events and the selection.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Argument(help: ArgumentHelp("The point X,Y in content coordinates.", valueName: "X,Y")) var point: String

    func run() throws {
        let p = try parsing { () throws(SyntaxError) in try CommandSyntax.point(point) }
        try withServer(global) { c in
            c.emit(try c.call("gesture.tap", ["session": .string(name), "point": .array([.number(p.x), .number(p.y)])])) { r in
                var lines = [hitLine(r["hit"], point: point)]
                if case .array(let events)? = r["events"] {
                    for e in events { lines.append("\(e["event"]?.stringValue ?? "?") \(Human.path(e["at"])) \(e["id"]?.stringValue ?? "")") }
                }
                lines.append(Human.selected(r))
                return lines
            }
        }
    }
}

/// `hit 0:3 item3 frame=… view=4`, or `no view at X,Y`.
func hitLine(_ hit: JSONValue?, point: String) -> String {
    guard let hit, hit != .null else { return "no view at \(point)" }
    return "hit " + Human.attributes(hit)
}
