import Testing
import TrellisCore
@testable import TrellisProtocol

/// Orthogonal sections as viewers get them: the attach keyframe and the frames carry the
/// scrolled bands' offsets (the band's cells already shifted by them), so a viewer attached
/// before a band scrolled and one attached after hold the same scene, which is `query.scene`'s;
/// a fork keeps the offsets. Geometry as `OrthogonalScrollProtocolTests`: the strip (section 1)
/// starts at y 450 (the whole content, 560 high, fits the view), item k at x 10 + 110k − offset.
@Suite struct OrthogonalFramesTests {
    static func session(_ c: RPCConnection) throws {
        try c.result("session.create", ["name": .string("o"), "clock": .string("manual"), "bounds": .array([.number(375), .number(600)]),
                                        "layout": try JSONParser.parse(OrthogonalScrollProtocolTests.layout)])
        try c.result("data.reload", ["session": .string("o"), "sections": .array(["top", "strip"].map { id in
            .object(["id": .string(id), "items": .array((0..<10).map { .object(["id": .string("\(id)\($0)")]) })])
        })])
    }

    /// Applies the frames `viewer` received since the last call to `state`, as a viewer does.
    static func follow(_ viewer: RPCConnection, _ state: inout ViewerState) throws {
        for note in viewer.notifications where note["method"] == .string("frame") {
            state.apply(try WireScene.delta(note["params"]!))
        }
        viewer.notifications.removeAll()
    }

    @Test func aViewerAttachingAfterABandScrolledHoldsWhatOneAttachedBeforeHolds() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let controller = try server.connect()
        try Self.session(controller)
        let early = try server.connect()
        let earlyKeyframe = try early.result("session.attach", ["session": .string("o")])["keyframe"]!
        #expect(earlyKeyframe["orthogonal"] == nil)
        // The band scrolled by command, then a batch inside it (animated, half-way), then a pan in it.
        try controller.result("scroll.to", ["session": .string("o"), "section": .number(1), "offset": .number(300)])
        try controller.result("batch", ["session": .string("o"), "ops": .array([
            .object(["op": .string("deleteItems"), "at": .array([.array([.number(1), .number(2)])])]),
            .object(["op": .string("insertItems"), "at": .array([.array([.number(1), .number(0)])]), "items": .array([.object(["id": .string("new")])])]),
        ]), "duration": .number(0.3)])
        try controller.result("clock.advance", ["session": .string("o"), "ms": .number(150)])
        try controller.result("gesture.pan", ["session": .string("o"), "phase": .string("began"), "translation": .array([.number(0), .number(0)]),
                                              "location": .array([.number(200), .number(500)])])
        try controller.result("gesture.pan", ["session": .string("o"), "phase": .string("changed"), "translation": .array([.number(-40), .number(0)])])
        let late = try server.connect()
        let lateKeyframe = try late.result("session.attach", ["session": .string("o")])["keyframe"]!
        #expect(lateKeyframe["orthogonal"] == .array([.object(["section": .number(1), "offset": .number(340)])]))
        // Both viewers follow the rest: the release, the batch landing, the band coming to rest.
        try controller.result("gesture.pan", ["session": .string("o"), "phase": .string("ended"), "translation": .array([.number(-40), .number(0)]),
                                              "velocity": .array([.number(0), .number(0)])])
        try controller.result("clock.advance", ["session": .string("o"), "ms": .number(200)])
        let midway = try WireScene.scene(try controller.result("query.scene", ["session": .string("o")]))
        _ = try early.result("hello")
        _ = try late.result("hello")
        var earlyState = ViewerState(keyframe: try WireScene.scene(earlyKeyframe))
        var lateState = ViewerState(keyframe: try WireScene.scene(lateKeyframe))
        try Self.follow(early, &earlyState)
        try Self.follow(late, &lateState)
        let earlyScene = earlyState.scene, lateScene = lateState.scene
        #expect(Bool(earlyScene == midway), "the viewer attached before the band scrolled differs from query.scene")
        #expect(Bool(lateScene == midway), "the viewer attached after the band scrolled differs from query.scene")
        #expect(earlyScene.orthogonalOffsets == [1: 340])
        // The band's cells are drawn where the offset puts them: "strip3" (now item 3) at
        // 10 + 330 − 340 = 0 across, 450 down.
        let cell = earlyScene.views.first { $0.itemID == ItemID("strip3") }
        #expect(cell?.attributes.frame == Rect(0, 450, 100, 100))
        #expect(cell?.indexPath == IndexPath(1, 3))
        // A second scroll of the band reaches both in one frame's `orthogonal`.
        try controller.result("scroll.to", ["session": .string("o"), "section": .number(1), "offset": .number(0)])
        let truth = try WireScene.scene(try controller.result("query.scene", ["session": .string("o")]))
        _ = try early.result("hello")
        _ = try late.result("hello")
        let frames = late.notifications.filter { $0["method"] == .string("frame") }
        #expect(frames.last?["params"]?["orthogonal"] == .array([.object(["section": .number(1), "offset": .number(0)])]))
        try Self.follow(early, &earlyState)
        try Self.follow(late, &lateState)
        #expect(Bool(earlyState.scene == truth))
        #expect(Bool(lateState.scene == truth))
        #expect(truth.orthogonalOffsets == [1: 0])
    }

    @Test func deletingTheScrolledSectionSendsAnEmptyList() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        try Self.session(c)
        try c.result("scroll.to", ["session": .string("o"), "section": .number(1), "offset": .number(120)])
        let viewer = try server.connect()
        let keyframe = try viewer.result("session.attach", ["session": .string("o")])["keyframe"]!
        #expect(keyframe["orthogonal"] == .array([.object(["section": .number(1), "offset": .number(120)])]))
        try c.result("batch", ["session": .string("o"), "ops": .array([.object(["op": .string("deleteSections"), "at": .array([.number(1)])])]),
                               "animated": .bool(false)])
        _ = try viewer.result("hello")
        let frames = viewer.notifications.filter { $0["method"] == .string("frame") }
        #expect(frames.last?["params"]?["orthogonal"] == .array([]))
        let truth = try WireScene.scene(try c.result("query.scene", ["session": .string("o")]))
        #expect(truth.orthogonalOffsets.isEmpty)
        #expect(Bool(try ServerIntegrationTests.mirror(viewer, keyframe: keyframe) == truth))
    }

    @Test func aForkKeepsTheBandsOffsets() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        try Self.session(c)
        try c.result("scroll.to", ["session": .string("o"), "section": .number(1), "offset": .number(250)])
        try c.result("session.fork", ["session": .string("o"), "name": .string("copy")])
        let original = try c.result("query.scene", ["session": .string("o")])
        let copy = try c.result("query.scene", ["session": .string("copy")])
        #expect(copy["orthogonal"] == .array([.object(["section": .number(1), "offset": .number(250)])]))
        #expect(copy["views"] == original["views"])
        // The copy's band scrolls on its own.
        try c.result("scroll.to", ["session": .string("copy"), "section": .number(1), "offset": .number(0)])
        #expect(try c.result("query.scene", ["session": .string("o")])["orthogonal"] == original["orthogonal"])
    }
}
