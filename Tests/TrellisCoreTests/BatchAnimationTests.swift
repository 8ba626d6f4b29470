import Testing
@testable import TrellisCore

/// The engine side of batch updates: UIKit's animation derivation, atomic refusal, selection,
/// interruption. (The validator and the applier have their own tests.)
@Suite struct BatchAnimationTests {
    let linear = AnimationTiming(duration: 0.3, curve: .linear)
    func list(_ n: Int) -> CollectionView { CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(n)) }

    @Test func insertedItemsFadeInAndSurvivorsSlide() throws {
        var view = list(10)
        let moving = view.scene.view(for: .cell(0, 0))!.view
        let (update, result) = try view.performBatchUpdates(
            BatchUpdate([.insertItems(at: [IndexPath(0, 0)], items: [Item(id: "new")])]), animation: linear)
        #expect(result.newIndexPath(for: IndexPath(0, 0)) == IndexPath(0, 1))
        #expect(view.data[IndexPath(0, 0)].id == "new")
        // Time 0: the new cell sits at its place, transparent; i0 is still at the top.
        #expect(view.presentationAttributes(for: .cell(0, 0)) == LayoutAttributes(element: .cell(0, 0), frame: Rect(0, 0, 400, 50), alpha: 0))
        #expect(view.scene.view(for: .cell(0, 1))?.view == moving)
        #expect(view.presentationAttributes(for: .cell(0, 1))?.frame == Rect(0, 0, 400, 50))
        view.advance(to: 0.15)
        #expect(view.presentationAttributes(for: .cell(0, 0))?.alpha == 0.5)
        #expect(view.presentationAttributes(for: .cell(0, 1))?.frame == Rect(0, 25, 400, 50))
        view.advance(to: 0.3)
        #expect(view.presentationAttributes(for: .cell(0, 1))?.frame == Rect(0, 50, 400, 50))
        #expect(view.drainEvents() == [.updateCompleted(update: update, finished: true)])
        #expect(!view.needsTicks)
    }

    @Test func deletedItemsFadeOutThenReturnTheirViewToThePool() throws {
        var view = list(10)
        let leaving = view.scene.view(for: .cell(0, 2))!
        try view.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(0, 2)])]), animation: linear)
        view.advance(to: 0.15)
        let ghost = view.scene.views.first { $0.view == leaving.view }
        #expect(ghost?.itemID == "i2")                       // still shows the deleted item
        #expect(ghost?.attributes.alpha == 0.5)
        #expect(ghost?.attributes.frame == Rect(0, 100, 400, 50))
        #expect(view.reusePool.pooledCount("cell") == 0)
        view.advance(to: 0.3)
        #expect(!view.scene.views.contains { $0.view == leaving.view })
        #expect(view.reusePool.pooledViewIDs.contains(leaving.view))
        #expect(view.scene.view(for: .cell(0, 2))?.itemID == "i3")
    }

    @Test func refusedBatchChangesNothing() throws {
        var view = list(5)
        try view.select(IndexPath(0, 1))
        _ = view.drainEvents()
        let before = (view.data, view.scene, view.selectedItems)
        #expect {
            try view.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(0, 9)])]), animation: linear)
        } throws: { error in
            (error as? UpdateError)?.message == "attempt to delete item 9 from section 0 which only contains 5 items before the update"
        }
        #expect(view.data == before.0 && view.scene == before.1 && view.selectedItems == before.2)
        #expect(view.drainEvents().isEmpty)
        #expect(!view.needsTicks)
    }

    @Test func selectionFollowsMovesAndDropsDeletions() throws {
        var view = list(6)
        view.setSelectionPolicy(SelectionPolicy(allowsMultipleSelection: true))
        try view.select(IndexPath(0, 1)); try view.select(IndexPath(0, 4))
        try view.performBatchUpdates(BatchUpdate([.moveItem(from: IndexPath(0, 4), to: IndexPath(0, 0)),
                                                  .deleteItems(at: [IndexPath(0, 1)])]), animation: .immediate)
        #expect(view.selectedItems == ["i4"])
        #expect(view.selectedIndexPaths == [IndexPath(0, 0)])
    }

    @Test func interruptionContinuesFromThePresentation() throws {
        var view = list(10)
        let (first, _) = try view.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(0, 0)])]),
                                                      animation: AnimationTiming(duration: 1, curve: .easeInEaseOut))
        view.advance(to: 0.4)
        let before = view.scene
        let (second, _) = try view.performBatchUpdates(BatchUpdate([.insertItems(at: [IndexPath(0, 0)], items: [Item(id: "x")])]),
                                                       animation: AnimationTiming(duration: 1, curve: .easeInEaseOut))
        let after = view.scene
        for v in before.views where after.views.contains(where: { $0.view == v.view }) {
            let now = after.views.first { $0.view == v.view }!
            #expect(now.attributes.frame == v.attributes.frame && now.attributes.alpha == v.attributes.alpha, "view \(v.view) jumped")
        }
        #expect(view.drainEvents() == [.updateCompleted(update: first, finished: false)])
        view.advance(to: 1.4)
        #expect(view.drainEvents() == [.updateCompleted(update: second, finished: true)])
        #expect(view.presentationAttributes(for: .cell(0, 1))?.frame == Rect(0, 50, 400, 50))
    }

    @Test func survivorsComingFromOffScreenAnimateAlongTheirPath() throws {
        var view = list(30)    // rows 0…13 bound (600 + 64 margin)
        #expect(view.presentationAttributes(for: .cell(0, 14)) == nil)
        try view.performBatchUpdates(BatchUpdate([.deleteItems(at: (0..<5).map { IndexPath(0, $0) })]), animation: linear)
        // i18 was row 18 (y 900, unbound); it is now row 13 and starts from its old place.
        #expect(view.scene.view(for: .cell(0, 13))?.itemID == "i18")
        #expect(view.presentationAttributes(for: .cell(0, 13))?.frame == Rect(0, 900, 400, 50))
        view.advance(to: 0.3)
        #expect(view.presentationAttributes(for: .cell(0, 13))?.frame == Rect(0, 650, 400, 50))
    }

    @Test func reloadCrossFadesWithANewView() throws {
        var view = list(3)
        let old = view.scene.view(for: .cell(0, 1))!.view
        let fresh = ItemPayload(bytes: Array(#""fresh""#.utf8))
        try view.performBatchUpdates(BatchUpdate([.reloadItems(at: [IndexPath(0, 1)],
                                                                items: [Item(id: "i1", data: fresh)])]), animation: linear)
        view.advance(to: 0.15)
        let shown = view.scene.views.filter { $0.indexPath == IndexPath(0, 1) && $0.element.isCell }
        #expect(shown.count == 2)
        #expect(shown.contains { $0.view == old && $0.attributes.alpha == 0.5 && $0.data == nil })
        #expect(shown.contains { $0.view != old && $0.attributes.alpha == 0.5 && $0.data == fresh })
    }

    @Test func snapshotsDiffThemselves() throws {
        var view = list(5)
        let target = try CollectionData(sections: [Section(id: "s0", items: ["i4", "i0", "n", "i2"].map { Item(id: ItemID($0)) })])
        let (_, batch, result) = try view.applySnapshot(target, animation: .immediate)
        #expect(view.data == target)
        #expect(result.deleted == [IndexPath(0, 1), IndexPath(0, 3)])
        #expect(result.inserted == [IndexPath(0, 2)])
        #expect(!batch.operations.isEmpty)
        #expect(view.scene.views.map { $0.itemID } == ["i4", "i0", "n", "i2"])
    }

    /// A plan worked out beforehand (off the server's loop) lands as `applySnapshot` of its
    /// snapshot would; a plan made from data the view no longer has is worked out again.
    @Test func aSnapshotPlanAppliesAsTheSnapshotWould() throws {
        let target = try CollectionData(sections: [Section(id: "s0", items: ["i4", "i0", "n", "i2"].map { Item(id: ItemID($0)) })])
        var direct = list(5), planned = list(5)
        let plan = try SnapshotPlan(from: planned.data, to: target)
        let expected = try direct.applySnapshot(target, animation: linear)
        let got = try planned.applySnapshot(plan, animation: linear)
        #expect(got.result == expected.result && got.batch == expected.batch)
        direct.advance(to: 0.1)
        planned.advance(to: 0.1)
        #expect(planned.scene == direct.scene)

        var moved = list(5)
        try moved.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(0, 4)])]), animation: .immediate)
        let stale = try moved.applySnapshot(plan, animation: .immediate)
        #expect(moved.data == target)
        #expect(stale.result.deleted == [IndexPath(0, 1), IndexPath(0, 3)])
        #expect(stale.result != plan.result)
    }

    @Test func circleInsertComesFromTheCentreAndDeleteShrinksIntoIt() throws {
        var view = CollectionView(boundsSize: Size(500, 500), layout: CircleLayout(), data: items(4))
        try view.performBatchUpdates(BatchUpdate([.insertItems(at: [IndexPath(0, 3)], items: [Item(id: "n")]),
                                                  .deleteItems(at: [IndexPath(0, 0)])]), animation: linear)
        let appearing = view.presentationAttributes(for: .cell(0, 3))!
        #expect(appearing.center == Point(250, 250) && appearing.alpha == 0)
        view.advance(to: 0.15)
        let shrinking = view.scene.views.first { $0.itemID == "i0" }!.attributes
        // Half way from (450, 250) at scale 1 to the centre at scale 0.1.
        #expect(near(shrinking.center, Point(350, 250)))
        #expect(near(shrinking.transform.m11, 0.55) && shrinking.alpha == 0.5)
        view.advance(to: 0.3)
        #expect(!view.scene.views.contains { $0.itemID == "i0" })   // landed and pooled
        #expect(view.boundViewCount == 4)
    }
}

