import Testing
@testable import TrellisCore

/// CarouselLayout driven by the engine: flings come to rest on item boundaries, scrolling to
/// an item in a wrapping carousel takes the shorter way round, and the views bound are the
/// carousel's visible window.
@Suite struct CarouselEngineTests {
    /// Advances the view in 1/60 s frames until nothing moves.
    func settle(_ view: inout CollectionView, from time: inout Double) {
        var frames = 0
        while view.needsTicks && frames < 2000 {
            time += 1.0 / 60
            view.advance(to: time)
            frames += 1
        }
        #expect(frames < 2000)
    }

    @Test func flingsComeToRestOnAnItemBoundary() throws {
        for (velocity, forwards) in [(-900.0, true), (900.0, false), (-2500.0, true)] {
            var view = CollectionView(boundsSize: Size(320, 480), layout: CarouselLayout(style: .linear), data: .generated(count: 50))
            view.setContentOffset(Point(2030, 0)) // 10.15 items
            var time = 0.0
            try view.pan(.began, translation: .zero)
            try view.pan(.changed, translation: Point(velocity / 60, 0))
            try view.pan(.ended, translation: Point(velocity / 60, 0), velocity: Point(velocity, 0))
            settle(&view, from: &time)
            let x = view.scroll.contentOffset.x
            #expect(abs(x / 200 - (x / 200).rounded()) < 1e-6, "rests at \(x)")
            #expect(forwards ? x > 2030 : x < 2030, "rests at \(x)")
            #expect(view.layout.currentItem == IndexPath(0, Int((x / 200).rounded())))
        }
    }

    @Test func scrollingToAnItemInAWrappingCarouselTakesTheShorterWay() throws {
        var view = CollectionView(boundsSize: Size(320, 480), layout: CarouselLayout(style: .rotary), data: .generated(count: 20))
        view.setContentOffset(Point(10 * 4000, 0)) // item 0 at the centre, ten turns in…
        // …which is outside the middle half of the content: moved there by whole turns at once.
        let base = view.scroll.contentOffset.x
        #expect(base != 40_000 && (base - 40_000).truncatingRemainder(dividingBy: 4000) == 0)
        #expect(view.layout.currentItem == IndexPath(0, 0))
        try view.scrollToItem(at: IndexPath(0, 19), position: .centeredHorizontally)
        // Item 19 is one item back (the copy before), not 19 forwards.
        #expect(view.scroll.contentOffset == Point(base - 200, 0))
        #expect(view.layout.currentItem == IndexPath(0, 19))
        try view.scrollToItem(at: IndexPath(0, 8), position: .centeredHorizontally)
        #expect(view.scroll.contentOffset == Point(base - 200 + 9 * 200, 0))
    }

    @Test func theBoundViewsAreTheVisibleWindow() {
        // Linear at item 10: the window is items 8…11; item 8 (centre 400 pt left of the view's
        // centre, 1660…1860) lies beyond the 64 pt margin (1936…2384), so 9, 10 and 11 are bound.
        var view = CollectionView(boundsSize: Size(320, 480), layout: CarouselLayout(style: .linear), data: .generated(count: 50))
        view.setContentOffset(Point(2000, 0))
        #expect(view.boundViewCount == 3)
        // Rotary: 12 places, the 12 of the window; none hidden at the default perspective
        // (rotary items never come nearer than the centre one).
        var rotary = CollectionView(boundsSize: Size(320, 480), layout: CarouselLayout(style: .rotary), data: .generated(count: 10_000))
        rotary.setContentOffset(Point(1_000_000, 0))
        #expect(rotary.boundViewCount == 12)
    }
}
