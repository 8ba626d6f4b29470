import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis reload NAME --items N | --file F`: replaces the data (reloadData, no animation).
struct Reload: ParsableCommand, OptionChecks {
    static let configuration = CommandConfiguration(
        abstract: "Replace a session's data without animation (reloadData).",
        discussion: """
            --items 50 makes one section s0 of items item0…item49 (data.label "#0"…); --items 10,5 \
            makes two sections. --file takes {"sections":[…]} (data.reload's params), an array of \
            sections, or an array of items (ids or objects) for one section; - reads stdin.
            """)

    @OptionGroup var session: SessionArguments
    @Option(help: ArgumentHelp("Generated items: a count, or counts per section (10,5).", valueName: "N")) var items: String?
    @Option(help: ArgumentHelp("A JSON data file (- for stdin).", valueName: "path")) var file: String?

    func checkOptions() throws {
        guard (items == nil) != (file == nil) else { throw optionError("give exactly one of --items or --file") }
    }

    func run() throws {
        try checkOptions()
        // Many items take seconds to make, send and load: a terminal shows how long so far.
        let progress = ProgressLine()
        progress.update("reload \(session.name): making the items")
        let sections: JSONValue
        if let items {
            sections = GeneratedData.sections(counts: try parsing { () throws(SyntaxError) in try CommandSyntax.counts(items) })
        } else {
            let value = try readJSONFile(file!)
            sections = try parsing { () throws(SyntaxError) in try GeneratedData.sections(fromFile: value) }
        }
        let count = sections.arrayValue?.reduce(0) { $0 + ($1["items"]?.arrayValue?.count ?? 0) } ?? 0
        progress.update("reload \(session.name): sending and loading \(count) items")
        try withServer(session.global, session: session.name) { c in
            let result = try progress.ticking { try c.call("data.reload", ["session": .string(session.name), "sections": sections]) }
            c.emit(result) { r in
                let items = Human.number(r["items"]), sections = Human.number(r["sections"])
                return ["\(items) item\(items == "1" ? "" : "s") in \(sections) section\(sections == "1" ? "" : "s")"]
            }
        }
    }
}