@Suite struct CurveInEngineTests {
    /// A surviving cell slides 50 pt down when an item is inserted above it; its presentation
    /// follows the curve at 0, ¼, ½ and the end of the duration.
    @Test(arguments: [TimingCurve.linear, .easeIn, .easeOut, .easeInEaseOut, .spring(dampingRatio: 0.5, initialVelocity: 0)])
    func presentationFollowsTheCurve(curve: TimingCurve) throws {
        var view = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(5))
        let timing = AnimationTiming(duration: 0.4, curve: curve)
        try view.performBatchUpdates(BatchUpdate([.insertItems(at: [IndexPath(0, 0)], items: [Item(id: "n")])]), animation: timing)
        for fraction in [0.0, 0.25, 0.5] {
            view.advance(to: 0.4 * fraction)
            let y = view.presentationAttributes(for: .cell(0, 1))!.frame.minY
            #expect(near(y, 50 * timing.progress(elapsed: 0.4 * fraction), 1e-9), "\(curve) at \(fraction)")
        }
        view.advance(to: timing.activeDuration)
        #expect(view.presentationAttributes(for: .cell(0, 1))?.frame.minY == 50)
        #expect(!view.needsTicks)
    }
}

@Suite struct FlowCircleTransitionTests {
    @Test func flowToCircleMidpointAndBack() throws {
        var flow = FlowLayout()
        flow.itemSize = Size(100, 100)
        var view = CollectionView(boundsSize: Size(400, 600), layout: flow, data: items(6))
        let start = view.presentationAttributes(for: .cell(0, 4))!
        #expect(start.frame == Rect(150, 110, 100, 100))   // second row, lone-ish: 3 per row, justified
        view.setLayout(CircleLayout(), animation: AnimationTiming(duration: 1, curve: .linear))
        let end = view.attributes(for: .cell(0, 4))!
        view.advance(to: 0.5)
        let mid = view.presentationAttributes(for: .cell(0, 4))!
        #expect(near(mid.center, start.center.interpolated(to: end.center, 0.5)))
        #expect(near(mid.size.width, 85) && near(mid.size.height, 85))   // 100 → 70
        view.advance(to: 1)
        view.setLayout(flow, animation: AnimationTiming(duration: 1, curve: .linear))
        view.advance(to: 2)
        #expect(view.presentationAttributes(for: .cell(0, 4))?.frame == start.frame)
        #expect(view.layout.typeName == "flow")
    }
}

