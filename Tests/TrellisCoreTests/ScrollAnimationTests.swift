import Testing
@testable import TrellisCore

/// Animated setContentOffset / scrollToItem: model at the target at once, presentation on the
/// curve, views bound along the path, interruption from where it is on screen.
@Suite struct ScrollAnimationTests {
    /// 375×812, 50 pt rows, 200 items (content 10,000 pt).
    func list() -> CollectionView {
        CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(200))
    }

    func boundItems(_ view: CollectionView) -> Set<Int> {
        Set(view.scene.views.map { $0.element.indexPath.item })
    }

    @Test func presentationFollowsTheCurveAndLands() throws {
        var view = list()
        let linear = AnimationTiming(duration: 1, curve: .linear)
        let scroll = try #require(try view.setContentOffset(Point(0, 4000), timing: linear))
        #expect(view.scroll.contentOffset == Point(0, 4000))       // the model is the target at once
        #expect(view.scene.contentOffset == Point(0, 0))
        view.advance(to: 0.5)
        #expect(near(view.scene.contentOffset, Point(0, 2000)))
        // Rows around 2000…2812 are on screen half way (rows 40…56), not only the two ends.
        #expect(boundItems(view).isSuperset(of: Set(40...56)))
        #expect(!boundItems(view).contains(5))
        #expect(view.drainEvents().isEmpty)
        view.advance(to: 1)
        #expect(view.scene.contentOffset == Point(0, 4000))
        #expect(view.drainEvents() == [.scrollCompleted(scroll: scroll, finished: true)])
        #expect(boundItems(view).isSuperset(of: Set(80...96)))
        #expect(!view.needsTicks)
    }

    @Test func aSecondScrollStartsWhereTheFirstIsOnScreen() throws {
        var view = list()
        let linear = AnimationTiming(duration: 1, curve: .linear)
        let first = try #require(try view.setContentOffset(Point(0, 4000), timing: linear))
        view.advance(to: 0.25)
        let onScreen = view.scene.contentOffset
        #expect(near(onScreen, Point(0, 1000)))
        let second = try #require(try view.setContentOffset(Point(0, 0), timing: linear))
        #expect(view.scene.contentOffset == onScreen)                 // no jump
        #expect(view.drainEvents() == [.scrollCompleted(scroll: first, finished: false)])
        view.advance(to: 0.75)
        #expect(near(view.scene.contentOffset, Point(0, 500)))
        view.advance(to: 1.25)
        #expect(view.scene.contentOffset == .zero)
        #expect(view.drainEvents() == [.scrollCompleted(scroll: second, finished: true)])
    }

    @Test func anUnanimatedOffsetStopsTheScroll() throws {
        var view = list()
        let first = try #require(try view.setContentOffset(Point(0, 4000), timing: AnimationTiming(duration: 1, curve: .linear)))
        view.advance(to: 0.5)
        view.setContentOffset(Point(0, 100))
        #expect(view.scene.contentOffset == Point(0, 100))
        #expect(view.drainEvents() == [.scrollCompleted(scroll: first, finished: false)])
        #expect(!view.needsTicks)
        #expect(try view.setContentOffset(Point(0, 300), timing: .immediate) == nil)
        #expect(view.scene.contentOffset == Point(0, 300))
    }

    @Test func scrollToItemAnimatesToUIKitsPosition() throws {
        var view = list()
        let id = try #require(try view.scrollToItem(at: IndexPath(0, 100), position: .centeredVertically, timing: .scroll))
        #expect(view.scroll.contentOffset == Point(0, 5025 - 406))
        #expect(view.scene.contentOffset == .zero)
        view.advance(to: AnimationTiming.scroll.duration)
        #expect(view.scene.contentOffset == Point(0, 4619))
        #expect(view.drainEvents() == [.scrollCompleted(scroll: id, finished: true)])
        #expect(throws: EngineError.self) { try view.scrollToItem(at: IndexPath(0, 200), position: .top, timing: .scroll) }
    }

    @Test func refusedDuringAnInteractiveTransition() throws {
        var view = list()
        var taller = ListLayout()
        taller.rowHeight = 80
        _ = try view.beginInteractiveTransition(to: taller)
        #expect(throws: EngineError.transitionInProgress) { try view.setContentOffset(Point(0, 10), timing: .scroll) }
    }
}
