import Testing
@testable import TrellisServer
import TrellisProtocol
import TrellisCore

/// `scroll.to` with a section over a real socket: one orthogonal section scrolls across, the
/// query and the scene show it, bad sections are refused with nothing changed, and the offset
/// survives a crash and restart (snapshot and journal). Geometry by hand: bounds 375 × 600, the
/// strip's groups 100 wide, 10 apart, insets 10: item k at x 10 + 110k, range 0…1110 − 375 = 735.
@Suite struct OrthogonalScrollProtocolTests {
    static let layout = #"""
    {"type": "compositional",
     "sections": [{"name": "strip", "orthogonalScrollingBehavior": "continuous", "contentInsets": [10, 10, 10, 10], "interGroupSpacing": 10,
                   "group": {"arrangement": "horizontal", "size": {"width": {"absolute": 100}, "height": {"absolute": 100}},
                             "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]},
                   "visibleItemsEffect": {"scale": {"min": 0.5}}},
                  {"name": "rows",
                   "group": {"arrangement": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 44}},
                             "subitems": [{"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}]}}],
     "provider": {"rule": "byIdentifier", "map": {"strip": "strip"}, "fallback": "rows"}}
    """#

    static func frame(_ c: RPCConnection, item: Int) throws -> JSONValue? {
        let reply = try c.result("query.attributes", ["session": .string("o"), "rect": .array([-2000, 440, 5000, 120].map { .number($0) })])
        guard case .array(let found)? = reply["attributes"] else { return nil }
        return found.first { $0["element"]?["section"] == .number(1) && $0["element"]?["item"] == .number(Double(item)) }?["frame"]
    }

    @Test func aSectionScrollsAcrossAndKeepsItsOffsetThroughARestart() throws {
        let arguments = ["--journal-compact-bytes", "4096"]
        let first = try ServerProcess(arguments: arguments)
        let c = try first.connect()
        try c.result("session.create", ["name": .string("o"), "clock": .string("manual"), "bounds": .array([.number(375), .number(600)]),
                                        "layout": try JSONParser.parse(Self.layout)])
        // The strip is section 1 (the provider picks by identifier), after a row section.
        try c.result("data.reload", ["session": .string("o"), "sections": .array(["top", "strip"].map { id in
            .object(["id": .string(id), "items": .array((0..<10).map { .object(["id": .string("\(id)\($0)")]) })])
        })])
        // Section 0: 10 rows of 44 = 440; the strip's band starts at 440 + 10.
        let reply = try c.result("scroll.to", ["session": .string("o"), "section": .number(1), "offset": .number(300)])
        #expect(reply["offset"] == .number(300))
        #expect(reply["range"] == .array([.number(0), .number(735)]))
        try c.result("scroll.to", ["session": .string("o"), "offset": .array([.number(0), .number(440)])])
        // Item 0 at 10 − 300 = −290; item 3 at 340 − 300 = 40; both at y 450.
        #expect(try Self.frame(c, item: 0) == .array([-290, 450, 100, 100].map { .number($0) }))
        #expect(try Self.frame(c, item: 3) == .array([40, 450, 100, 100].map { .number($0) }))
        let scene = try c.result("query.scene", ["session": .string("o")])
        #expect(scene["orthogonal"] == .array([.object(["section": .number(1), "offset": .number(300)])]))
        // Refusals change nothing.
        let flat = try c.call("scroll.to", ["session": .string("o"), "section": .number(0), "offset": .number(10)])
        #expect(flat["error"]?["code"] == .number(-32008))
        #expect(JSONWriter.string(flat).contains("section 0 does not scroll on its own"))
        let missing = try c.call("scroll.to", ["session": .string("o"), "section": .number(7), "offset": .number(10)])
        #expect(missing["error"]?["code"] == .number(-32006))
        #expect(JSONWriter.string(missing).contains("section 7 is out of range"))
        let nonFinite = try c.call("scroll.to", ["session": .string("o"), "section": .number(1), "offset": .array([.number(1), .number(2)])])
        #expect(nonFinite["error"] != nil)
        #expect(try Self.frame(c, item: 0) == .array([-290, 450, 100, 100].map { .number($0) }))
        // Past the end: clamped to 735.
        #expect(try c.result("scroll.to", ["session": .string("o"), "section": .number(1), "offset": .number(9000)])["offset"] == .number(735))
        try c.result("scroll.to", ["session": .string("o"), "section": .number(1), "offset": .number(300)])
        for step in 0..<80 { try c.result("scroll.to", ["session": .string("o"), "offset": .array([.number(0), .number(Double(400 + step % 4))])]) }
        try c.result("scroll.to", ["session": .string("o"), "offset": .array([.number(0), .number(440)])])
        try PersistenceTests.settled(c)
        let before = try c.result("query.scene", ["session": .string("o")])
        first.crash()
        let second = try ServerProcess(arguments: arguments, directory: first.scratch)
        let d = try second.connect()
        let after = try d.result("query.scene", ["session": .string("o")])
        #expect(after["orthogonal"] == .array([.object(["section": .number(1), "offset": .number(300)])]))
        #expect(PersistenceTests.normalized(after) == PersistenceTests.normalized(before))
        #expect(try Self.frame(d, item: 3) == .array([40, 450, 100, 100].map { .number($0) }))
        second.stop()
    }

    @Test func theStateFileKeepsOffsetsMotionAndDragBySectionIdentifier() throws {
        var p = ScrollDeceleration()
        p.orthogonal.sections["strip"] = OrthogonalScrolling.Section(offset: 120.5, motion: AxisMotion(phase: .settling, velocity: -40, anchor: 110, rate: 0.99), index: 3)
        p.orthogonal.sections["other"] = OrthogonalScrolling.Section(offset: -12, index: 5)
        p.orthogonal.drag = OrthogonalScrolling.Drag(section: "other", origin: -20, startOffset: 0, lastOffset: -12, lastTime: 1.5, velocity: 7)
        p.orthogonal.held = "strip"
        let json = try #require(ScrollStateCoding.json(p))
        let back = try ScrollStateCoding.physics(try JSONParser.parse(JSONWriter.string(json)), path: "state.scroll")
        // Indexes are not state: a restore finds them again by identifier.
        #expect(back.orthogonal.sections["strip"]?.offset == 120.5)
        #expect(back.orthogonal.sections["strip"]?.motion == p.orthogonal.sections["strip"]?.motion)
        #expect(back.orthogonal.sections["other"]?.offset == -12)
        #expect(back.orthogonal.drag == p.orthogonal.drag)
        #expect(back.orthogonal.held == "strip")
        // A drag naming a section the file does not hold is refused by path.
        let bad = try JSONParser.parse(#"{"configuration": {"bounces": true, "alwaysBounceVertical": false, "alwaysBounceHorizontal": false, "pagingEnabled": false, "decelerationRate": "normal", "scrollEnabled": true}, "tracking": false, "dragVelocity": [0, 0], "orthogonal": {"sections": [], "drag": {"id": "x", "origin": 0, "startOffset": 0, "lastOffset": 0, "lastTime": 0, "velocity": 0}}}"#)
        #expect(throws: ParamError.self) { try ScrollStateCoding.physics(bad, path: "state.scroll") }
    }
}
