import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis scroll NAME --to X,Y | --item S:I [--position P] | --section N --to X [--animated]`:
/// setContentOffset, scrollToItem, or one orthogonal section's offset across, at once or animated.
struct Scroll: ParsableCommand, OptionChecks {
    static let configuration = CommandConfiguration(
        abstract: "Scroll a session: to a content offset, to an item (scrollToItem), or one orthogonal section across (--section N --to X).",
        discussion: "Positions: \(Choices.list(ScrollPosition.names.map(\.0))); one per axis joined with ','.")

    @OptionGroup var session: SessionArguments
    @Option(help: ArgumentHelp("A content offset X,Y (unclamped, as setContentOffset).", valueName: "X,Y")) var to: String?
    @Option(help: ArgumentHelp("An item S:I to scroll to (clamped).", valueName: "S:I")) var item: String?
    @Option(help: "Where the item ends up (default top).") var position: String?
    @Option(help: ArgumentHelp("An orthogonal section of a compositional layout: --to X scrolls it across (clamped).", valueName: "N"))
    var section: Int?
    @OptionGroup(title: "Animation") var animation: AnimateOnRequestOptions

    func checkOptions() throws {
        guard (to == nil) != (item == nil) else { throw optionError("give exactly one of --to or --item") }
        if position != nil && item == nil { throw optionError("--position goes with --item") }
        if let section {
            guard item == nil else { throw optionError("--section goes with --to X, not --item") }
            guard section >= 0 else { throw optionError("--section takes a section index, 0 or more; found \(section)") }
            guard let to, Double(to) != nil else { throw optionError("--section N takes --to X: one offset across, in points (e.g. --to 120)") }
        }
    }

    func run() throws {
        try checkOptions()
        var params: [String: JSONValue] = [:]
        let method: String
        if let section, let to, let x = Double(to) {
            params["section"] = .number(Double(section))
            params["offset"] = .number(x)
            guard try animation.timing.params().isEmpty else {
                throw optionError("--section scrolls animate as a released scroll settles: --animated only, no timing options")
            }
            if animation.animated { params["animated"] = .bool(true) }
            try session.call("scroll.to", params) { r in
                ["section \(Human.number(r["section"] ?? .null)) offset \(Human.number(r["offset"] ?? .null))"]
            }
            return
        }
        if let to {
            let p = try parsing { () throws(SyntaxError) in try CommandSyntax.point(to) }
            params["offset"] = wire(p)
            method = "scroll.to"
        } else {
            params["at"] = wire(try parsing { () throws(SyntaxError) in try CommandSyntax.indexPath(item!) })
            if let position {
                try parsing { () throws(SyntaxError) in
                    for name in position.split(whereSeparator: { $0 == "," || $0 == "|" }) {
                        try Choices.check(String(name), among: ScrollPosition.names.map(\.0), what: "--position")
                    }
                }
                params["position"] = .string(position)
            }
            method = "scroll.toItem"
        }
        params.merge(try animation.params()) { $1 }
        try session.call(method, params) { r in
            Human.offset(r) + (r["scroll"].map { ["animated (scroll \(Human.number($0)))"] } ?? [])
        }
    }
}
