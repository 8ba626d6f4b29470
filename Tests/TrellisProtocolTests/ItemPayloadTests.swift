import Testing
import TrellisCore
@testable import TrellisProtocol

/// Item payloads are the canonical JSON text of their value: what frames append as it is, and
/// what the engine compares for changes.
@Suite struct ItemPayloadTests {
    @Test func theBytesAreCompactJSONWithSortedKeys() {
        let payload = ItemPayload(.object(["label": .string("#1"), "color": .string("red"), "n": .number(3)]))
        #expect(String(decoding: payload.bytes, as: UTF8.self) == ##"{"color":"red","label":"#1","n":3}"##)
    }

    @Test func equalValuesGiveEqualPayloads() {
        var a: [String: JSONValue] = [:], b: [String: JSONValue] = [:]
        for n in 0..<20 { a["k\(n)"] = .number(Double(n)) }
        for n in (0..<20).reversed() { b["k\(n)"] = .number(Double(n)) }
        #expect(ItemPayload(.object(a)) == ItemPayload(.object(b)))
        #expect(ItemPayload(.object(a)) != ItemPayload(.object(b.merging(["k0": .number(1)]) { $1 })))
    }

    @Test func readsBackAsTheSameValue() {
        let value: JSONValue = .object(["a": .array([.null, .bool(true), .number(-0.5)]), "b": .string("é\n")])
        #expect(ItemPayload(value).json == value)
        #expect(ItemPayload(.null).json == .null)
    }

    @Test func writesItsBytesAsTheWriterWould() {
        let value: JSONValue = .object(["z": .number(1e20), "a": .object(["y": .number(0.1), "x": .string("\u{1}")])])
        var appended = ByteBuffer()
        ItemPayload(value).write(into: &appended)
        #expect(appended.bytes == JSONWriter.bytes(value))
        #expect(!appended.holdsNonFiniteNumber)
    }
}

/// The byte-level writer of a data set writes what the JSON tree would.
@Suite struct DataEncodingTests {
    @Test func writingSectionsStraightGivesTheTreesBytes() throws {
        var sections: [Section] = []
        for s in 0..<3 {
            var items: [Item] = []
            for n in 0..<(s * 40) {
                let size: Size? = n % 3 == 0 ? Size(Double(n) + 0.25, 1e-7 * Double(n + 1)) : nil
                let reuse = n % 4 == 0 ? "tall \"q\"" : Item.defaultReuseIdentifier
                let data: ItemPayload? = n % 5 == 0 ? ItemPayload(.object(["b": .array([.number(Double(n)), .null]), "a": .string("é\n\u{7f}")])) : nil
                items.append(Item(id: ItemID("i\(s)-\(n)\\/"), size: size, reuseIdentifier: reuse, data: data))
            }
            sections.append(Section(id: SectionID("s\(s)\u{2028}"), items: items))
        }
        let data = try CollectionData(sections: sections)
        var straight = ByteBuffer()
        DataEncoding.write(sections: data, into: &straight)
        #expect(straight.bytes == JSONWriter.bytes(DataEncoding.sections(data)))
        #expect(try WireDecoding.data(.object(["sections": try JSONParser.parse(straight.bytes)])) == data)
    }
}
