import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis apply NAME --file F`: diffs a snapshot against the data and animates the difference.
struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply a data snapshot: the server diffs it and animates the changes.",
        discussion: """
            The file has the same forms as reload --file (a *.jsonl file holds one item a line for \
            one section s0, read as it is sent); - reads stdin. A snapshot larger than one request \
            is sent in chunks (data.apply.begin/append/commit) and applied at once at the end, as \
            one data.apply: an interrupted apply changes nothing.
            """)

    @OptionGroup var session: SessionArguments
    @Option(help: ArgumentHelp("A JSON snapshot file, or a JSON Lines file of items (*.jsonl); - for stdin.", valueName: "path")) var file: String
    @Option(help: "How the reply (--json) lists where items went: ranges ([old,new,count] runs) or items (one [old,new] pair each).") var mapping: MappingForm?
    @OptionGroup(title: "Animation") var animation: AnimationOptions

    func run() throws {
        var options = try animation.params()
        if let mapping { options["mapping"] = .string(mapping.rawValue) }
        let progress = ProgressLine()
        let name = session.name
        let lines = file.hasSuffix(".jsonl") || file.hasSuffix(".ndjson") ? file : nil
        // A whole JSON file is read (and checked) before anything is sent.
        let sections: JSONValue? = try lines == nil ? {
            let value = try readJSONFile(file)
            return try parsing { () throws(SyntaxError) in try GeneratedData.sections(fromFile: value) }
        }() : nil
        try withServer(session.global, session: name) { c in
            let upload = try ChunkedReload(caller: c.caller, session: name, method: "data.apply", options: options)
            let total = sections.map(Reload.itemCount)
            upload.onChunk = { sent in
                if let total, total > 0 {
                    progress.update("apply \(name): \(sent) of \(total) items sent (\(sent * 100 / total)%)")
                } else {
                    progress.update("apply \(name): \(sent) items sent")
                }
            }
            do {
                if let lines {
                    try upload.beginSection("s0")
                    try Reload.streamLines(lines) { item in try upload.append(encodedItem: item) }
                } else if let sections = sections?.arrayValue {
                    for section in sections {
                        try upload.beginSection(section["id"]?.stringValue ?? "")
                        for item in section["items"]?.arrayValue ?? [] { try upload.append(item: item) }
                    }
                }
            } catch {
                upload.abort()
                throw error
            }
            if upload.chunksSent > 0 { progress.update("apply \(name): applying \(upload.itemsGiven) items") }
            let result = try progress.ticking { try upload.finish() }
            c.emit(result, Human.update)
        }
    }
}
