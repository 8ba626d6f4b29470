import Testing
import TrellisCore
@testable import TrellisProtocol

/// A supplementary element on the wire carries its item, so an item's badges are told apart
/// (and a script can name one, `badge:0:3`); a section's own views carry item 0, and an element
/// written before the key existed still reads as item 0.
@Suite struct SupplementaryElementWireTests {
    static func written(_ element: ElementID) throws -> JSONValue {
        var b = ByteBuffer()
        WireEncoding.writeElement(element, itemID: nil, into: &b)
        return try JSONParser.parse(b.bytes)
    }

    @Test func aBadgeKeepsItsItemThroughTheWire() throws {
        let badge = ElementID(kind: .supplementary("badge"), indexPath: IndexPath(2, 3))
        let json = try Self.written(badge)
        #expect(json == .object(["kind": .string("supplementary"), "section": .number(2), "item": .number(3), "elementKind": .string("badge")]))
        #expect(try WireScene.element(json, path: "e").0 == badge)
        let header = ElementID(kind: .supplementary("header"), indexPath: IndexPath(1, 0))
        #expect(try Self.written(header)["item"] == .number(0))
        let old = try JSONParser.parse(#"{"kind": "supplementary", "section": 1, "elementKind": "header"}"#)
        #expect(try WireScene.element(old, path: "e").0 == header)
        // Decorations stay as they were: no item.
        #expect(try Self.written(ElementID(kind: .decoration("background"), indexPath: IndexPath(1, 0)))["item"] == nil)
    }
}
