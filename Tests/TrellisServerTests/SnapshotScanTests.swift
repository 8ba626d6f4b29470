import Foundation
import Testing
import TrellisCore
import TrellisJSON
import TrellisProtocol
@testable import TrellisServer

/// A restart reads the snapshot's data straight from its bytes (`StateSnapshot.scanned`): it
/// must read exactly what the checked parse reads, and leave to it whatever it does not know.
@Suite struct SnapshotScanTests {
    /// Two sessions with every kind of item the scanner reads (sizes, reuse identifiers,
    /// payloads, none), selection, an inset and an offset; a third with no items at all.
    static func snapshot() throws -> [UInt8] {
        let data = try CollectionData(sections: [
            Section(id: "a", items: [Item(id: "x", size: Size(10.5, 20), reuseIdentifier: "r",
                                          data: ItemPayload(.object(["k": .null, "n": .number(3), "s": .string("t")]))),
                                     Item(id: "y", data: ItemPayload(.object(["on": .bool(true)]))), Item(id: "z", size: Size(0.25, 1e6))]),
            Section(id: "b", items: (0..<300).map { Item(id: ItemID("b\($0)"), size: $0 % 3 == 0 ? Size(40, 30) : nil) }),
            Section(id: "empty", items: []),
        ])
        var view = CollectionView(boundsSize: Size(300, 400), layout: FlowLayout(), data: data,
                                  contentInset: EdgeInsets(top: 5, left: 0, bottom: 5, right: 0))
        view.selectionPolicy = SelectionPolicy(allowsSelection: true, allowsMultipleSelection: true)
        view.setContentOffset(Point(0, 123.25))
        try view.select(IndexPath(1, 3))
        view.advance(to: 2.5)
        let other = CollectionView(boundsSize: Size(200, 200), layout: FlowLayout(), data: .generated(count: 40))
        let none = CollectionView(boundsSize: Size(100, 100), layout: FlowLayout(), data: try CollectionData(sections: []))
        let sessions = try [("s", view), ("t", other), ("u", none)].map { name, view in
            try SessionState(Session(name: name, collectionView: view, clock: .manual, epochMilliseconds: 0))
        }
        return StateSnapshot(seq: 42, sessions: sessions).bytes.bytes
    }

    @Test func aSnapshotThisServerWroteIsScannedToWhatTheParseReads() throws {
        let bytes = try Self.snapshot()
        let read = StateSnapshot.scanned(bytes)
        let scanned = try #require(read, "the scanner left its own writer's file to the parser")
        let parsed = try StateSnapshot(parsing: bytes, file: "snapshot.json")
        #expect(scanned.seq == 42 && scanned.sessions.count == 3)
        #expect(scanned.json == parsed.json)
        for (a, b) in zip(scanned.sessions, parsed.sessions) {
            #expect(a.data == b.data)
            #expect(try a.makeView().scene == b.makeView().scene)
        }
    }

    @Test func whatTheScannerDoesNotKnowIsLeftToTheParse() throws {
        let text = String(decoding: try Self.snapshot(), as: UTF8.self)
        let variants = [
            text.replacingOccurrences(of: "{\"format\"", with: "{ \"format\""),          // other spacing
            text.replacingOccurrences(of: "\"seq\":42", with: "\"seq\":042"),            // not JSON's integer
            text.replacingOccurrences(of: "\"id\":\"x\"", with: "\"id\":\"\\u0078\""),   // an escape
            text.replacingOccurrences(of: "]}\n", with: "]}"),                          // no line end
            text.replacingOccurrences(of: "{\"on\":true}", with: "null"),                  // a payload not an object
            text.replacingOccurrences(of: "\"allowsSelection\":true", with: "\"allowsSelection\":true,\"sections\":[]"),
        ]
        for variant in variants {
            let read = StateSnapshot.scanned(Array(variant.utf8))
            #expect(read == nil, "\(variant.prefix(80))")
        }
        // Those the parse reads (an escape, another spacing) still restore the same data.
        let parsed = try StateSnapshot(parsing: Array(text.utf8), file: "f")
        for variant in variants.prefix(1) + [variants[2], variants[3]] {
            #expect(try StateSnapshot(bytes: Array(variant.utf8), file: "f").json == parsed.json)
        }
        #expect(try StateSnapshot(bytes: Array(variants[4].utf8), file: "f").sessions.count == 3)
        // A duplicated item identifier is refused by both ways, with the checked way's words.
        let duplicated = text.replacingOccurrences(of: "\"id\":\"y\"", with: "\"id\":\"x\"")
        let scannedDuplicate = StateSnapshot.scanned(Array(duplicated.utf8))
        #expect(scannedDuplicate == nil)
        let read = try StateSnapshot(bytes: Array(duplicated.utf8), file: "f")
        #expect(read.sessions.map(\.name) == ["t", "u"] && read.unreadable.first?.reason.contains("unique identifiers") == true)
    }
}
