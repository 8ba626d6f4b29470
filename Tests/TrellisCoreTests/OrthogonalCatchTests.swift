import Testing
@testable import TrellisCore

/// A touch down inside a moving orthogonal band catches it, as a touch catches the main scroll's
/// deceleration (UIScrollView stops on touch-down); its lift lets a band stopped past an end
/// bounce back and one between resting offsets settle. Geometry: `OrthogonalScrollingTests`'
/// (the band is y 10…110 of a 375 × 600 view, range 0…735, groups every 110).
@Suite struct OrthogonalCatchTests {
    typealias Strip = OrthogonalScrollingTests
    static let inBand = Point(200, 50), belowBand = Point(200, 300)

    /// The band's middle (content y 60) in the view, wherever the main scroll has moved it.
    static func bandMiddle(_ v: CollectionView) -> Point { Point(200, 60 - v.presentationContentOffset.y) }

    /// A fling of the band, then one of the main scroll (a pan below the band), both moving.
    static func bothFlung(_ behavior: OrthogonalScrollingBehavior) throws -> CollectionView {
        var v = Strip.view(behavior)
        try Strip.drag(&v, by: 100, speed: 500)
        try v.pan(.began, translation: .zero, location: belowBand)
        try v.pan(.ended, translation: .zero, velocity: Point(0, -1000))
        v.advance(to: 0.2)
        #expect(v.scrollDeceleration.decelerating)
        #expect(v.orthogonalScrolling.sections["strip"]?.motion != nil)
        return v
    }

    @Test func aTouchInsideTheBandStopsItAndTheMainScrollWhereTheyAre() throws {
        var v = try Self.bothFlung(.continuous)
        let band = try #require(v.orthogonalOffset(section: 0)), main = v.scroll.contentOffset
        #expect(band > 100 && main.y > 0)
        v.touch(down: true, at: Self.bandMiddle(v))
        #expect(v.orthogonalScrolling.sections["strip"]?.motion == nil)
        #expect(v.orthogonalScrolling.held == "strip")
        #expect(!v.scrollDeceleration.decelerating)
        #expect(!v.needsTicks)
        v.advance(to: 1)
        #expect(v.orthogonalOffset(section: 0) == band && v.scroll.contentOffset == main)
        // Lifted inside the range of a continuous band: it stays.
        v.touch(down: false)
        #expect(v.orthogonalScrolling.held == nil)
        Strip.settle(&v, from: 1)
        #expect(v.orthogonalOffset(section: 0) == band)
    }

    @Test func aTouchOutsideTheBandOrWithoutAPointLeavesTheBandMoving() throws {
        for below in [true, false] {
            var v = try Self.bothFlung(.continuous)
            // Below the band: its middle plus 200.
            v.touch(down: true, at: below ? Self.bandMiddle(v) + Point(0, 200) : nil)
            #expect(!v.scrollDeceleration.decelerating)
            #expect(v.orthogonalScrolling.sections["strip"]?.motion != nil)
            #expect(v.orthogonalScrolling.held == nil)
            let band = try #require(v.orthogonalOffset(section: 0))
            v.advance(to: 0.3)
            #expect(try #require(v.orthogonalOffset(section: 0)) > band)
        }
    }

    @Test func liftedPastTheStartTheCaughtBandBouncesBack() throws {
        var v = Strip.view(.continuous)
        try v.pan(.began, translation: .zero, location: Self.inBand)
        try v.pan(.changed, translation: Point(100, 0))
        try v.pan(.ended, translation: Point(100, 0))
        v.advance(to: 1.0 / 60)
        let caught = try #require(v.orthogonalOffset(section: 0))
        #expect(caught < 0)
        v.touch(down: true, at: Self.inBand)
        v.advance(to: 1)
        #expect(v.orthogonalOffset(section: 0) == caught)
        v.touch(down: false)
        #expect(v.orthogonalScrolling.sections["strip"]?.motion?.phase == .bouncing)
        Strip.settle(&v, from: 1)
        #expect(v.orthogonalOffset(section: 0) == 0)
    }

    @Test func liftedBetweenGroupsAGroupPagingBandSettlesOnTheNearest() throws {
        var v = Strip.view(.groupPaging)
        // Released at 60 it settles towards 110 (60/110 rounds to group 1); caught on the way.
        try Strip.drag(&v, by: 60)
        v.advance(to: 0.1 + 2.0 / 60)
        let caught = try #require(v.orthogonalOffset(section: 0))
        #expect(caught > 60 && caught < 110)
        v.touch(down: true, at: Self.inBand)
        v.advance(to: 1)
        #expect(v.orthogonalOffset(section: 0) == caught)
        v.touch(down: false)
        Strip.settle(&v, from: 1)
        #expect(v.orthogonalOffset(section: 0) == 110)
    }

    @Test func aPanAfterTheTouchTakesTheBandFromWhereItWasCaught() throws {
        var v = try Self.bothFlung(.continuous)
        v.touch(down: true, at: Self.bandMiddle(v))
        let caught = try #require(v.orthogonalOffset(section: 0))
        try v.pan(.began, translation: .zero, location: Self.bandMiddle(v))
        #expect(v.orthogonalScrolling.held == nil)
        try v.pan(.changed, translation: Point(-10, 0))
        #expect(v.orthogonalOffset(section: 0) == caught + 10)
        try v.pan(.ended, translation: Point(-10, 0))
    }
}
