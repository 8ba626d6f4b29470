import Testing
@testable import TrellisCore

/// SceneCheckpoint finds in one unsorted pass what the drawing-order walk (`scene`) gives: the
/// number of views on screen and the first and last cell in drawing order, with their frames.
@Suite struct SceneCheckpointTests {
    /// The checkpoint's figures against the scene built by `visitScene`.
    static func check(_ view: inout CollectionView, _ note: String) {
        let scene = view.scene
        let cells = scene.views.filter { $0.element.isCell }
        let checkpoint = SceneCheckpoint(reading: &view)
        #expect(checkpoint.visible == scene.views.count, "\(note): visible")
        #expect(checkpoint.first?.path == cells.first?.element.indexPath, "\(note): first cell")
        #expect(checkpoint.first?.frame == cells.first?.attributes.frame, "\(note): first frame")
        let last = cells.count >= 2 ? cells.last : nil
        #expect(checkpoint.last?.path == last?.element.indexPath, "\(note): last cell")
        #expect(checkpoint.last?.frame == last?.attributes.frame, "\(note): last frame")
        #expect(checkpoint.time == view.time && checkpoint.offset == view.presentationContentOffset
                && checkpoint.contentSize == view.scroll.contentSize, "\(note): time, offset or size")
    }

    @Test func matchesTheDrawingOrderOnRandomZIndexesAndSupplementaryViews() {
        var rng = SplitMix64(seed: 31)
        func below(_ n: UInt64) -> Int { Int(rng.next() % n) }
        for round in 0..<200 {
            let count = below(12)
            var elements: [LayoutAttributes] = []
            for k in 0..<count {
                // Few zIndex values, so ties fall to layout order and view ids.
                let element: ElementID = below(4) == 0 ? .header(k) : .cell(0, k)
                elements.append(LayoutAttributes(element: element, frame: Rect(Double(below(300)), Double(below(300)), 10 + Double(below(90)), 10 + Double(below(90))),
                                                 zIndex: below(3) - 1))
            }
            elements.shuffle(using: &rng)
            var view = CollectionView(boundsSize: Size(400, 400), layout: FixedLayout(elements: elements), data: items(12))
            Self.check(&view, "round \(round), \(count) elements")
        }
    }

    @Test func matchesTheDrawingOrderWhileViewsLeaveAndMove() throws {
        let linear = AnimationTiming(duration: 0.3, curve: .linear)
        var view = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(30))
        Self.check(&view, "at rest")
        try view.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(0, 0), IndexPath(0, 11)]),
                                                  .moveItem(from: IndexPath(0, 3), to: IndexPath(0, 9))]), animation: linear)
        view.advance(to: 0.1)
        #expect(!view.disappearing.isEmpty, "no view was leaving: the test lost its point")
        Self.check(&view, "deleting and moving")
        _ = try view.setContentOffset(Point(0, 180), timing: linear)
        view.advance(to: 0.2)
        Self.check(&view, "scrolling while they leave")
        view.advance(to: 1)
        Self.check(&view, "settled")
    }

    @Test func aStackDrawsItsFirstItemOnTop() {
        var view = CollectionView(boundsSize: Size(400, 600), layout: StackLayout(), data: items(8))
        Self.check(&view, "stack")
        var one = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(1))
        Self.check(&one, "one cell")
        #expect(SceneCheckpoint(reading: &one).last == nil)
        var none = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(0))
        Self.check(&none, "no cells")
    }
}
