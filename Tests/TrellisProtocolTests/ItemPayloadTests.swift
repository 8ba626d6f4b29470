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
