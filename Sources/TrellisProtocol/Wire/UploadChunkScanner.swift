import TrellisCore
import TrellisJSON

/// The params of a chunked upload's chunk (`data.reload.append`, `data.apply.append`:
/// `{session, upload, sections}`) read straight from their bytes into sections, with no JSON
/// tree in between. A million items come this way; building a tree of them and reading it
/// again was most of a reload's server time (perf: the parser, retains and releases).
///
/// Only the common form is read, and read as the parser and `WireDecoding` would read it:
/// an object with the keys `session`, `upload` and `sections`, each at most once; strings of
/// printable ASCII without escapes (at most `JSONLimits.default`'s string length); sections
/// `{id, items?}`; items `{id, size?, reuseId?, data?}` with a size of two positive plain
/// decimal numbers (at most 15 digits, no exponent) and a payload already in its canonical
/// form (`ItemPayload`: compact, keys in order, one level of plain strings, whole numbers,
/// booleans and nulls; its bytes are kept as they came); arrays of at most
/// `JSONLimits.default`'s elements. Anything else (another payload, an escape, an unknown key,
/// a bad value) gives nil, and the caller parses the params the checked way, which also words
/// the error for a bad one.
public enum UploadChunkScanner {
    /// What a chunk's params hold.
    public struct Chunk: Sendable {
        public var session: String
        public var upload: String
        public var sections: [Section]
    }

    /// Whether `line` is one item in the common form (spaces around it allowed): a line a
    /// client may pass on as it is, where anything else is parsed to be checked.
    public static func isCommonItem(_ line: UnsafeRawBufferPointer) -> Bool {
        var cursor = JSONByteCursor(line)
        cursor.skipSpace()
        guard cursor.item() != nil else { return false }
        cursor.skipSpace()
        return cursor.isAtEnd
    }

    /// The object at `offset` in `bytes` whose first member is `sections` (a snapshot's session,
    /// which `StateSnapshot` writes so, its data in the common form), read without a JSON tree
    /// of its data: the sections, its other members as one object's bytes for the parser, and
    /// the offset just past its closing brace. Nil when it is not in that form (or a section
    /// holds more than `JSONLimits.default`'s elements): the caller parses it the checked way.
    public static func sectionsFirstObject(in bytes: [UInt8], at offset: Int) -> (sections: [Section], others: [UInt8], end: Int)? {
        bytes.withUnsafeBytes { raw in
            var cursor = JSONByteCursor(raw, owner: bytes)
            cursor.at = offset
            cursor.skipSpace()
            guard cursor.take(UInt8(ascii: "{")) else { return nil }
            cursor.skipSpace()
            guard let key = cursor.plainString(), cursor.matches(key, "sections") else { return nil }
            cursor.skipSpace()
            guard cursor.take(UInt8(ascii: ":")), let sections = cursor.sectionList() else { return nil }
            cursor.skipSpace()
            var others: [UInt8] = [UInt8(ascii: "{")]
            if cursor.take(UInt8(ascii: ",")) {
                let start = cursor.at
                guard let close = cursor.closingBracket(), raw[close] == UInt8(ascii: "}") else { return nil }
                others.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[start...close]))
                cursor.at = close + 1
            } else {
                guard cursor.take(UInt8(ascii: "}")) else { return nil }
                others.append(UInt8(ascii: "}"))
            }
            return (sections, others, cursor.at)
        }
    }

    /// The chunk `params` (an object's bytes, braces included) hold in the common form, else nil.
    public static func scan(_ params: UnsafeRawBufferPointer) -> Chunk? {
        // One copy of the chunk, whose slices the payloads are until their chunk copies them
        // in: a small array per payload, freed between the columns' growing arrays, left the
        // heap holding about 8 B per item more after a million (RSS).
        let source = [UInt8](params)
        return source.withUnsafeBytes { bytes in
            var cursor = JSONByteCursor(bytes, owner: source)
            return cursor.chunk()
        }
    }
}

