import Testing
@testable import TrellisCore

/// The engine's tick as one pipeline: layouts see what is on screen, the session needs ticks
/// exactly while a stage moves something, and motion goes on through updates where UIKit's does.
@Suite struct MotionPipelineTests {
    /// Two sections of 30 items of 50×50 in a 200 pt wide view (three a row, ten rows of 50 with
    /// 10 between: 590 pt), with 30 pt pinned headers: section 0 spans 0–620 (header 0–30),
    /// section 1 spans 620–1240 (header 620–650).
    func pinnedList(height: Double = 300) -> CollectionView {
        let metrics = FlowLayoutMetrics(headerReferenceSize: Size(200, 30), sectionHeadersPinToVisibleBounds: true)
        let data = try! CollectionData(sections: (0..<2).map { s in
            Section(id: SectionID("s\(s)"), items: (0..<30).map { Item(id: ItemID("s\(s)i\($0)")) })
        })
        return CollectionView(boundsSize: Size(200, height), layout: FlowLayout(metrics: metrics), data: data)
    }

    @Test func pinnedHeaderFollowsTheOffsetOnScreenInEveryFrameOfAnAnimatedScroll() throws {
        var view = pinnedList()
        let linear = AnimationTiming(duration: 1, curve: .linear)
        try view.setContentOffset(Point(0, 900), timing: linear)
        for frame in 1...60 {
            let t = Double(frame) / 60
            view.advance(to: t)
            let onScreen = 900 * min(t, 1)
            #expect(near(view.scene.contentOffset.y, onScreen, 1e-6), "frame \(frame)")
            // Section 0's header sticks to the top of what is shown until its items end at 620,
            // then is pushed off with them; section 1's rests at 620 until the top passes it.
            let header0 = min(onScreen, 620 - 30)
            let header1 = max(620, min(onScreen, 1240 - 30))
            let reach = onScreen - CollectionView.defaultPrefetchMargin...(onScreen + 300 + CollectionView.defaultPrefetchMargin)
            for (section, expected) in [(0, header0), (1, header1)] where reach.overlaps(expected...(expected + 30)) {
                let shown = try #require(view.scene.view(for: .header(section))?.attributes.frame, "frame \(frame): header \(section) unbound")
                #expect(near(shown.minY, expected, 1e-6), "frame \(frame): header \(section) at \(shown.minY), expected \(expected)")
            }
            // The layout's own answer (UIKit's layoutAttributesForSupplementaryView) agrees.
            #expect(near(try #require(view.attributes(for: .header(0))).frame.minY, header0, 1e-6), "frame \(frame)")
        }
        #expect(!view.needsTicks)
    }

    @Test func layoutsAreToldTheOffsetOnScreenTheModelOffsetTheVelocityAndTheTime() throws {
        var view = CollectionView(boundsSize: Size(375, 812), layout: RecordingLayout(), data: items(200))
        try view.setContentOffset(Point(0, 4000), timing: AnimationTiming(duration: 2, curve: .linear))
        view.advance(to: 0.5)
        let seen = try #require((view.layout as? RecordingLayout)?.last)
        #expect(near(seen.contentOffset, Point(0, 1000), 1e-6))
        #expect(seen.modelContentOffset == Point(0, 4000))
        #expect(near(seen.velocity, Point(0, 2000), 1e-3))   // 4000 pt in 2 s, linear
        #expect(seen.time == 0.5)
        view.advance(to: 2)
        let atRest = try #require((view.layout as? RecordingLayout)?.last)
        #expect(atRest.contentOffset == Point(0, 4000) && atRest.modelContentOffset == Point(0, 4000))
        #expect(atRest.velocity == .zero)
    }

    @Test func theSessionNeedsTicksExactlyWhileSomethingMovesByTime() throws {
        var view = pinnedList()
        #expect(!view.needsTicks)
        try view.setContentOffset(Point(0, 100), timing: AnimationTiming(duration: 0.5, curve: .linear))
        #expect(view.needsTicks)
        view.advance(to: 0.5)
        #expect(!view.needsTicks)
        // An interactive transition waits for its progress: nothing moves by time.
        try view.beginInteractiveTransition(to: tallRows())
        #expect(!view.needsTicks)
        try view.updateInteractiveTransition(progress: 0.5)
        #expect(!view.needsTicks)
        try view.finishInteractiveTransition(animation: AnimationTiming(duration: 0.3, curve: .linear))
        #expect(view.needsTicks)
        view.advance(to: 1)
        #expect(!view.needsTicks)
    }

