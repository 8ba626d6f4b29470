/// A reading position in a JSON text, for the byte-level readers of the protocol's common
/// forms (`RequestEnvelope`'s, `UploadChunkScanner`'s): each reads the form it knows through
/// these steps and leaves anything else to the parser, which also words the errors.
struct JSONByteCursor {
    let bytes: UnsafeRawBufferPointer
    var at = 0
    /// The array `bytes` points into, when a reader keeps slices of it (no copy per value).
    let owner: [UInt8]?

    init(_ bytes: UnsafeRawBufferPointer, owner: [UInt8]? = nil) {
        self.bytes = bytes
        self.owner = owner
    }

    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    var isAtEnd: Bool { at == bytes.count }

    mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    /// A string of printable ASCII without escapes, at most `maximumLength` bytes long: the
    /// range between its quotes.
    mutating func plainString(maximumLength: Int = .max) -> Range<Int>? {
        guard take(Self.quote) else { return nil }
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            if byte == Self.quote {
                at += 1
                return at - 1 - start <= maximumLength ? start..<(at - 1) : nil
            }
            guard byte >= 0x20, byte < 0x7F, byte != Self.backslash else { return nil }
            at += 1
        }
        return nil
    }

    /// Moves to the `}` or `]` that closes the object or array the cursor is inside (strings
    /// and nested values skipped whole), and returns its offset; nil when the text ends first.
    /// It checks nothing else: what it skips is read by the parser afterwards.
    mutating func closingBracket() -> Int? {
        var depth = 0
        while at < bytes.count {
            switch bytes[at] {
            case Self.quote:
                at += 1
                while at < bytes.count, bytes[at] != Self.quote { at += bytes[at] == Self.backslash ? 2 : 1 }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return at }
                depth -= 1
            default:
                break
            }
            at += 1
        }
        return nil
    }

    /// Whether the bytes in `range` are `text` (ASCII).
    func matches(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let expected = text.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != expected[offset] { return false }
        return true
    }
}