/// The byte walk behind `UploadChunkScanner.scan`; every "not the common form" is a nil.
extension JSONByteCursor {
    private static let maximumString = JSONLimits.default.maximumStringBytes
    private static let maximumElements = JSONLimits.default.maximumElements
    /// 10^0 … 10^22, each exact as a Double (as the parser's fast path uses them).
    private static let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { value, _ in value * 10 } }

    fileprivate mutating func chunk() -> UploadChunkScanner.Chunk? {
        var session: String?, upload: String?, sections: [Section]?
        let complete = members { scanner, key in
            if scanner.matches(key, "session") {
                guard session == nil, let value = scanner.string() else { return false }
                session = value
            } else if scanner.matches(key, "upload") {
                guard upload == nil, let value = scanner.string() else { return false }
                upload = value
            } else if scanner.matches(key, "sections") {
                guard sections == nil, let value = scanner.sectionList() else { return false }
                sections = value
            } else {
                return false
            }
            return true
        }
        skipSpace()
        guard complete, isAtEnd, let session, let upload, let sections else { return nil }
        return UploadChunkScanner.Chunk(session: session, upload: upload, sections: sections)
    }

    /// An object's members, each read by `member` after its key and colon (false: not the
    /// common form); true when the whole object was read.
    private mutating func members(_ member: (inout JSONByteCursor, Range<Int>) -> Bool) -> Bool {
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return false }
        skipSpace()
        if take(UInt8(ascii: "}")) { return true }
        var count = 0
        while true {
            count += 1
            guard count <= Self.maximumElements else { return false }
            skipSpace()
            guard let key = plainString(maximumLength: Self.maximumString) else { return false }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            guard member(&self, key) else { return false }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}"))
        }
    }

    /// An array's elements, each read by `element` (false: not the common form).
    private mutating func elements(_ element: (inout JSONByteCursor) -> Bool) -> Bool {
        skipSpace()
        guard take(UInt8(ascii: "[")) else { return false }
        skipSpace()
        if take(UInt8(ascii: "]")) { return true }
        var count = 0
        while true {
            count += 1
            guard count <= Self.maximumElements else { return false }
            skipSpace()
            guard element(&self) else { return false }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]"))
        }
    }

    fileprivate mutating func sectionList() -> [Section]? {
        var sections: [Section] = []
        let complete = elements { scanner in
            guard let section = scanner.section() else { return false }
            sections.append(section)
            return true
        }
        return complete ? sections : nil
    }

    private mutating func section() -> Section? {
        var id: String?, items: ItemList?
        let complete = members { scanner, key in
            if scanner.matches(key, "id") {
                guard id == nil, let value = scanner.string() else { return false }
                id = value
            } else if scanner.matches(key, "items") {
                guard items == nil, let value = scanner.itemList() else { return false }
                items = value
            } else {
                return false
            }
            return true
        }
        guard complete, let id else { return nil }
        return Section(id: SectionID(id), items: items ?? ItemList())
    }

    /// The items straight into chunks (no array of items in between).
    private mutating func itemList() -> ItemList? {
        var items = ItemList()
        let complete = elements { scanner in
            guard let item = scanner.item() else { return false }
            items.append(item)
            return true
        }
        return complete ? items : nil
    }

    fileprivate mutating func item() -> Item? {
        var id: String?, size: Size?, reuseIdentifier: String?, data: ItemPayload?
        let complete = members { scanner, key in
            if scanner.matches(key, "id") {
                guard id == nil, let value = scanner.string() else { return false }
                id = value
            } else if scanner.matches(key, "size") {
                guard size == nil, let value = scanner.size() else { return false }
                size = value
            } else if scanner.matches(key, "reuseId") {
                guard reuseIdentifier == nil, let value = scanner.string() else { return false }
                reuseIdentifier = value
            } else if scanner.matches(key, "data") {
                guard data == nil, let value = scanner.canonicalPayload() else { return false }
                data = value
            } else {
                return false
            }
            return true
        }
        guard complete, let id else { return nil }
        return Item(id: ItemID(id), size: size, reuseIdentifier: reuseIdentifier ?? Item.defaultReuseIdentifier, data: data)
    }

    /// A payload object written exactly as `ItemPayload(_:)` would write it: no space, keys
    /// plain and in strictly increasing byte order, each value a plain string, a whole number
    /// of 1 to 15 digits (no leading zero, no -0), `true`, `false` or `null`.
    private mutating func canonicalPayload() -> ItemPayload? {
        let start = at
        guard take(UInt8(ascii: "{")) else { return nil }
        if !take(UInt8(ascii: "}")) {
            var previous: Range<Int>?
            while true {
                guard let key = plainString(maximumLength: Self.maximumString) else { return nil }
                if let previous, !precedes(previous, key) { return nil }
                previous = key
                guard take(UInt8(ascii: ":")), canonicalScalar() else { return nil }
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        guard let owner else { return ItemPayload(bytes: Array(UnsafeRawBufferPointer(rebasing: bytes[start..<at]))) }
        return ItemPayload(bytes: owner[start..<at])
    }

    private mutating func canonicalScalar() -> Bool {
        guard at < bytes.count else { return false }
        switch bytes[at] {
        case Self.quote: return plainString(maximumLength: Self.maximumString) != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default:
            let negative = take(UInt8(ascii: "-"))
            let start = at
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") { at += 1 }
            let digits = at - start
            guard digits > 0, digits <= 15, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return false }
            if negative && digits == 1 && bytes[start] == UInt8(ascii: "0") { return false }
            // A fraction or an exponent follows: not canonical here (the writer's business).
            return at == bytes.count || (bytes[at] != UInt8(ascii: ".") && bytes[at] | 0x20 != UInt8(ascii: "e"))
        }
    }

    private mutating func literal(_ text: StaticString) -> Bool {
        let range = at..<(at + text.utf8CodeUnitCount)
        guard range.upperBound <= bytes.count, matches(range, text) else { return false }
        at = range.upperBound
        return true
    }

    /// Whether the key in `a` comes strictly before the key in `b` byte by byte (the order
    /// `JSONWriter` writes an object's keys in).
    private func precedes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        var x = a.lowerBound, y = b.lowerBound
        while x < a.upperBound && y < b.upperBound {
            if bytes[x] != bytes[y] { return bytes[x] < bytes[y] }
            x += 1
            y += 1
        }
        return x == a.upperBound && y < b.upperBound
    }

    /// `[width, height]`, both positive.
    private mutating func size() -> Size? {
        guard take(UInt8(ascii: "[")) else { return nil }
        skipSpace()
        guard let width = positiveNumber() else { return nil }
        skipSpace()
        guard take(UInt8(ascii: ",")) else { return nil }
        skipSpace()
        guard let height = positiveNumber() else { return nil }
        skipSpace()
        guard take(UInt8(ascii: "]")) else { return nil }
        return Size(width, height)
    }

    /// A positive number written as digits with an optional fraction, at most 15 digits in all:
    /// the value the parser's exact fast path gives for it (one correctly rounded division).
    private mutating func positiveNumber() -> Double? {
        var mantissa: UInt64 = 0, digits = 0, fraction = 0
        let start = at
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
            mantissa = mantissa &* 10 &+ UInt64(bytes[at] - UInt8(ascii: "0"))
            digits += 1
            at += 1
            guard digits <= 15 else { return nil }
        }
        // No digits, or a leading zero before another digit: the parser's to word.
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if take(UInt8(ascii: ".")) {
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
                mantissa = mantissa &* 10 &+ UInt64(bytes[at] - UInt8(ascii: "0"))
                digits += 1
                fraction += 1
                at += 1
                guard digits <= 15 else { return nil }
            }
            guard fraction > 0 else { return nil }
        }
        if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") { return nil }
        let value = Double(mantissa) / Self.powersOfTen[fraction]
        return value > 0 ? value : nil
    }

    private mutating func string() -> String? {
        guard let range = plainString(maximumLength: Self.maximumString) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
