import TrellisProtocol

/// The changes of a `SessionHistory` as the bytes they were encoded in for the recording: a
/// change's script line (`RecordedScriptLines.change`), or a chunked upload's params as JSON.
/// Kept instead of the params' trees: the line is written for the file anyway, so keeping it
/// costs a copy into a chunk, where a tree kept a few allocations alive per change and took a
/// few times its encoded size. A seek reads a change back only when it replays it.
///
/// Chunks of `chunkBytes` (a change larger than that gets a chunk of its own), so growing never
/// copies what is already kept and at most one chunk's room is spare.
struct RecordedChangeBytes {
    /// How a change's bytes read back into params.
    enum Form: UInt8 {
        /// A script line, as `RecordedScriptLines.change` wrote it.
        case line
        /// The params as JSON.
        case json
    }

    /// Where one change's bytes are.
    struct Span {
        var chunk: Int
        var start: Int
        var count: Int
        var form: Form
    }

    static let chunkBytes = 1 << 20
    private(set) var chunks: [[UInt8]] = []

    /// Keeps the bytes of `bytes` from `start` on, in `form`; where they were put.
    mutating func append(_ bytes: ByteBuffer, from start: Int, form: Form) -> Span {
        let count = bytes.count - start
        if chunks.isEmpty || chunks[chunks.count - 1].count + count > chunks[chunks.count - 1].capacity {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(Self.chunkBytes, count))
            chunks.append(chunk)
        }
        let index = chunks.count - 1
        let at = chunks[index].count
        bytes.withUnsafeBytes { raw in
            chunks[index].append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[start...]))
        }
        return Span(chunk: index, start: at, count: count, form: form)
    }

    /// The params of the change at `span` of `method` made to the session `session`, read back.
    func params(_ span: Span, method: String, session: String) throws(RecordedChangeError) -> JSONValue {
        try chunks[span.chunk].withUnsafeBufferPointer { chunk throws(RecordedChangeError) -> JSONValue in
            let bytes = UnsafeBufferPointer(rebasing: chunk[span.start..<(span.start + span.count)])
            switch span.form {
            case .json: return try Self.json(bytes)
            case .line: return try Self.line(bytes, method: method, session: session)
            }
        }
    }

    private static func json(_ bytes: UnsafeBufferPointer<UInt8>) throws(RecordedChangeError) -> JSONValue {
        do throws(JSONParseError) {
            return try JSONParser.parse(bytes, limits: JournalParser.limits)
        } catch {
            throw RecordedChangeError(message: "its params do not read back (\(error.message))")
        }
    }

    /// A script line back into params: the three forms `RecordedScriptLines.change` writes for
    /// changes a history keeps (`kill` ends the history, it is never kept).
    private static func line(_ bytes: UnsafeBufferPointer<UInt8>, method: String, session: String) throws(RecordedChangeError) -> JSONValue {
        let text = Array(bytes)
        guard text.last == UInt8(ascii: "\n") else { throw RecordedChangeError(message: "its line has no end") }
        let body = text.dropLast()
        if body.starts(with: "rpc ".utf8) {
            // rpc METHOD '{json}': the JSON inside the quotes, each '\'' back to one quote.
            guard let open = body.firstIndex(of: UInt8(ascii: "'")), let close = body.lastIndex(of: UInt8(ascii: "'")), open < close else {
                throw RecordedChangeError(message: "its rpc line has no quoted params")
            }
            var json: [UInt8] = []
            json.reserveCapacity(close - open)
            var i = open + 1
            while i < close {
                if body[i] == UInt8(ascii: "'") {
                    guard body[i...].starts(with: "'\\''".utf8) else { throw RecordedChangeError(message: "its rpc line's quoting is broken") }
                    json.append(UInt8(ascii: "'"))
                    i += 4
                } else {
                    json.append(body[i])
                    i += 1
                }
            }
            return try json.withUnsafeBufferPointer { buffer throws(RecordedChangeError) in try Self.json(buffer) }
        }
        if method == "clock.advance", body.starts(with: "advance ".utf8) {
            // advance WORD NUMBERms: the number is the last word.
            guard let space = body.lastIndex(of: UInt8(ascii: " ")), body.hasSuffix("ms") else {
                throw RecordedChangeError(message: "its advance line has no milliseconds")
            }
            let ms = try number(body[(space + 1)..<(body.endIndex - 2)])
            return .object(["session": .string(session), "ms": .number(ms)])
        }
        if method == "scroll.to", body.starts(with: "scroll ".utf8) {
            // scroll WORD --to=X,Y[ --animated]: the last " --to=" is the option (the name
            // comes before it, quoted or not).
            let option = Array(" --to=".utf8)
            var at = body.endIndex - option.count
            while at >= body.startIndex, !body[at...].starts(with: option) { at -= 1 }
            guard at >= body.startIndex else { throw RecordedChangeError(message: "its scroll line has no --to") }
            var rest = body[(at + option.count)...]
            let animated = rest.hasSuffix(" --animated")
            if animated { rest = rest.dropLast(" --animated".utf8.count) }
            guard let comma = rest.firstIndex(of: UInt8(ascii: ",")) else { throw RecordedChangeError(message: "its scroll line has no offset") }
            let offset: JSONValue = .array([.number(try number(rest[..<comma])), .number(try number(rest[(comma + 1)...]))])
            var params: [String: JSONValue] = ["session": .string(session), "offset": offset]
            if animated { params["animated"] = .bool(true) }
            return .object(params)
        }
        throw RecordedChangeError(message: "its line is not one a history keeps")
    }

    /// A number as JSONWriter wrote it (the shortest text of the double, so the same double).
    private static func number(_ text: ArraySlice<UInt8>) throws(RecordedChangeError) -> Double {
        guard !text.isEmpty, case .number(let value) = try? JSONParser.parse(text) else {
            throw RecordedChangeError(message: "a number in its line does not read back")
        }
        return value
    }
}

/// Why a kept change did not read back (a server bug: the history keeps only what it wrote).
struct RecordedChangeError: Error {
    let message: String
}

extension ArraySlice<UInt8> {
    /// Whether the slice ends with `suffix`'s UTF-8 bytes.
    fileprivate func hasSuffix(_ suffix: String) -> Bool {
        let tail = Array(suffix.utf8)
        return count >= tail.count && self[(endIndex - tail.count)...].elementsEqual(tail)
    }
}
