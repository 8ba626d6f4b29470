import Foundation
import Testing
import TrellisGeometry

@testable import TrellisJSON

@Suite("JSONParser")
struct JSONParserTests {
    private func parse(_ text: String, limits: JSONLimits = .default) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(text, limits: limits)
    }

    private func parseError(_ text: String, limits: JSONLimits = .default) -> JSONParseError? {
        do throws(JSONParseError) {
            _ = try JSONParser.parse(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    private func parseError(bytes: [UInt8], limits: JSONLimits = .default) -> JSONParseError? {
        do throws(JSONParseError) {
            _ = try JSONParser.parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Grammar

    static let validDocuments: [(String, JSONValue)] = [
        ("null", .null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .number(0)),
        ("\"\"", .string("")),
        ("[]", .array([])),
        ("{}", .object([:])),
        (" \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 \t\r\n] \t\r\n", .array([.number(1), .number(2)])),
        ("[[]]", .array([.array([])])),
        ("[{}]", .array([.object([:])])),
        ("{\"a\":[]}", .object(["a": .array([])])),
        ("[1,\"a\",true,false,null,{},[]]", .array([.number(1), .string("a"), .bool(true), .bool(false), .null, .object([:]), .array([])])),
        ("{\"a\":1,\"b\":{\"c\":[2,3]}}", .object(["a": .number(1), "b": .object(["c": .array([.number(2), .number(3)])])])),
        ("{ \"a\" : 1 , \"b\" : 2 }", .object(["a": .number(1), "b": .number(2)])),
        ("{\"\":0}", .object(["": .number(0)])),
        ("{\"a\":1,\"a\":2}", .object(["a": .number(2)])),  // duplicate keys: last wins
        ("[-0]", .array([.number(-0.0)])),
        ("[1e1,1E1,1e+1,1e-1,1.5e01]", .array([.number(10), .number(10), .number(10), .number(0.1), .number(15)])),
        ("\"\\u0000\"", .string("\u{0}")),
        ("\"/ & \\/\"", .string("/ & /")),
        ("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", .string("\"\\/\u{8}\u{C}\n\r\t")),
        ("\"é中😀\"", .string("é中😀")),
        ("\"\\u00e9\\u4E2D\\uD83D\\uDE00\"", .string("é中😀")),
        ("\"\\uDBFF\\uDFFF\"", .string("\u{10FFFF}")),
        ("\"\\uFFFF\"", .string("\u{FFFF}")),
        ("\"\u{7F}\"", .string("\u{7F}")),
        ("\"a\\nb\"", .string("a\nb")),
        ("[\"\\u0041\\u0062\"]", .array([.string("Ab")])),
    ]

    @Test("valid documents parse to the expected value", arguments: validDocuments.indices)
    func validDocument(_ index: Int) throws {
        let (text, expected) = Self.validDocuments[index]
        let value = try parse(text)
        #expect(JSONTestSupport.identical(value, expected), "\(text) gave \(value)")
    }

    static let invalidDocuments: [(String, JSONParseError.Reason)] = [
        ("", .emptyInput),
        (" ", .unexpectedEndOfInput),
        ("[", .unexpectedEndOfInput),
        ("]", .unexpectedCharacter),
        ("{", .unexpectedEndOfInput),
        ("[1", .unexpectedEndOfInput),
        ("[1,", .unexpectedEndOfInput),
        ("{\"a\"", .unexpectedEndOfInput),
        ("{\"a\":", .unexpectedEndOfInput),
        ("{\"a\":1", .unexpectedEndOfInput),
        ("[1,]", .unexpectedCharacter),
        ("[,1]", .unexpectedCharacter),
        ("[1 2]", .unexpectedCharacter),
        ("[1,,2]", .unexpectedCharacter),
        ("{\"a\":1,}", .unexpectedCharacter),
        ("{,}", .unexpectedCharacter),
        ("{\"a\" 1}", .unexpectedCharacter),
        ("{\"a\":1 \"b\":2}", .unexpectedCharacter),
        ("{a:1}", .unexpectedCharacter),
        ("{'a':1}", .unexpectedCharacter),
        ("{1:1}", .unexpectedCharacter),
        ("{\"a\"::1}", .unexpectedCharacter),
        ("[1]]", .trailingData),
        ("{}}", .trailingData),
        ("1 2", .trailingData),
        ("null x", .trailingData),
        ("[1]x", .trailingData),
        ("\"a\"\"b\"", .trailingData),
        ("1\u{0}", .trailingData),
        ("nul", .unexpectedEndOfInput),
        ("nulL", .invalidLiteral),
        ("True", .unexpectedCharacter),
        ("tru", .unexpectedEndOfInput),
        ("truex", .trailingData),
        ("fals", .unexpectedEndOfInput),
        ("NaN", .unexpectedCharacter),
        ("Infinity", .unexpectedCharacter),
        ("-Infinity", .invalidNumber),
        ("+1", .unexpectedCharacter),
        ("01", .invalidNumber),
        ("-01", .invalidNumber),
        ("00", .invalidNumber),
        ("1.", .unexpectedEndOfInput),
        ("1.e1", .invalidNumber),
        (".5", .unexpectedCharacter),
        ("-", .unexpectedEndOfInput),
        ("- 1", .invalidNumber),
        ("1e", .unexpectedEndOfInput),
        ("1e+", .unexpectedEndOfInput),
        ("1ee1", .invalidNumber),
        ("0x10", .trailingData),
        ("1_000", .trailingData),
        ("1e400", .numberOutOfRange),
        ("-1e400", .numberOutOfRange),
        ("[1.0e999999999999999999]", .numberOutOfRange),
        ("\"abc", .unexpectedEndOfInput),
        ("\"\\", .unexpectedEndOfInput),
        ("\"\\x\"", .invalidEscape),
        ("\"\\'\"", .invalidEscape),
        ("\"\\U0041\"", .invalidEscape),
        ("\"\\u00\"", .invalidEscape),
        ("\"\\u00G0\"", .invalidEscape),
        ("\"\\u12", .unexpectedEndOfInput),
        ("\"\\uD800\"", .loneSurrogate),
        ("\"\\uD800x\"", .loneSurrogate),
        ("\"\\uD800\\n\"", .loneSurrogate),
        ("\"\\uD800\\uD800\"", .loneSurrogate),
        ("\"\\uDC00\"", .loneSurrogate),
        ("\"\\uDFFF\\uD800\"", .loneSurrogate),
        ("\"a\nb\"", .controlCharacterInString),
        ("\"\t\"", .controlCharacterInString),
        ("\"\u{0}\"", .controlCharacterInString),
        ("\"\u{1F}\"", .controlCharacterInString),
        ("\u{FEFF}1", .unexpectedCharacter),  // a byte order mark is not JSON
        ("/* c */ 1", .unexpectedCharacter),
        ("[1] // c", .trailingData),
        ("'a'", .unexpectedCharacter),
        ("\u{A0}1", .unexpectedCharacter),  // only the four JSON whitespace characters
        ("\u{C}1", .unexpectedCharacter),
    ]

    @Test("invalid documents are refused with the right reason", arguments: invalidDocuments.indices)
    func invalidDocument(_ index: Int) {
        let (text, reason) = Self.invalidDocuments[index]
        let error = parseError(text)
        #expect(error?.reason == reason, "\(text.debugDescription): \(error?.message ?? "accepted")")
        if let error { #expect(error.offset >= 0 && error.offset <= text.utf8.count) }
    }

    static let invalidUTF8: [[UInt8]] = [
        [0x22, 0x80, 0x22],  // lone continuation byte
        [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
        [0x22, 0xC1, 0xBF, 0x22],  // overlong
        [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
        [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22],  // overlong 4-byte
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8 encoded surrogate U+D800
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
        [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],
        [0x22, 0xFF, 0x22],
        [0x22, 0xC3, 0x22],  // truncated
        [0x22, 0xE4, 0xB8, 0x22],  // truncated
        [0x22, 0xC3],  // truncated at end of input
        [0x22, 0xC3, 0x28, 0x22],  // bad continuation
    ]

    @Test("invalid UTF-8 inside strings is refused", arguments: invalidUTF8)
    func invalidUTF8InString(_ bytes: [UInt8]) {
        let error = parseError(bytes: bytes)
        #expect(error?.reason == .invalidUTF8, "\(bytes): \(error?.message ?? "accepted")")
        #expect(error?.offset == 1)
    }

    @Test func validUTF8BoundariesAreAccepted() throws {
        let scalars: [Unicode.Scalar] = ["\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{10000}", "\u{10FFFF}"]
        for scalar in scalars {
            let text = String(scalar)
            let value = try JSONParser.parse([0x22] + Array(text.utf8) + [0x22])
            #expect(value == .string(text))
        }
    }

    @Test func invalidByteOutsideStringsIsRefused() {
        let error = parseError(bytes: [0x5B, 0xC3, 0xA9, 0x5D])
        #expect(error?.reason == .unexpectedCharacter)
        #expect(error?.message == "unexpected non-ASCII byte 0xC3 at byte 1, expected a JSON value")
    }

    // MARK: Strings

    @Test func escapesDecode() throws {
        #expect(try parse(#""\u0041\u00DF\u6771\uD834\uDD1E""#) == .string("Aß東𝄞"))
        #expect(try parse(#""\ud834\udd1e""#) == .string("𝄞"))
        #expect(try parse(#""x\u0000y""#) == .string("x\u{0}y"))
        #expect(try parse(#""\\u0041""#) == .string("\\u0041"))
        #expect(try parse(#""a\"b""#) == .string("a\"b"))
        // Text before and after escapes is kept, including non-ASCII.
        #expect(try parse(#""é\n中\t😀""#) == .string("é\n中\t😀"))
    }

    @Test func surrogateErrorsExplainThemselves() {
        #expect(
            parseError(#"["\uD83D"]"#)?.message
                == #"lone high surrogate \uD83D at byte 2: it must be followed by a low surrogate escape \uDC00-\uDFFF"#)
        #expect(
            parseError(#""\uDE00""#)?.message
                == #"lone low surrogate \uDE00 at byte 1: it must follow a high surrogate \uD800-\uDBFF"#)
        #expect(
            parseError(#""\uD83D\u0041""#)?.message
                == #"lone high surrogate \uD83D at byte 1: the escape after it, \u0041, is not a low surrogate \uDC00-\uDFFF"#)
    }

    // MARK: Numbers

    static let exactNumbers: [(String, Double)] = [
        ("0", 0),
        ("-0", -0.0),
        ("0.0", 0),
        ("-0.0", -0.0),
        ("1", 1),
        ("-1", -1),
        ("0.1", 0.1),
        ("0.3", 0.3),
        ("1e308", 1e308),
        ("1.7976931348623157e308", .greatestFiniteMagnitude),
        ("-1.7976931348623157e308", -.greatestFiniteMagnitude),
        ("5e-324", .leastNonzeroMagnitude),
        ("4.9406564584124654e-324", .leastNonzeroMagnitude),
        ("2.2250738585072014e-308", .leastNormalMagnitude),
        ("1e-400", 0),
        ("123456789012345678", 123_456_789_012_345_680),  // the nearest double
        ("9007199254740993", 9_007_199_254_740_992),  // rounds to even
        ("18446744073709551616", 18_446_744_073_709_551_616),
        ("3.141592653589793", 3.141592653589793),
        ("2.718281828459045E0", 2.718281828459045),
        ("1E22", 1e22),
        ("1e23", 1e23),
        ("123.456e-7", 123.456e-7),
        ("0.000001", 0.000001),
        ("100000000000000000000000000000000", 1e32),
        ("0.1e1", 1),
        ("7e-10", 7e-10),
        ("-12.5E+2", -1250),
        ("1" + String(repeating: "0", count: 300), 1e300),
        ("0." + String(repeating: "0", count: 300) + "1", 1e-301),
    ]

    @Test("numbers parse to the correctly rounded double", arguments: exactNumbers.indices)
    func exactNumber(_ index: Int) throws {
        let (text, expected) = Self.exactNumbers[index]
        guard case .number(let value) = try parse(text) else {
            Issue.record("\(text) is not a number")
            return
        }
        #expect(value.bitPattern == expected.bitPattern, "\(text) gave \(value), expected \(expected)")
    }

    @Test func randomDoublesParseExactlyFromTheirShortestText() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<5_000 {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            for text in [value.description, String(format: "%.17g", value)] {
                guard case .number(let parsed) = try parse(text) else {
                    Issue.record("not a number: \(text)")
                    continue
                }
                #expect(parsed.bitPattern == value.bitPattern, "\(text)")
            }
        }
    }

    @Test func shortDecimalsMatchTheStandardLibrary() throws {
        // The fast path must agree with the correctly rounded conversion everywhere it applies.
        var rng = SplitMix64(seed: 7)
        for _ in 0..<5_000 {
            let mantissa = Int.random(in: 0..<1_000_000_000_000_000, using: &rng)
            let exponent = Int.random(in: -30...30, using: &rng)
            let text = "\(mantissa)e\(exponent)"
            guard case .number(let parsed) = try parse(text) else { continue }
            #expect(parsed.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }

    // MARK: Limits

    private func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @Test func depthAtTheLimitIsAccepted() throws {
        #expect(throws: Never.self) { try parse(nested(64)) }
        let objects = String(repeating: "{\"a\":", count: 64) + "1" + String(repeating: "}", count: 64)
        #expect(throws: Never.self) { try parse(objects) }
        #expect(throws: Never.self) { try parse(nested(3), limits: JSONLimits(maximumDepth: 3)) }
    }

    @Test func depthOneOverTheLimitIsRefused() {
        let error = parseError(nested(65))
        #expect(error?.reason == .depthLimitExceeded)
        #expect(error?.offset == 64)
        #expect(error?.message == "nesting deeper than the limit of 64 levels at byte 64")
        let mixed = String(repeating: "[{\"a\":", count: 32) + "[1]" + String(repeating: "}]", count: 32)
        #expect(parseError(mixed)?.reason == .depthLimitExceeded)
        #expect(parseError(nested(4), limits: JSONLimits(maximumDepth: 3))?.reason == .depthLimitExceeded)
        #expect(parseError("[]", limits: JSONLimits(maximumDepth: 0))?.reason == .depthLimitExceeded)
        #expect(throws: Never.self) { try parse("1", limits: JSONLimits(maximumDepth: 0)) }
    }

    @Test func enormousNestingDoesNotOverflowTheStack() {
        // A million opening brackets, with and without a huge depth limit: the parser keeps its
        // own stack, so neither crashes.
        let deep = String(repeating: "[", count: 1_000_000)
        #expect(parseError(deep)?.reason == .depthLimitExceeded)
        let unbounded = JSONLimits(maximumDepth: .max)
        #expect(parseError(deep, limits: unbounded)?.reason == .unexpectedEndOfInput)
        let closed = deep + String(repeating: "]", count: 1_000_000)
        #expect(parseError(closed)?.reason == .depthLimitExceeded)
    }

    @Test func stringLimit() {
        let limits = JSONLimits(maximumStringBytes: 8)
        #expect(throws: Never.self) { try parse("\"12345678\"", limits: limits) }
        #expect(throws: Never.self) { try parse("\"\\u0031\\u0032\\u0033\\u0034\\u0035\\u0036\\u0037\\u0038\"", limits: limits) }
        let error = parseError("[\"123456789\"]", limits: limits)
        #expect(error?.reason == .stringTooLong)
        #expect(error?.message == "string starting at byte 1 is 9 bytes long, over the limit of 8")
        #expect(parseError("{\"123456789\":1}", limits: limits)?.reason == .stringTooLong)
        #expect(parseError("\"1234567\\n9\"", limits: limits)?.reason == .stringTooLong)
        #expect(parseError("\"ééééé\"", limits: limits)?.reason == .stringTooLong)  // 10 bytes of UTF-8
    }

    @Test func elementLimit() {
        let limits = JSONLimits(maximumElements: 3)
        #expect(throws: Never.self) { try parse("[1,2,3]", limits: limits) }
        #expect(throws: Never.self) { try parse("{\"a\":1,\"b\":2,\"c\":3}", limits: limits) }
        let error = parseError("[[1,2,3,4]]", limits: limits)
        #expect(error?.reason == .tooManyElements)
        #expect(error?.message == "array starting at byte 1 has more than the limit of 3 elements")
        #expect(
            parseError("{\"a\":1,\"b\":2,\"c\":3,\"d\":4}", limits: limits)?.message
                == "object starting at byte 0 has more than the limit of 3 members")
        // Duplicate keys still count: the limit bounds work, not the result.
        #expect(parseError("{\"a\":1,\"a\":2,\"a\":3,\"a\":4}", limits: limits)?.reason == .tooManyElements)
    }

    @Test func hugeInputsAreRefusedCleanly() {
        let bigString = "\"" + String(repeating: "x", count: (1 << 20) + 1) + "\""
        #expect(parseError(bigString)?.reason == .stringTooLong)
        let bigEscapedString = "\"" + String(repeating: "\\n", count: (1 << 20) + 1) + "\""
        #expect(parseError(bigEscapedString)?.reason == .stringTooLong)
        var bigArray = [UInt8]()
        bigArray.reserveCapacity(2 * (1 << 20) + 8)
        bigArray.append(UInt8(ascii: "["))
        for _ in 0...(1 << 20) { bigArray.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: ",")]) }
        bigArray.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: "]")])
        #expect(parseError(bytes: bigArray)?.reason == .tooManyElements)
        // A long run of garbage fails at its first byte.
        #expect(parseError(String(repeating: "x", count: 1 << 20))?.offset == 0)
        // A very long number is still just a number.
        let longNumber = "1" + String(repeating: "0", count: 100_000)
        #expect(parseError(longNumber)?.reason == .numberOutOfRange)
    }

    // MARK: Messages

    @Test func errorMessagesNameTheByteAndWhatWasExpected() {
        #expect(parseError("{\"a\":1,\"b\":2 x}")?.message == "unexpected character 'x' at byte 13, expected ',' or '}'")
        #expect(parseError("[1,2 x]")?.message == "unexpected character 'x' at byte 5, expected ',' or ']'")
        #expect(parseError("[1,]")?.message == "unexpected character ']' at byte 3, expected a JSON value (trailing commas are not allowed)")
        #expect(parseError("{\"a\":1,}")?.message == "unexpected character '}' at byte 7, expected a string key (trailing commas are not allowed)")
        #expect(parseError("{a:1}")?.message == "unexpected character 'a' at byte 1, expected a string key or '}'")
        #expect(parseError("{\"a\" 1}")?.message == "unexpected character '1' at byte 5, expected ':' after an object key")
        #expect(parseError("[1")?.message == "unexpected end of input at byte 2, expected ',' or ']'")
        #expect(parseError("")?.message == "empty input, expected a JSON value")
        #expect(parseError("[1] x")?.message == "unexpected 'x' at byte 4 after the end of the JSON value")
        #expect(parseError("01")?.message == "invalid number at byte 0: leading zeros are not allowed")
        #expect(parseError("[1.x]")?.message == "invalid number at byte 1: unexpected 'x' at byte 3, expected a digit after '.'")
        #expect(parseError("nulx")?.message == "invalid literal at byte 0: unexpected 'x' at byte 3, expected 'null'")
        #expect(parseError("1e999")?.message == "number at byte 0 is too large for a 64-bit floating-point value (at most about 1.8e308)")
        #expect(
            parseError("\"a\nb\"")?.message
                == "unescaped line feed at byte 2 in the string that starts at byte 0; write it as \\n")
        #expect(
            parseError("\"\\q\"")?.message
                == "invalid escape at byte 1: backslash followed by 'q'; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
        #expect(parseError("[\"abc")?.message == "unexpected end of input at byte 5 inside the string that starts at byte 1, expected '\"'")
        #expect(parseError("\t")?.message == "unexpected end of input at byte 1, expected a JSON value")
        #expect(parseError("[\u{1}]")?.message == "unexpected control character U+0001 at byte 1, expected a JSON value")
    }

    // MARK: Inputs

    @Test func allInputFormsAgree() throws {
        let text = #"{"a":[1,2.5,"x"],"b":null}"#
        let expected = try parse(text)
        let bytes = Array(text.utf8)
        #expect(try JSONParser.parse(bytes) == expected)
        #expect(try JSONParser.parse(bytes[...]) == expected)
        #expect(try JSONParser.parse(ContiguousArray(bytes)) == expected)
        #expect(try JSONParser.parse(bytes.lazy.map { $0 }) == expected)  // not contiguous: copied
        let fromRaw = try bytes.withUnsafeBytes { raw in try JSONParser.parse(raw) }
        #expect(fromRaw == expected)
        let fromPointer = try bytes.withUnsafeBufferPointer { buffer in try JSONParser.parse(buffer) }
        #expect(fromPointer == expected)
        // A slice in the middle of a larger buffer: offsets are relative to the slice.
        let framed = Array("xx[1,}yy".utf8)
        do throws(JSONParseError) {
            _ = try JSONParser.parse(framed[2..<6])
            Issue.record("accepted")
        } catch {
            #expect(error.offset == 3)
        }
    }

    // MARK: Cross-check

    static let crossCheckDocuments: [String] = [
        #"{"jsonrpc":"2.0","id":1,"method":"scroll.to","params":{"offset":[0,120.5],"animated":true}}"#,
        #"[0,-0,1,-1,0.5,1e10,1E-10,123456789012345678,1.7976931348623157e308,5e-324,3.14159]"#,
        #"{"s":"\u00e9\ud83d\ude00\n\t\"\\\/","e":"","u":"中文 😀","nested":{"a":[[],[{}],[null,true,false]]}}"#,
        #"  [ "a" , { "b" : [ 1 , 2 ] } ]  "#,
        #"{"a":1,"b":2,"c":3,"d":{"e":{"f":{"g":[1,[2,[3,[4]]]]}}}}"#,
        #""just a string""#,
        "42",
        "null",
    ]

    @Test("agrees with Foundation's JSONSerialization", arguments: crossCheckDocuments)
    func agreesWithFoundation(_ text: String) throws {
        let ours = try parse(text)
        let theirs = try #require(JSONTestSupport.foundationValue(text))
        #expect(ours == theirs)
    }

    @Test func agreesWithFoundationOnRandomDocuments() throws {
        var rng = SplitMix64(seed: 2024)
        for _ in 0..<200 {
            let value = JSONTestSupport.randomValue(&rng, depth: 4)
            let text = JSONWriter.string(value)
            let theirs = try #require(JSONTestSupport.foundationValue(text), "Foundation refused \(text)")
            let ours = try parse(text)
            #expect(JSONTestSupport.closeEnough(ours, theirs), "\(text)")
        }
    }
}
