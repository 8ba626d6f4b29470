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
    @Option(help: ArgumentHelp("With --rect: at most N elements (1 to 20000; the server's default is 10000).", valueName: "N")) var limit: Int?
    @Option(help: ArgumentHelp("With --rect: the elements after cell S:I (the last of the page before).", valueName: "S:I")) var after: String?

    func checkOptions() throws {
        guard (rect == nil) != (at == nil) else { throw optionError("give exactly one of --rect or --at") }
        if rect == nil && (limit != nil || after != nil) { throw optionError("--limit and --after page a --rect query") }
        if let limit, !ParamRanges.queryLimit.contains(limit) {
            throw optionError("--limit must be from \(ParamRanges.queryLimit.lowerBound) to \(ParamRanges.queryLimit.upperBound), not \(limit)")
        }
    }

    func run() throws {
        try checkOptions()
        var params: [String: JSONValue] = [:]
        if let rect {
            let r = try parsing { () throws(SyntaxError) in try CommandSyntax.rect(rect) }
            params["rect"] = .array([r.minX, r.minY, r.width, r.height].map { .number($0) })
            if let limit { params["limit"] = .number(Double(limit)) }
            if let after {
                let cell = try parsing { () throws(SyntaxError) in try CommandSyntax.indexPath(after) }
                params["after"] = .object(["kind": .string("cell"), "section": .number(Double(cell.section)), "item": .number(Double(cell.item))])
            }
        } else {
            params["at"] = wire(try parsing { () throws(SyntaxError) in try CommandSyntax.indexPath(at!) })
        }
        try session.call("query.attributes", params) { r in
            let list = r["attributes"]?.arrayValue ?? []
            var lines = list.map(Human.attributes)
            if r["truncated"] == .bool(true) {
                lines.append("(the first \(list.count); the rect holds more: --limit up to \(ParamRanges.queryLimit.upperBound), or --after the last cell shown)")
            }
            return lines
        }
    }
}
