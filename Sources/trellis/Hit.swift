import ArgumentParser
import TrellisClient
import TrellisCore

/// `trellis hit NAME X,Y`: hitTest without touching the selection.
struct Hit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hit-test a point in content coordinates (through transforms; hidden and faint views let touches through).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Argument(help: ArgumentHelp("The point X,Y in content coordinates.", valueName: "X,Y")) var point: String

    func run() throws {
        let p = try parsing { () throws(SyntaxError) in try CommandSyntax.point(point) }
        try withServer(global) { c in
            c.emit(try c.call("hit", ["session": .string(name), "point": .array([.number(p.x), .number(p.y)])])) { r in
                [hitLine(r["hit"], point: point)]
            }
        }
    }
}
