import ArgumentParser
import Foundation
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
            sections, or an array of items (ids or objects) for one section; - reads stdin. A file \
            named *.jsonl (or *.ndjson) holds one item a line (an id string or an object) for one \
            section s0, read as it is sent. Data larger than one request is sent in chunks \
            (data.reload.begin/append/commit) and applied at once at the end: an interrupted \
            reload changes nothing.
            """)

    @OptionGroup var session: SessionArguments
    @Option(help: ArgumentHelp("Generated items: a count, or counts per section (10,5).", valueName: "N")) var items: String?
    @Option(help: ArgumentHelp("A JSON data file, or a JSON Lines file of items (*.jsonl); - for stdin.", valueName: "path")) var file: String?

    func checkOptions() throws {
        guard (items == nil) != (file == nil) else { throw optionError("give exactly one of --items or --file") }
    }

    func run() throws {
        try checkOptions()
        // Many items take seconds to send and load: a terminal shows how far it got.
        let progress = ProgressLine()
        let name = session.name
        let counts = try items.map { text in try parsing { () throws(SyntaxError) in try CommandSyntax.counts(text) } }
        let lines = file.flatMap { $0.hasSuffix(".jsonl") || $0.hasSuffix(".ndjson") ? $0 : nil }
        // A whole JSON file is read (and checked) before anything is sent.
        let sections: JSONValue? = try file.flatMap { path in
            guard lines == nil else { return nil }
            let value = try readJSONFile(path)
            return try parsing { () throws(SyntaxError) in try GeneratedData.sections(fromFile: value) }
        }
        try withServer(session.global, session: name) { c in
            let reload = try ChunkedReload(caller: c.caller, session: name)
            let total = counts.map { $0.reduce(0, +) } ?? sections.map(Self.itemCount)
            reload.onChunk = { sent in
                if let total, total > 0 {
                    progress.update("reload \(name): \(sent) of \(total) items sent (\(sent * 100 / total)%)")
                } else {
                    progress.update("reload \(name): \(sent) items sent")
                }
            }
            do {
                if let counts {
                    var next = 0
                    for (k, count) in counts.enumerated() {
                        try reload.beginSection("s\(k)")
                        for n in next..<(next + count) { try reload.appendGenerated(n) }
                        next += count
                    }
                } else if let lines {
                    try reload.beginSection("s0")
                    try Self.streamLines(lines) { item in try reload.append(encodedItem: item) }
                } else if let sections = sections?.arrayValue {
                    for section in sections {
                        try reload.beginSection(section["id"]?.stringValue ?? "")
                        for item in section["items"]?.arrayValue ?? [] { try reload.append(item: item) }
                    }
                }
            } catch {
                reload.abort()
                throw error
            }
            // One request when it all fits (sent now), else the commit of what was sent.
            progress.update(reload.chunksSent == 0 ? "reload \(name): sending and loading \(reload.itemsGiven) items"
                                                   : "reload \(name): loading \(reload.itemsGiven) items")
            let result = try progress.ticking { try reload.finish() }
            c.emit(result) { r in
                let items = Human.number(r["items"]), sections = Human.number(r["sections"])
                return ["\(items) item\(items == "1" ? "" : "s") in \(sections) section\(sections == "1" ? "" : "s")"]
            }
        }
    }

    static func itemCount(_ sections: JSONValue) -> Int {
        sections.arrayValue?.reduce(0) { $0 + ($1["items"]?.arrayValue?.count ?? 0) } ?? 0
    }

    /// Reads a JSON Lines file a block at a time, each line's item to `body`; a bad line stops
    /// it with the file and line named.
    static func streamLines(_ path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let path = ScriptHost.current.map { ScriptFile.resolve(path, relativeTo: $0.scriptPath) } ?? path
        guard let file = fopen(path, "rb") else {
            printError("trellis: cannot read \(path): \(String(cString: strerror(errno)))")
            throw ExitCode(Exit.noInput)
        }
        defer { fclose(file) }
        var reader = ItemLines()
        var block = [UInt8](repeating: 0, count: 1 << 20)
        do {
            while true {
                let n = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if n > 0 { try block.withUnsafeBytes { try reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n]), body) } }
                if n < block.count {
                    guard ferror(file) == 0 else {
                        printError("trellis: cannot read \(path): \(String(cString: strerror(errno)))")
                        throw ExitCode(Exit.noInput)
                    }
                    break
                }
            }
            try reader.finish(body)
        } catch let error as SyntaxError {
            printError("trellis: \(path): \(error.message)")
            throw ExitCode(Exit.refused)
        }
    }
}
