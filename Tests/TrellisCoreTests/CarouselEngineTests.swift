import Testing
import Foundation
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

    /// The turn of item `item` about y in a cover flow: m33 = cos(c·π/2·tilt) for its clamped
    /// offset c (R_y·T·P·T(Δ): the z column of everything after the rotation is (0, 0, 1, z)).
    func turnCosine(_ view: CollectionView, _ item: Int) -> Double { view.attributes(for: .cell(0, item))!.transform.m33 }

    @Test func coverFlow2TurnsTheNewCurrentItemToFaceTheViewerDuringADrag() throws {
        // 20 covers of 200 pt, pitch 100 (offsetMultiplier 2). A drag of 60 pt: scroll 0.6,
        // item 1 becomes current with offset 0.4.
        var view = CollectionView(boundsSize: Size(320, 480), layout: CarouselLayout(style: .coverFlow2), data: .generated(count: 20))
        var plain = CollectionView(boundsSize: Size(320, 480), layout: CarouselLayout(style: .coverFlow), data: .generated(count: 20))
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(-60, 0))
        try plain.pan(.began, translation: .zero)
        try plain.pan(.changed, translation: Point(-60, 0))
        let tilt = 0.9, quarter = Double.pi / 2
        // CoverFlow: item 1 turned by its offset, 0.4 of the way.
        #expect(abs(turnCosine(plain, 1) - cos(0.4 * quarter * tilt)) < 1e-12)
        #expect(!plain.needsTicks)
        // CoverFlow2 (iCarousel's toggle): the change of item sets the toggle to −1 (the
        // distance from the new item back to the old), so item 1 (offset 0.4 takes −toggle = 1)
        // starts turned fully and item 0 (offset −0.6 takes −1 − toggle = 0) faces front…
        #expect(abs(turnCosine(view, 1) - cos(1 * quarter * tilt)) < 1e-12)
        #expect(abs(turnCosine(view, 0) - 1) < 1e-12)
        #expect(view.needsTicks)
        // …then the toggle eases to 0 over 0.4 s (no speed: iCarousel's longest), with the finger
        // still: half way the cubic ease is at 0.5, so item 1 is turned by 0.5.
        view.advance(to: 0.2)
        #expect(abs(turnCosine(view, 1) - cos(0.5 * quarter * tilt)) < 1e-12)
        #expect(abs(turnCosine(view, 0) - cos(0.5 * quarter * tilt)) < 1e-12)
        view.advance(to: 0.4)
        // Done: the new current item faces the viewer though its offset is 0.4, the old one is a side cover.
        #expect(abs(turnCosine(view, 1) - 1) < 1e-12)
        #expect(abs(turnCosine(view, 0) - cos(1 * quarter * tilt)) < 1e-12)
        #expect(!view.needsTicks)
        // Let go: decelerating, the toggle follows the offset again, as CoverFlow's.
        try view.pan(.ended, translation: Point(-60, 0), velocity: .zero)
        var time = 0.4
        settle(&view, from: &time)
        let s = view.scroll.contentOffset.x / 100
        #expect(abs(turnCosine(view, 1) - cos(min(1, abs(1 - s)) * quarter * tilt)) < 1e-9)
    }
}
