import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis hit NAME X,Y`: hitTest without touching the selection.
struct Hit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hit-test a point in content coordinates (through transforms; hidden and faint views let touches through).")

    @OptionGroup var session: SessionArguments
    @Argument(help: ArgumentHelp("The point X,Y in content coordinates.", valueName: "X,Y")) var point: String

    func run() throws {
        let p = try parsing { () throws(SyntaxError) in try CommandSyntax.point(point) }
        try session.call("hit", ["point": wire(p)]) { r in [hitLine(r["hit"], point: point)] }
    }
}

/// `hit 0:3 item3 frame=… view=4`, or `no view at X,Y`.
func hitLine(_ hit: JSONValue?, point: String) -> String {
    guard let hit, hit != .null else { return "no view at \(point)" }
    return "hit " + Human.attributes(hit)
}
