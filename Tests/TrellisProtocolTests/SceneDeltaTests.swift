import Testing
import TrellisCore
@testable import TrellisProtocol

@Suite struct SceneDeltaTests {
    func items(_ n: Int, prefix: String = "i") -> CollectionData {
        try! CollectionData(sections: [Section(id: "s", items: (0..<n).map { Item(id: ItemID("\(prefix)\($0)"), data: ItemPayload(.object(["label": .string("L\($0)")]))) })])
    }

    @Test func keyframeThenDeltasMirrorTheEngineExactly() {
        var view = CollectionView(boundsSize: Size(400, 600), layout: CircleLayout(), data: items(12))
        var mirror = ViewerState(keyframe: view.scene)
        #expect(mirror.scene == view.scene)
        var time = 0.0
        func step(_ change: (inout CollectionView) -> Void) {
            change(&view)
            let delta = SceneDelta.between(mirror, view.scene, pooled: view.reusePool.pooledViewIDs)
            mirror.apply(delta)
            #expect(mirror.scene == view.scene)
        }
        step { $0.setLayout(CircleLayout(itemSize: Size(30, 30), radius: 100), animation: AnimationTiming(duration: 0.5, curve: .spring(dampingRatio: 0.5, initialVelocity: 0))) }
        for _ in 0..<40 { time += 1.0 / 60; step { $0.advance(to: time) } }
        step { $0.reloadData(items(5, prefix: "j")) }       // fewer items: views unbound and destroyed
        step { $0.reloadData(items(20, prefix: "k")) }      // more: created and rebound
        step { $0.resize(to: Size(300, 300)) }
        step { _ = $0.tap(at: Point(270, 150)) }
    }

    @Test func unchangedViewsSendNothing() {
        let view = CollectionView(boundsSize: Size(400, 600), layout: CircleLayout(), data: items(6))
        let state = ViewerState(keyframe: view.scene)
        let delta = SceneDelta.between(state, view.scene, pooled: [])
        #expect(delta.isEmpty)
    }

    @Test func onlyChangedFieldsAreSent() {
        var view = CollectionView(boundsSize: Size(400, 600), layout: CircleLayout(), data: items(4))
        let state = ViewerState(keyframe: view.scene)
        view.setLayout(CircleLayout(radius: 50), animation: .immediate)
        let delta = SceneDelta.between(state, view.scene, pooled: [])
        #expect(delta.created.isEmpty && delta.bound.isEmpty && delta.unbound.isEmpty)
        #expect(delta.changed.count == 4)
        #expect(delta.changed.allSatisfy { $0.frame != nil && $0.alpha == nil && $0.transform == nil && $0.data == nil })
    }

    @Test func leavingViewsAreUnboundWhenPooledAndDestroyedOtherwise() {
        var view = CollectionView(boundsSize: Size(400, 600), layout: CircleLayout(), data: items(8))
        let state = ViewerState(keyframe: view.scene)
        view.reloadData(items(1))
        let pooled = view.reusePool.pooledViewIDs
        let delta = SceneDelta.between(state, view.scene, pooled: pooled)
        // Reload pools all 8 (the pool keeps 5, 3 are destroyed), then takes one back for the item.
        #expect(delta.unbound.count == 4)
        #expect(delta.destroyed.count == 3)
        #expect(delta.changed.count == 1)
        #expect(Set(delta.unbound) == pooled)
    }

    /// The frame bytes the server writes, parsed and applied as a viewer does, leave the viewer
    /// holding exactly the scene `query.scene` writes (both rounded the same way on the wire),
    /// and say what `between` says: from a built scene, and straight from the engine (`direct`,
    /// the server's way, whose in-place walk hands over to the scene's at the first view that
    /// moved in drawing order).
    @Test(arguments: [false, true]) func framesThroughTheWireMirrorTheWrittenScene(direct: Bool) throws {
        var view = CollectionView(boundsSize: Size(400, 600), layout: CircleLayout(), data: items(12))
        func onTheWire(_ scene: Scene) throws -> Scene {
            var b = ByteBuffer()
            WireEncoding.writeScene(scene, into: &b)
            return try WireScene.scene(try JSONParser.parse(b.bytes))
        }
        var published = PublishedScene(keyframe: view.scene)
        var reference = ViewerState(keyframe: view.scene)   // full precision, for `between`
        var viewer = ViewerState(keyframe: try onTheWire(view.scene))
        var frame = FrameWriter()
        var time = 0.0
        func step(_ change: (inout CollectionView) throws -> Void) throws {
            try change(&view)
            let expected = SceneDelta.between(reference, view.scene, pooled: view.reusePool.pooledViewIDs)
            reference.apply(expected)
            if direct {
                published.publish(view, pooled: view.reusePool.pooledViewIDs, writing: &frame)
            } else {
                published.publish(view.scene, pooled: view.reusePool.pooledViewIDs, writing: &frame)
            }
            #expect(frame.isEmpty == expected.isEmpty)
            var b = ByteBuffer()
            var o = JSONObjectWriter(into: &b)
            frame.write(&o, into: &b)
            o.end(into: &b)
            let delta = try WireScene.delta(try JSONParser.parse(b.bytes))
            #expect(delta.created == expected.created)
            #expect(delta.bound.map(\.view.view) == expected.bound.map(\.view.view))
            #expect(delta.changed.map(\.view) == expected.changed.map(\.view))
            #expect(delta.unbound == expected.unbound && delta.destroyed == expected.destroyed)
            viewer.apply(delta)
            #expect(viewer.scene == (try onTheWire(view.scene)))
            #expect(published.scene == view.scene && reference.scene == view.scene)
        }
        try step { $0.setLayout(CircleLayout(itemSize: Size(30, 30), radius: 100), animation: AnimationTiming(duration: 0.5, curve: .spring(dampingRatio: 0.5, initialVelocity: 0))) }
        for _ in 0..<40 { time += 1.0 / 60; try step { $0.advance(to: time) } }
        try step { $0.reloadData(items(5, prefix: "j")) }
        try step { $0.reloadData(items(20, prefix: "k")) }
        try step { $0.resize(to: Size(300, 300)) }
        try step { _ = $0.tap(at: Point(270, 150)) }
        // Drawing order changes: views move in it (the walk falls back to looking ids up).
        try step { try $0.performBatchUpdates(BatchUpdate([.moveItem(from: IndexPath(0, 0), to: IndexPath(0, 19))]), animation: .immediate) }
        try step { try $0.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(0, 3)]), .insertItems(at: [IndexPath(0, 0)], items: [Item(id: "fresh")])]),
                                              animation: .immediate) }
        // Every view moves, and the 16th changes places with later ones: views before it are
        // updated in place, the rest by the scene's walk.
        try step {
            $0.resize(to: Size(320, 320))
            try $0.performBatchUpdates(BatchUpdate([.moveItem(from: IndexPath(0, 15), to: IndexPath(0, 19))]), animation: .immediate)
        }
        // An empty section in front: every view keeps its frame and place and shows a new index path.
        try step { try $0.performBatchUpdates(BatchUpdate([.insertSections(at: [0], sections: [Section(id: "empty")])]), animation: .immediate) }
        // The last two leave, the rest keep their places.
        try step { try $0.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(1, 18), IndexPath(1, 19)])]), animation: .immediate) }
        try step { _ = $0 }    // nothing changed: an empty frame
    }
}
