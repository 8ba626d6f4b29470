/// Why a document was refused, where (a 0-based byte offset into the input), and a message a
/// person can act on, e.g. "unexpected character 'x' at byte 17, expected ',' or '}'".
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of fault, for code that maps errors to protocol error codes.
    public enum Reason: Hashable, Sendable {
        case emptyInput
        case unexpectedEndOfInput
        case unexpectedCharacter
        case trailingData
        case invalidLiteral
        case invalidNumber
        case numberOutOfRange
        case invalidEscape
        case loneSurrogate
        case controlCharacterInString
        case invalidUTF8
        case depthLimitExceeded
        case stringTooLong
        case tooManyElements

        /// True when the document may be well-formed but breaks a `JSONLimits` bound.
        public var isLimitExceeded: Bool {
            switch self {
            case .depthLimitExceeded, .stringTooLong, .tooManyElements: true
            default: false
            }
        }
    }

    public let reason: Reason
    /// The 0-based offset of the offending byte (the input's length when it ended too early).
    public let offset: Int
    /// A sentence naming the fault, its byte offset and what was expected there.
    public let message: String

    public init(_ reason: Reason, at offset: Int, _ message: String) {
        self.reason = reason
        self.offset = offset
        self.message = message
    }

    public var description: String { message }

    /// How a byte reads in a message: `'x'` for printable ASCII, a name or code otherwise.
    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "'"): return "\"'\""
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x20: return "space"
        case 0x09: return "tab"
        case 0x0A: return "line feed"
        case 0x0D: return "carriage return"
        case 0x00...0x1F, 0x7F: return "control character U+\(hex(byte, digits: 4))"
        default: return "non-ASCII byte 0x\(hex(byte, digits: 2))"
        }
    }

    static func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