    @Test func aBatchUpdateDuringAnAnimatedScrollDoesNotStopIt() throws {
        var view = CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(200))
        let linear = AnimationTiming(duration: 1, curve: .linear)
        let scroll = try #require(try view.setContentOffset(Point(0, 4000), timing: linear))
        view.advance(to: 0.25)
        _ = view.drainEvents()
        let (update, _) = try view.performBatchUpdates(BatchUpdate([.insertItems(at: [IndexPath(0, 0)], items: [Item(id: ItemID("new"))])]),
                                                        animation: AnimationTiming(duration: 0.1, curve: .linear))
        #expect(view.drainEvents().isEmpty)   // the scroll was not interrupted
        #expect(near(view.scene.contentOffset, Point(0, 1000), 1e-6))
        // Rows on screen now are bound, not only those where the scroll will rest.
        #expect(view.scene.views.contains { $0.element == .cell(0, 22) })
        view.advance(to: 0.5)
        #expect(near(view.scene.contentOffset, Point(0, 2000), 1e-6))
        #expect(view.drainEvents() == [.updateCompleted(update: update, finished: true)])
        view.advance(to: 1)
        #expect(view.scene.contentOffset == Point(0, 4000))
        #expect(view.drainEvents() == [.scrollCompleted(scroll: scroll, finished: true)])
    }

    @Test func anUpdateThatShrinksTheContentTurnsTheScrollTowardTheNewEnd() throws {
        var view = CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(200))
        let linear = AnimationTiming(duration: 1, curve: .linear)
        let scroll = try #require(try view.setContentOffset(Point(0, 4000), timing: linear))
        view.advance(to: 0.5)   // 2000 on screen
        // 100 rows left: 5000 pt of content, so the offset can rest at 4188 at most; 60 rows: 2188.
        view.reloadData(items(60))
        #expect(view.scroll.contentOffset == Point(0, 3000 - 812))
        #expect(near(view.scene.contentOffset, Point(0, 2000), 1e-6))   // no jump
        view.advance(to: 1)
        #expect(near(view.scene.contentOffset, Point(0, 2000 + 0.5 * 188), 1e-6))   // half way on its timing again
        view.advance(to: 1.5)
        #expect(view.scene.contentOffset == Point(0, 2188))
        #expect(view.drainEvents() == [.scrollCompleted(scroll: scroll, finished: true)])
    }

    @Test func aResizeDuringAnAnimatedScrollKeepsItGoing() throws {
        var view = CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(200))
        let scroll = try #require(try view.setContentOffset(Point(0, 4000), timing: AnimationTiming(duration: 1, curve: .linear)))
        view.advance(to: 0.5)
        view.resize(to: Size(812, 375))
        #expect(view.drainEvents().isEmpty)
        #expect(near(view.scene.contentOffset, Point(0, 2000), 1e-6))
        view.advance(to: 1)
        #expect(view.scene.contentOffset == Point(0, 4000))
        #expect(view.drainEvents() == [.scrollCompleted(scroll: scroll, finished: true)])
    }

    @Test func aLayoutChangeStopsAnAnimatedScrollWhereItIs() throws {
        var view = CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(200))
        let scroll = try #require(try view.setContentOffset(Point(0, 4000), timing: AnimationTiming(duration: 1, curve: .linear)))
        view.advance(to: 0.5)
        let transition = view.setLayout(tallRows(), animation: AnimationTiming(duration: 0.2, curve: .linear))
        #expect(view.drainEvents() == [.scrollCompleted(scroll: scroll, finished: false)])
        view.advance(to: 1)
        #expect(view.drainEvents() == [.transitionCompleted(transition: transition, finished: true, installed: true)])
    }
}

/// A list that re-prepares on every bounds change and remembers the last context it saw.
struct RecordingLayout: Layout {
    var list = ListLayout()
    var last: LayoutContext?
    var typeName: String { "test-recording" }
    mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        last = context
        list.prepare(context, invalidation: invalidation)
    }
    var contentSize: Size { list.contentSize }
    func attributes(in rect: Rect) -> [LayoutAttributes] { list.attributes(in: rect) }
    func attributes(for element: ElementID) -> LayoutAttributes? { list.attributes(for: element) }
    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { true }
}

/// The test list with 60 pt rows.
func tallRows() -> ListLayout {
    var layout = ListLayout()
    layout.rowHeight = 60
    return layout
}
