import Foundation
import Testing
import TrellisGeometry

@testable import TrellisJSON

@Suite("JSONWriter")
struct JSONWriterTests {
    private func text(_ value: JSONValue) -> String { JSONWriter.string(value) }

    private func written(_ body: (inout ByteBuffer) -> Void) -> String {
        var buffer = ByteBuffer()
        body(&buffer)
        return buffer.description
    }

    // MARK: Values

    @Test func scalars() {
        #expect(text(.null) == "null")
        #expect(text(.bool(true)) == "true")
        #expect(text(.bool(false)) == "false")
        #expect(text(.string("")) == "\"\"")
        #expect(text(.string("hello")) == "\"hello\"")
    }

    @Test func representativeDocumentIsByteExact() {
        let value: JSONValue = .object([
            "jsonrpc": .string("2.0"),
            "id": .number(17),
            "result": .object([
                "frame": .array([.number(0), .number(-12.5), .number(320), .number(44.25)]),
                "alpha": .number(0.1),
                "hidden": .bool(false),
                "data": .null,
                "title": .string("Ünïcode \"quoted\" \\ back/slash\n"),
                "empty": .object([:]),
                "list": .array([]),
            ]),
        ])
        #expect(
            text(value)
                == #"{"id":17,"jsonrpc":"2.0","result":{"alpha":0.1,"data":null,"empty":{},"frame":[0,-12.5,320,44.25],"hidden":false,"list":[],"title":"Ünïcode \"quoted\" \\ back/slash\n"}}"#
        )
    }

    @Test func objectKeysAreSortedByUTF8Bytes() {
        let value: JSONValue = .object(["b": .null, "a": .null, "B": .null, "é": .null, "aa": .null, "": .null, "z": .null])
        #expect(text(value) == #"{"":null,"B":null,"a":null,"aa":null,"b":null,"z":null,"é":null}"#)
        // Same value, built in another order: same bytes.
        var members: [String: JSONValue] = [:]
        for key in ["z", "é", "aa", "", "B", "a", "b"] { members[key] = .null }
        #expect(text(.object(members)) == text(value))
    }

    // MARK: Strings

    @Test func stringEscapes() {
        #expect(text(.string("\"")) == #""\"""#)
        #expect(text(.string("\\")) == #""\\""#)
        #expect(text(.string("/")) == #""/""#)
        #expect(text(.string("\n\r\t\u{8}\u{C}")) == #""\n\r\t\b\f""#)
        #expect(text(.string("\u{0}\u{1}\u{1F}")) == #""\u0000\u0001\u001f""#)
        #expect(text(.string("\u{7F}")) == "\"\u{7F}\"")
        #expect(text(.string("é中😀\u{2028}")) == "\"é中😀\u{2028}\"")
        #expect(text(.string("a\"b\\c\nd")) == #""a\"b\\c\nd""#)
    }

    @Test func everyControlCharacterIsEscaped() throws {
        for code in 0..<0x20 {
            let string = String(Unicode.Scalar(UInt8(code)))
            let bytes = JSONWriter.bytes(.string(string))
            #expect(!bytes.dropFirst().dropLast().contains { $0 < 0x20 })
            #expect(try JSONParser.parse(bytes) == .string(string))
        }
    }

    @Test func staticAndBufferStringWritersMatch() {
        #expect(written { JSONWriter.writeString("a\"b" as StaticString, into: &$0) } == #""a\"b""#)
        let bytes = Array("x\ty".utf8)
        #expect(written { buffer in bytes.withUnsafeBufferPointer { JSONWriter.writeString(utf8: $0, into: &buffer) } } == #""x\ty""#)
        // A String that is not stored contiguously (bridged or lazily built) is still written.
        let substring = "--abc--".dropFirst(2).dropLast(2)
        #expect(written { JSONWriter.writeString(String(substring), into: &$0) } == #""abc""#)
    }

    // MARK: Numbers

    static let numberCases: [(Double, String)] = [
        (0, "0"),
        (-0.0, "-0"),
        (1, "1"),
        (-1, "-1"),
        (42, "42"),
        (1_000_000, "1000000"),
        (0.1, "0.1"),
        (-0.5, "-0.5"),
        (1.5, "1.5"),
        (100.25, "100.25"),
        (1e-5, "1e-05"),
        (1e-7, "1e-07"),
        (123.456e-7, "1.23456e-05"),
        (1e308, "1e+308"),
        (-1e308, "-1e+308"),
        (.leastNonzeroMagnitude, "5e-324"),
        (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        (9_007_199_254_740_991, "9007199254740991"),
        (-9_007_199_254_740_991, "-9007199254740991"),
        (9_007_199_254_740_992, "9007199254740992"),
        (9_999_999_999_999_998, "9999999999999998"),
        (-9_999_999_999_999_998, "-9999999999999998"),
        (1e16, "1e+16"),
        (123_456_789_012_345_680, "1.2345678901234568e+17"),
        (1.0 / 3.0, "0.3333333333333333"),
        (.nan, "null"),
        (.infinity, "null"),
        (-.infinity, "null"),
    ]

    @Test("numbers are written in the documented form", arguments: numberCases.indices)
    func number(_ index: Int) {
        let (value, expected) = Self.numberCases[index]
        #expect(written { JSONWriter.writeNumber(value, into: &$0) } == expected)
    }

    @Test func integers() {
        for value in [0, 7, 9, 10, -9, -10, 99, 100, 12_345, -12_345, Int.max, Int.min, Int.min + 1] {
            #expect(written { JSONWriter.writeInt(value, into: &$0) } == String(value))
        }
    }

    @Test func numbersRoundTripExactly() throws {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<10_000 {
            let value = JSONTestSupport.randomNumber(&rng)
            let bytes = JSONWriter.bytes(.number(value))
            guard case .number(let parsed) = try JSONParser.parse(bytes) else {
                Issue.record("not a number")
                continue
            }
            #expect(parsed.bitPattern == value.bitPattern, "\(value) written as \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    // MARK: Streaming writers

    @Test func objectAndArrayWritersInsertCommas() {
        let output = written { buffer in
            var object = JSONObjectWriter(into: &buffer)
            object.key("id", into: &buffer)
            JSONWriter.writeInt(7, into: &buffer)
            object.field("name", "cell \"1\"", into: &buffer)
            object.field("x", 1.5, into: &buffer)
            object.field("n", 3, into: &buffer)
            object.field("on", true, into: &buffer)
            object.field("data", JSONValue.object(["b": .null, "a": .number(1)]), into: &buffer)
            object.key("list", into: &buffer)
            var array = JSONArrayWriter(into: &buffer)
            for value in [1, 2, 3] {
                array.element(into: &buffer)
                JSONWriter.writeInt(value, into: &buffer)
            }
            array.end(into: &buffer)
            object.key("none", into: &buffer)
            JSONArrayWriter(into: &buffer).end(into: &buffer)
            object.key(String("dynamic\nkey"), into: &buffer)
            JSONWriter.writeNull(into: &buffer)
            object.end(into: &buffer)
        }
        #expect(
            output
                == #"{"id":7,"name":"cell \"1\"","x":1.5,"n":3,"on":true,"data":{"a":1,"b":null},"list":[1,2,3],"none":[],"dynamic\nkey":null}"#
        )
        #expect(written { JSONObjectWriter(into: &$0).end(into: &$0) } == "{}")
    }

    // MARK: ByteBuffer

    @Test func byteBufferReuseKeepsCapacity() {
        var buffer = ByteBuffer(capacity: 16)
        #expect(buffer.isEmpty && buffer.capacity >= 16)
        JSONWriter.write(.array((0..<100).map { .number(Double($0)) }), into: &buffer)
        let grown = buffer.capacity
        #expect(buffer.count > 100)
        buffer.clear()
        #expect(buffer.isEmpty && buffer.capacity == grown)
        JSONWriter.write(.string("again"), into: &buffer)
        #expect(buffer.description == "\"again\"" && buffer.capacity == grown)
        buffer.clear(keepingCapacity: false)
        #expect(buffer.isEmpty)
    }

    @Test func byteBufferAppends() {
        var buffer = ByteBuffer()
        buffer.append(UInt8(ascii: "a"))
        buffer.append("bc")
        buffer.append(utf8: "dé")
        buffer.append(contentsOf: [UInt8(ascii: "f")])
        [UInt8(ascii: "g")].withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        [UInt8(ascii: "h")].withUnsafeBytes { buffer.append(contentsOf: $0) }
        #expect(buffer.description == "abcdéfgh")
        #expect(buffer.bytes == Array("abcdéfgh".utf8))
        #expect(buffer.withUnsafeBytes { $0.count } == 9)
        #expect(ByteBuffer(Array("xy".utf8)) == ByteBuffer(Array("xy".utf8)))
    }

    // MARK: Round trip

    @Test func randomValuesRoundTrip() throws {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<2_000 {
            let value = JSONTestSupport.randomValue(&rng, depth: 5)
            let bytes = JSONWriter.bytes(value)
            let parsed = try JSONParser.parse(bytes)
            #expect(JSONTestSupport.identical(parsed, value), "\(String(decoding: bytes, as: UTF8.self))")
            // Writing is deterministic: the parsed copy writes the same bytes.
            #expect(JSONWriter.bytes(parsed) == bytes)
        }
    }

    @Test func foundationReadsWhatWeWrite() throws {
        var rng = SplitMix64(seed: 31337)
        for _ in 0..<200 {
            let value = JSONTestSupport.randomValue(&rng, depth: 4)
            let text = JSONWriter.string(value)
            let theirs = try #require(JSONTestSupport.foundationValue(text), "Foundation refused \(text)")
            #expect(JSONTestSupport.closeEnough(theirs, value), "\(text)")
        }
    }
}
