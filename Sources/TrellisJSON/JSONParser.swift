/// A strict RFC 8259 JSON parser producing `JSONValue`.
///
/// Hand-written because Foundation's JSON was measured at about 1 ms per 4 KB message on the
/// target machine (shared/reference/measured-here.md); this one is a struct with mutating
/// methods over a byte pointer, the form that measured fast in Swift 6.
///
/// - Strict: one value, optionally surrounded by whitespace (space, tab, LF, CR); no comments,
///   trailing commas, single quotes, leading zeros, "+", NaN or Infinity; strings must be valid
///   UTF-8 with no raw control characters; `\u` escapes must pair surrogates correctly.
/// - Numbers become `Double`, correctly rounded; a number too large for a `Double` (1e400) is
///   an error rather than infinity, one too small rounds to zero as usual.
/// - Duplicate object keys are accepted and the last one wins, as in most parsers.
/// - Bounded: `JSONLimits` caps depth, string length and container size. Nesting is handled
///   with an explicit stack, not recursion, so no depth setting can overflow the call stack.
public enum JSONParser {
    /// Parses a whole document.
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits = .default
    ) throws(JSONParseError) -> JSONValue {
        var scanner = JSONScanner(input: bytes, limits: limits)
        return try scanner.parseDocument()
    }

    /// Parses a whole document.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default
    ) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withMemoryRebound(to: UInt8.self) { typed in
            do throws(JSONParseError) { return .success(try parse(typed, limits: limits)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses a whole document.
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = .default) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { typed in
            do throws(JSONParseError) { return .success(try parse(typed, limits: limits)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses a whole document held in any byte collection (contiguous ones are not copied).
    @inlinable
    public static func parse(
        _ bytes: some Collection<UInt8>, limits: JSONLimits = .default
    ) throws(JSONParseError) -> JSONValue {
        let contiguous: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { typed in
            do throws(JSONParseError) { return .success(try parse(typed, limits: limits)) } catch { return .failure(error) }
        }
        if let contiguous { return try contiguous.get() }
        return try parse(Array(bytes), limits: limits)
    }

    /// Parses a whole document given as text (its UTF-8 bytes).
    public static func parse(_ text: String, limits: JSONLimits = .default) throws(JSONParseError) -> JSONValue {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { typed in
            do throws(JSONParseError) { return .success(try parse(typed, limits: limits)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// The parser's state: a cursor over the input and the stack of open containers. Values of
/// open containers wait on one flat stack (`values`, with object keys on `keys`) and become an
/// array or a dictionary when their container closes.
struct JSONScanner {
    private let input: UnsafeBufferPointer<UInt8>
    private let end: Int
    private let limits: JSONLimits
    private var position = 0
    private var values: [JSONValue] = []
    private var keys: [String] = []
    private var frames: [Frame] = []
    /// Decoded bytes of the current string, used only when it contains escapes.
    private var scratch: [UInt8] = []

    private struct Frame {
        var isObject: Bool
        var valueStart: Int
        var keyStart: Int
        /// Where the container opened, for messages.
        var offset: Int
    }

    init(input: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.input = input
        self.end = input.count
        self.limits = limits
    }

    // MARK: Bytes

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let comma = UInt8(ascii: ",")
    private static let colon = UInt8(ascii: ":")
    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")
    private static let openBracket = UInt8(ascii: "[")
    private static let closeBracket = UInt8(ascii: "]")
    private static let minus = UInt8(ascii: "-")
    private static let zero = UInt8(ascii: "0")
    private static let nine = UInt8(ascii: "9")

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < end {
            switch input[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }

    // MARK: Errors

    /// "unexpected character 'x' at byte 17, expected …", or the end-of-input form.
    private func unexpected(expected: String, note: String = "") -> JSONParseError {
        guard position < end else {
            return JSONParseError(
                .unexpectedEndOfInput, at: end, "unexpected end of input at byte \(end), expected \(expected)\(note)")
        }
        let byte = input[position]
        let what = JSONParseError.describe(byte)
        let noun = byte >= 0x80 || byte < 0x20 || byte == 0x7F ? what : "character \(what)"
        return JSONParseError(.unexpectedCharacter, at: position, "unexpected \(noun) at byte \(position), expected \(expected)\(note)")
    }

    // MARK: Document

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if end == 0 { throw JSONParseError(.emptyInput, at: 0, "empty input, expected a JSON value") }
        var afterComma = false
        parsing: while true {
            // Expecting a value.
            skipWhitespace()
            guard position < end else { throw unexpected(expected: "a JSON value") }
            var value: JSONValue
            let byte = input[position]
            switch byte {
            case Self.openBrace, Self.openBracket:
                let isObject = byte == Self.openBrace
                if frames.count >= limits.maximumDepth {
                    throw JSONParseError(
                        .depthLimitExceeded, at: position,
                        "nesting deeper than the limit of \(limits.maximumDepth) levels at byte \(position)")
                }
                let open = position
                position += 1
                skipWhitespace()
                if position < end && input[position] == (isObject ? Self.closeBrace : Self.closeBracket) {
                    position += 1
                    value = isObject ? .object([:]) : .array([])
                } else {
                    frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count, offset: open))
                    if isObject { try parseKey(afterComma: false) }
                    afterComma = false
                    continue parsing
                }
            case Self.quote:
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case Self.minus, Self.zero...Self.nine:
                value = .number(try parseNumber())
            default:
                if afterComma && (byte == Self.closeBracket || byte == Self.closeBrace) {
                    throw unexpected(expected: "a JSON value", note: " (trailing commas are not allowed)")
                }
                throw unexpected(expected: "a JSON value")
            }

            // A value is complete: add it to its container, closing containers as they end.
            while true {
                guard let frame = frames.last else {
                    skipWhitespace()
                    if position < end {
                        let what = JSONParseError.describe(input[position])
                        throw JSONParseError(
                            .trailingData, at: position,
                            "unexpected \(what) at byte \(position) after the end of the JSON value")
                    }
                    return value
                }
                if values.count - frame.valueStart >= limits.maximumElements {
                    let kind = frame.isObject ? "object" : "array"
                    let items = frame.isObject ? "members" : "elements"
                    throw JSONParseError(
                        .tooManyElements, at: frame.offset,
                        "\(kind) starting at byte \(frame.offset) has more than the limit of \(limits.maximumElements) \(items)")
                }
                values.append(value)
                skipWhitespace()
                let closer = frame.isObject ? Self.closeBrace : Self.closeBracket
                guard position < end, input[position] == Self.comma || input[position] == closer else {
                    throw unexpected(expected: frame.isObject ? "',' or '}'" : "',' or ']'")
                }
                if input[position] == Self.comma {
                    position += 1
                    if frame.isObject { try parseKey(afterComma: true) }
                    afterComma = true
                    continue parsing
                }
                position += 1
                value = closeContainer(frame)
            }
        }
    }

    /// Turns the values of the innermost container into its value and pops it.
    private mutating func closeContainer(_ frame: Frame) -> JSONValue {
        frames.removeLast()
        if frame.isObject {
            let count = values.count - frame.valueStart
            var members = [String: JSONValue](minimumCapacity: count)
            for index in 0..<count {
                // Duplicate keys: the last one wins.
                members[keys[frame.keyStart + index]] = values[frame.valueStart + index]
            }
            values.removeSubrange(frame.valueStart...)
            keys.removeSubrange(frame.keyStart...)
            return .object(members)
        }
        let elements = Array(values[frame.valueStart...])
        values.removeSubrange(frame.valueStart...)
        return .array(elements)
    }

    /// Reads `"key" :` inside an object, leaving the cursor before the member's value.
    private mutating func parseKey(afterComma: Bool) throws(JSONParseError) {
        skipWhitespace()
        guard position < end, input[position] == Self.quote else {
            if afterComma && position < end && input[position] == Self.closeBrace {
                throw unexpected(expected: "a string key", note: " (trailing commas are not allowed)")
            }
            throw unexpected(expected: afterComma ? "a string key" : "a string key or '}'")
        }
        keys.append(try parseString())
        skipWhitespace()
        guard position < end, input[position] == Self.colon else {
            throw unexpected(expected: "':' after an object key")
        }
        position += 1
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        let bytes = literal.utf8Start
        for index in 0..<count {
            guard position < end, input[position] == bytes[index] else {
                let name = "\(literal)"
                if position >= end {
                    throw JSONParseError(
                        .unexpectedEndOfInput, at: end,
                        "unexpected end of input at byte \(end) inside '\(name)' (started at byte \(start))")
                }
                throw JSONParseError(
                    .invalidLiteral, at: position,
                    "invalid literal at byte \(start): unexpected \(JSONParseError.describe(input[position])) at byte \(position), expected '\(name)'")
            }
            position += 1
        }
    }

    // MARK: Strings

    /// Reads a string starting at its opening quote; the cursor ends after the closing quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        let open = position
        position += 1
        var runStart = position
        var escaped = false
        while true {
            // Plain ASCII runs are the common case: skip them without further checks.
            while position < end {
                let byte = input[position]
                if byte == Self.quote || byte == Self.backslash || byte < 0x20 || byte >= 0x80 { break }
                position += 1
            }
            guard position < end else {
                throw JSONParseError(
                    .unexpectedEndOfInput, at: end,
                    "unexpected end of input at byte \(end) inside the string that starts at byte \(open), expected '\"'")
            }
            let byte = input[position]
            if byte == Self.quote {
                let run = UnsafeBufferPointer(rebasing: input[runStart..<position])
                let length = (escaped ? scratch.count : 0) + run.count
                if length > limits.maximumStringBytes {
                    throw JSONParseError(
                        .stringTooLong, at: open,
                        "string starting at byte \(open) is \(length) bytes long, over the limit of \(limits.maximumStringBytes)")
                }
                position += 1
                if !escaped { return String(decoding: run, as: UTF8.self) }
                scratch.append(contentsOf: run)
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == Self.backslash {
                if !escaped {
                    scratch.removeAll(keepingCapacity: true)
                    escaped = true
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<position]))
                try parseEscape()
                runStart = position
                // Bound the scratch buffer early rather than after the whole string.
                if scratch.count > limits.maximumStringBytes {
                    throw JSONParseError(
                        .stringTooLong, at: open,
                        "string starting at byte \(open) is longer than the limit of \(limits.maximumStringBytes) bytes")
                }
            } else if byte < 0x20 {
                let escape: String =
                    switch byte {
                    case 0x0A: "\\n"
                    case 0x0D: "\\r"
                    case 0x09: "\\t"
                    default: "\\u\(JSONParseError.hex(byte, digits: 4))"
                    }
                throw JSONParseError(
                    .controlCharacterInString, at: position,
                    "unescaped \(JSONParseError.describe(byte)) at byte \(position) in the string that starts at byte \(open); write it as \(escape)")
            } else {
                try skipUTF8Sequence(stringStart: open)
            }
        }
    }

    /// Checks one multi-byte UTF-8 sequence (RFC 3629: no overlong forms, no surrogates,
    /// nothing above U+10FFFF) and moves past it.
    private mutating func skipUTF8Sequence(stringStart: Int) throws(JSONParseError) {
        let lead = input[position]
        let continuationCount: Int
        var secondLow: UInt8 = 0x80
        var secondHigh: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: continuationCount = 1
        case 0xE0: continuationCount = 2; secondLow = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: continuationCount = 2
        case 0xED: continuationCount = 2; secondHigh = 0x9F
        case 0xF0: continuationCount = 3; secondLow = 0x90
        case 0xF1...0xF3: continuationCount = 3
        case 0xF4: continuationCount = 3; secondHigh = 0x8F
        default:
            throw JSONParseError(
                .invalidUTF8, at: position,
                "invalid UTF-8 at byte \(position) in the string that starts at byte \(stringStart): 0x\(JSONParseError.hex(lead, digits: 2)) cannot start a character")
        }
        for index in 1...continuationCount {
            let at = position + index
            let low = index == 1 ? secondLow : 0x80
            let high = index == 1 ? secondHigh : 0xBF
            guard at < end, input[at] >= low, input[at] <= high else {
                throw JSONParseError(
                    .invalidUTF8, at: position,
                    "invalid UTF-8 at byte \(position) in the string that starts at byte \(stringStart): truncated, overlong or surrogate sequence")
            }
        }
        position += 1 + continuationCount
    }

    /// Decodes the escape at the cursor (a backslash) into `scratch`.
    private mutating func parseEscape() throws(JSONParseError) {
        let start = position
        position += 1
        guard position < end else {
            throw JSONParseError(.unexpectedEndOfInput, at: end, "unexpected end of input at byte \(end) inside an escape")
        }
        let byte = input[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeStart: start)
            var scalar = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                let lowStart = position
                guard position + 1 < end, input[position] == Self.backslash, input[position + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError(
                        .loneSurrogate, at: start,
                        "lone high surrogate \\u\(JSONParseError.hex(unit, digits: 4)) at byte \(start): it must be followed by a low surrogate escape \\uDC00-\\uDFFF")
                }
                position += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONParseError(
                        .loneSurrogate, at: start,
                        "lone high surrogate \\u\(JSONParseError.hex(unit, digits: 4)) at byte \(start): the escape after it, \\u\(JSONParseError.hex(low, digits: 4)), is not a low surrogate \\uDC00-\\uDFFF")
                }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw JSONParseError(
                    .loneSurrogate, at: start,
                    "lone low surrogate \\u\(JSONParseError.hex(unit, digits: 4)) at byte \(start): it must follow a high surrogate \\uD800-\\uDBFF")
            }
            appendUTF8(scalar)
        default:
            position -= 1
            throw JSONParseError(
                .invalidEscape, at: start,
                "invalid escape at byte \(start): backslash followed by \(JSONParseError.describe(byte)); valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
        }
    }

    /// Reads the four hex digits after `\u`.
    private mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard position < end else {
                throw JSONParseError(
                    .unexpectedEndOfInput, at: end,
                    "unexpected end of input at byte \(end) inside the \\u escape at byte \(escapeStart)")
            }
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw JSONParseError(
                    .invalidEscape, at: position,
                    "invalid \\u escape at byte \(escapeStart): \(JSONParseError.describe(byte)) at byte \(position) is not a hex digit; \\u takes exactly 4")
            }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: Numbers

    /// Exact powers of ten: every one up to 1e22 is a Double without rounding.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Reads a number in exactly the JSON grammar:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = position
        let negative = input[position] == Self.minus
        if negative { position += 1 }
        var mantissa: UInt64 = 0
        var digitCount = 0

        guard position < end, Self.isDigit(input[position]) else {
            throw numberError(start: start, expected: "a digit after '-'")
        }
        if input[position] == Self.zero {
            position += 1
            if position < end && Self.isDigit(input[position]) {
                throw JSONParseError(
                    .invalidNumber, at: start,
                    "invalid number at byte \(start): leading zeros are not allowed")
            }
            digitCount = 1
        } else {
            while position < end && Self.isDigit(input[position]) {
                if digitCount < 19 { mantissa = mantissa &* 10 &+ UInt64(input[position] - Self.zero) }
                digitCount += 1
                position += 1
            }
        }

        var fractionDigits = 0
        if position < end && input[position] == UInt8(ascii: ".") {
            position += 1
            guard position < end, Self.isDigit(input[position]) else {
                throw numberError(start: start, expected: "a digit after '.'")
            }
            while position < end && Self.isDigit(input[position]) {
                if digitCount < 19 { mantissa = mantissa &* 10 &+ UInt64(input[position] - Self.zero) }
                digitCount += 1
                fractionDigits += 1
                position += 1
            }
        }

        var exponent = 0
        if position < end && (input[position] == UInt8(ascii: "e") || input[position] == UInt8(ascii: "E")) {
            position += 1
            var exponentNegative = false
            if position < end && (input[position] == UInt8(ascii: "+") || input[position] == Self.minus) {
                exponentNegative = input[position] == Self.minus
                position += 1
            }
            guard position < end, Self.isDigit(input[position]) else {
                throw numberError(start: start, expected: "a digit in the exponent")
            }
            while position < end && Self.isDigit(input[position]) {
                // Saturate: any exponent this large already overflows or underflows a Double.
                if exponent < 100_000 { exponent = exponent * 10 + Int(input[position] - Self.zero) }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        // Fast path (Clinger): a mantissa below 2^53 times an exact power of ten is one
        // correctly rounded operation.
        let scale = exponent - fractionDigits
        if digitCount <= 15 && scale >= -22 && scale <= 22 {
            let magnitude =
                scale >= 0
                ? Double(mantissa) * Self.exactPowersOfTen[scale]
                : Double(mantissa) / Self.exactPowersOfTen[-scale]
            return negative ? -magnitude : magnitude
        }

        // Otherwise the standard library's correctly rounded conversion; the text is already
        // known to be valid JSON, which it also accepts.
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        guard let value = Double(text) else {
            throw JSONParseError(.invalidNumber, at: start, "invalid number at byte \(start)")
        }
        guard value.isFinite else {
            throw JSONParseError(
                .numberOutOfRange, at: start,
                "number at byte \(start) is too large for a 64-bit floating-point value (at most about 1.8e308)")
        }
        return value
    }

    private func numberError(start: Int, expected: String) -> JSONParseError {
        if position >= end {
            return JSONParseError(
                .unexpectedEndOfInput, at: end,
                "unexpected end of input at byte \(end) inside the number at byte \(start), expected \(expected)")
        }
        return JSONParseError(
            .invalidNumber, at: position,
            "invalid number at byte \(start): unexpected \(JSONParseError.describe(input[position])) at byte \(position), expected \(expected)")
    }
}