@Suite struct SupplementaryAnimationTests {
    /// Headers and section backgrounds follow their section through a section insert, and the
    /// inserted section's header fades in like a cell.
    @Test func headersAndBackgroundsAnimateWithTheirSection() throws {
        var flow = FlowLayout()
        flow.itemSize = Size(100, 100)
        flow.headerReferenceSize = Size(0, 40)
        flow.sectionBackgroundDecoration = true
        let data = try CollectionData(sections: [Section(id: "a", items: [Item(id: "a0")])])
        var view = CollectionView(boundsSize: Size(400, 800), layout: flow, data: data)
        let header = view.scene.view(for: .header(0))!
        #expect(header.attributes.frame == Rect(0, 0, 400, 40))
        try view.performBatchUpdates(BatchUpdate([.insertSections(at: [0], sections: [Section(id: "b", items: [Item(id: "b0")])])]),
                                     animation: AnimationTiming(duration: 1, curve: .linear))
        // The old header is now section 1's, on the same view, sliding from y 0 to y 140.
        #expect(view.scene.view(for: .header(1))?.view == header.view)
        view.advance(to: 0.5)
        #expect(view.presentationAttributes(for: .header(1))?.frame == Rect(0, 70, 400, 40))
        #expect(view.presentationAttributes(for: .header(0))?.alpha == 0.5)
        #expect(near(view.presentationAttributes(for: .sectionBackground(1))!.frame.minY, 110))   // header 40 + half of 140
        view.advance(to: 1)
        #expect(view.presentationAttributes(for: .header(1))?.frame == Rect(0, 140, 400, 40))
    }
}
