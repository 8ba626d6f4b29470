import Testing
@testable import TrellisServer
import TrellisProtocol
import TrellisCore

/// A compositional layout's tree survives a restart from a compacted snapshot (written back
/// through LayoutEncoding, read through LayoutSpec), not only a journal replay.
@Suite struct CompositionalPersistenceTests {
    @Test func aCompositionalSessionComesBackFromItsSnapshot() throws {
        let layout = try JSONParser.parse(#"""
        {"type": "compositional", "interSectionSpacing": 12,
         "sections": [{"name": "rows", "contentInsets": [10, 10, 10, 10], "interGroupSpacing": 10,
                       "group": {"arrangement": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 44}},
                                 "subitems": [{"size": {"width": {"fractionalWidth": 0.5}, "height": {"fractionalHeight": 1}}, "contentInsets": [5, 5, 5, 5]}]},
                       "boundarySupplementaryItems": [{"kind": "header", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 30}},
                                                       "alignment": "top", "pinToVisibleBounds": true, "zIndex": 2}],
                       "decorationItems": [{"contentInsets": [5, 5, 5, 5]}]},
                      {"name": "strip", "orthogonalScrollingBehavior": "groupPaging",
                       "group": {"arrangement": "horizontal", "size": {"width": {"fractionalWidth": 0.8}, "height": {"absolute": 100}},
                                 "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]}}],
         "provider": {"rule": "cycling"}}
        """#)
        let arguments = ["--journal-compact-bytes", "4096"]
        let first = try ServerProcess(arguments: arguments)
        let c = try first.connect()
        try c.must("session.create", ["name": .string("c"), "clock": .string("manual"), "bounds": .array([.number(375), .number(600)]), "layout": layout])
        try c.must("data.reload", ["session": .string("c"), "sections": .array((0..<6).map { s in
            .object(["id": .string("s\(s)"), "items": .array((0..<9).map { .object(["id": .string("i\(s)-\($0)")]) })])
        })])
        for step in 0..<120 { try c.must("scroll.to", ["session": .string("c"), "offset": .array([.number(0), .number(Double(step % 8) * 40)])]) }
        try PersistenceTests.settled(c)
        #expect(PersistenceTests.fileSize(first.directory + "/state/snapshot.json") > 0)
        let scene = try PersistenceTests.scene(c, "c")
        first.crash()
        let second = try ServerProcess(arguments: arguments, directory: first.scratch)
        let d = try second.connect()
        #expect(PersistenceTests.normalized(try PersistenceTests.scene(d, "c")) == PersistenceTests.normalized(scene))
        // The pinned header still follows the offset after the restart.
        try d.must("scroll.to", ["session": .string("c"), "offset": .array([.number(0), .number(100)])])
        let header = try d.result("query.attributes", ["session": .string("c"), "rect": .array([0, 100, 375, 1].map { .number($0) })])
        guard case .array(let found)? = header["attributes"] else { Issue.record("no attributes"); return }
        let frame = found.first { $0["element"]?["elementKind"] == .string("header") }?["frame"]
        #expect(frame == .array([10, 100, 355, 30].map { .number($0) }))
        second.stop()
    }
}
