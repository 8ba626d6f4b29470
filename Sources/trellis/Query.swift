import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis query NAME --rect X,Y,W,H | --at S:I`: the layout's (model) attributes.
struct Query: ParsableCommand, OptionChecks {
    static let configuration = CommandConfiguration(
        abstract: "Query layout attributes: every element in a rect, or one item.",
        discussion: "These are the model values (where the layout puts things), not the on-screen state mid-animation; see `trellis scene`.")

    @OptionGroup var session: SessionArguments
    @Option(help: ArgumentHelp("A rect X,Y,WIDTH,HEIGHT in content coordinates.", valueName: "X,Y,W,H")) var rect: String?
    @Option(help: ArgumentHelp("One item S:I.", valueName: "S:I")) var at: String?

    func checkOptions() throws {
        guard (rect == nil) != (at == nil) else { throw optionError("give exactly one of --rect or --at") }
    }

    func run() throws {
        try checkOptions()
        var params: [String: JSONValue] = [:]
        if let rect {
            let r = try parsing { () throws(SyntaxError) in try CommandSyntax.rect(rect) }
            params["rect"] = .array([r.minX, r.minY, r.width, r.height].map { .number($0) })
        } else {
            params["at"] = wire(try parsing { () throws(SyntaxError) in try CommandSyntax.indexPath(at!) })
        }
        try session.call("query.attributes", params) { r in (r["attributes"]?.arrayValue ?? []).map(Human.attributes) }
    }
}
