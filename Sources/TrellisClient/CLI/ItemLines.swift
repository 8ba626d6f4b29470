#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import TrellisCore
import TrellisProtocol

/// A JSON Lines file of items (`reload --file items.jsonl`): one item a line, an id string
/// (`"a"`) or an object (`{"id": "a", "size": [w, h], "reuseId": …, "data": …}`); blank lines
/// are skipped. Read as it arrives, a block at a time, so a file of a million items never sits
/// whole in memory; errors name the line. Each line is checked (read in the common form by
/// `UploadChunkScanner`, else parsed) and handed on as JSON text: an object line as it is, an
/// id line as `{"id":…}`, with no tree written out again.
public struct ItemLines {
    /// Bytes of a line not ended yet.
    private var partial: [UInt8] = []
    /// The number of the last line read (1-based).
    public private(set) var lineNumber = 0
    /// Lines longer than this are refused (an item's payload is never near it).
    static let maximumLineBytes = 64 << 20
    static let limits = JSONLimits(maximumDepth: 64, maximumStringBytes: 64 << 20, maximumElements: 1 << 26)

    public init() {}

    /// Feeds the next bytes of the file; `body` gets each whole line's item, in order.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) else {
                partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
                guard partial.count <= Self.maximumLineBytes else {
                    throw SyntaxError("line \(lineNumber + 1) is longer than \(Self.maximumLineBytes) bytes; one item a line is expected")
                }
                return
            }
            let end = UnsafeRawPointer(found) - base
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            if partial.isEmpty {
                try take(line, body)
            } else {
                partial.append(contentsOf: line)
                let whole = partial
                partial.removeAll(keepingCapacity: true)
                try whole.withUnsafeBytes { try take($0, body) }
            }
            start = end + 1
        }
    }

    /// The end of the file: a last line without its line end is read too.
    public mutating func finish(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !partial.isEmpty else { return }
        let whole = partial
        partial = []
        try whole.withUnsafeBytes { try take($0, body) }
    }

    private mutating func take(_ line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        lineNumber += 1
        var text = line
        while let last = text.last, last == 32 || last == 9 || last == 13 { text = UnsafeRawBufferPointer(rebasing: text.dropLast()) }
        while let first = text.first, first == 32 || first == 9 { text = UnsafeRawBufferPointer(rebasing: text.dropFirst()) }
        if text.isEmpty { return }
        // The common form needs no tree to be checked (a million lines: a second of parsing).
        if UploadChunkScanner.isCommonItem(text) { return try body(text) }
        let value: JSONValue
        do { value = try JSONParser.parse(text, limits: Self.limits) } catch {
            throw SyntaxError("line \(lineNumber) is not JSON: \(error.message)")
        }
        switch try Self.kind(value, line: lineNumber) {
        case .object:
            try body(text)
        case .id:
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: #"{"id":"#.utf8)
            scratch.append(contentsOf: text)
            scratch.append(UInt8(ascii: "}"))
            try scratch.withUnsafeBytes { try body($0) }
        }
    }

    private var scratch: [UInt8] = []

    enum Kind { case id, object }

    /// What a line's value is: an id string, or an item object (with a string `id`).
    static func kind(_ value: JSONValue, line: Int) throws(SyntaxError) -> Kind {
        switch value {
        case .string: return .id
        case .object(let members) where members["id"]?.stringValue != nil: return .object
        default:
            throw SyntaxError("line \(line): an item is an id string or an object with a string \"id\" ({\"id\": …, \"size\"?, \"reuseId\"?, \"data\"?}), found \(value.kindDescription)")
        }
    }
}
