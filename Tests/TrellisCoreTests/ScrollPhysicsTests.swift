import XCTest
import Foundation
@testable import TrellisCore
import TrellisGeometry

/// A layout that rests scrolls on multiples of `grid` (as a snapping layout's
/// targetContentOffset(forProposed:velocity:) does).
private struct SnappingList: Layout {
    var list = ListLayout()
    var grid = 70.0
    var typeName: String { "test-snapping-list" }
    mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) { list.prepare(context, invalidation: invalidation) }
    var contentSize: Size { list.contentSize }
    func attributes(in rect: Rect) -> [LayoutAttributes] { list.attributes(in: rect) }
    func attributes(for element: ElementID) -> LayoutAttributes? { list.attributes(for: element) }
    func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        Point(x: proposed.x, y: (proposed.y / grid).rounded() * grid)
    }
}

final class ScrollPhysicsTests: XCTestCase {
    let h = 1.0 / 60.0

    /// 1,000 rows of 50 pt in 400 × 600: content 50,000 pt tall.
    func list(_ config: ScrollConfiguration = ScrollConfiguration()) -> CollectionView {
        var view = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(1000))
        view.configureScrolling(config)
        return view
    }

    /// A 2,000 × 2,000 scroller in 400 × 600: both axes move, offsets 0…1600 × 0…1400.
    func plane(width: Double = 2000, height: Double = 2000) -> CollectionView {
        CollectionView(boundsSize: Size(400, 600), layout: FixedLayout(elements: [], size: Size(width, height)), data: items(0))
    }

    /// A flick: began, ended with the finger's `velocity` (in the view: +y pulls the content down).
    func fling(_ view: inout CollectionView, _ velocity: Point) throws {
        try view.pan(.began, translation: .zero)
        try view.pan(.ended, translation: .zero, velocity: velocity)
    }

    /// Frames at 60 Hz until the scroll rests; returns the on-screen offsets of each frame.
    @discardableResult
    func run(_ view: inout CollectionView, limit: Int = 2000) -> [Point] {
        var frames: [Point] = []
        var n = (view.time * 60).rounded()
        while view.scrollPhysics.decelerating && frames.count < limit {
            n += 1
            view.advance(to: n * h)
            frames.append(view.presentationContentOffset)
        }
        return frames
    }

    // MARK: Rubber band

    func testRubberBandMatchesTheFormulaAndTheReferenceSamples() {
        // The reference's samples for d = 960.
        for (x, b) in [(5.0, 2.74), (10, 5.47), (100, 52.02), (400, 178.98), (960, 340.65)] {
            XCTAssertEqual(RubberBand.distance(x, dimension: 960), b, accuracy: 0.005)
        }
        for x in [1.0, 37.5, 600, 5000] {
            XCTAssertEqual(RubberBand.overshoot(RubberBand.distance(x, dimension: 600), dimension: 600), x, accuracy: 1e-6 * x)
        }
    }

    func testDragFollowsTheFingerInsideAndRubberBandsPastEitherEdge() throws {
        var view = list()
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, -300))
        XCTAssertEqual(view.presentationContentOffset, Point(0, 300), "1:1 inside the content")
        try view.pan(.changed, translation: Point(0, 120))
        XCTAssertEqual(view.presentationContentOffset.y, -(120 * 600 * 0.55 / (600 + 0.55 * 120)), accuracy: 1e-9)
        XCTAssertEqual(view.presentationContentOffset.x, 0, "a list does not move sideways")
        try view.pan(.cancelled, translation: Point(0, 120))
        run(&view)
        // Past the bottom: the maximum offset is 50,000 − 600.
        view.setContentOffset(Point(0, 49_000))
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, -700))
        XCTAssertEqual(view.presentationContentOffset.y, 49_400 + 300 * 600 * 0.55 / (600 + 0.55 * 300), accuracy: 1e-9)
    }

    func testWithoutBouncingADragStopsAtTheEdge() throws {
        var view = list(ScrollConfiguration(bounces: false))
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, 200))
        XCTAssertEqual(view.presentationContentOffset, .zero)
    }

    func testADragStartedFromAStretchedOffsetCarriesOnFromIt() throws {
        var view = list()
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, 200))
        let stretched = view.presentationContentOffset.y
        view.touch(down: true)
        try view.pan(.began, translation: .zero)
        XCTAssertEqual(view.presentationContentOffset.y, stretched, accuracy: 1e-9)
        try view.pan(.changed, translation: Point(0, 100))
        // As one drag of 300 past the edge.
        XCTAssertEqual(view.presentationContentOffset.y, -RubberBand.distance(300, dimension: 600), accuracy: 1e-6)
    }

    func testOnlyMovableAxesFollow() throws {
        var short = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(3))
        try short.pan(.began, translation: .zero)
        try short.pan(.changed, translation: Point(50, 80))
        XCTAssertEqual(short.presentationContentOffset, .zero, "short content without alwaysBounce stays")
        short.configureScrolling(ScrollConfiguration(alwaysBounceVertical: true))
        try short.pan(.changed, translation: Point(50, 80))
        XCTAssertEqual(short.presentationContentOffset.x, 0)
        XCTAssertEqual(short.presentationContentOffset.y, -RubberBand.distance(80, dimension: 600), accuracy: 1e-9)
    }

    // MARK: Deceleration

    func testResistanceMapsTheRateExactly() {
        for d in [0.998, 0.99, 0.95] {
            let c = AxisMotion.resistance(rate: d)
            XCTAssertEqual(1 / (1 + h * c), pow(d, 1000 * h), accuracy: 1e-15)
        }
    }

    func testAFlingRestsWhereUIKitProjectsInTheTimeItTakes() throws {
        for (rate, speed) in [(0.998, 3000.0), (0.99, 3000), (0.998, 800), (0.99, 12_000)] {
            var view = list(ScrollConfiguration(decelerationRate: rate))
            view.setContentOffset(Point(0, 10_000))
            try fling(&view, Point(0, -speed))
            XCTAssertTrue(view.scrollPhysics.decelerating)
            let frames = run(&view)
            let lambda = 1000 * log(rate)
            let projected = 10_000 - speed / lambda
            XCTAssertEqual(view.presentationContentOffset.y, projected, accuracy: 0.5, "rate \(rate), \(speed) pt/s")
            let timeToRest = log(0.5 / speed) / lambda
            XCTAssertEqual(Double(frames.count), timeToRest * 60, accuracy: 1, "rate \(rate), \(speed) pt/s")
            // Every frame on the closed form x0 + v0·(d^(1000t) − 1)/λ.
            for (i, offset) in frames.dropLast().enumerated() {
                let t = Double(i + 1) * h
                XCTAssertEqual(offset.y, 10_000 + speed * (pow(rate, 1000 * t) - 1) / lambda, accuracy: 1e-6)
            }
            XCTAssertFalse(view.needsTicks)
            XCTAssertEqual(view.scrollVelocity, .zero)
        }
    }

    func testVelocityIsSeenByTheLayoutAndViewsAreBoundAlongTheWay() throws {
        var view = list()
        try fling(&view, Point(0, -4000))
        view.advance(to: h)
        XCTAssertEqual(view.scrollVelocity.y, 4000 * pow(0.998, 1000 * h), accuracy: 1e-9)
        XCTAssertEqual(view.context.velocity, view.scrollVelocity)
        run(&view)
        let y = view.presentationContentOffset.y
        let first = Int(((y - 64) / 50).rounded(.down))
        XCTAssertNotNil(view.presentationAttributes(for: .cell(0, first + 2)))
        XCTAssertNil(view.presentationAttributes(for: .cell(0, 0)))
    }

    // MARK: Bounce

    func testAFlingIntoTheTopBouncesBackWithoutOvershoot() throws {
        var view = list()
        view.setContentOffset(Point(0, 300))
        try fling(&view, Point(0, 3000))
        var sawBounce = false, deepest = 0.0, crossed = false
        var previous = view.presentationContentOffset.y
        var turned = 0, lastDirection = -1.0
        for _ in 0..<600 where view.scrollPhysics.decelerating {
            view.advance(to: view.time + h)
            let y = view.presentationContentOffset.y
            sawBounce = sawBounce || view.scrollPhysics.bouncing
            if y < 0 { crossed = true }
            if crossed { XCTAssertLessThanOrEqual(y, 0, "no overshoot past the edge on the way back") }
            deepest = min(deepest, y)
            let direction = y - previous
            if direction != 0, (direction > 0) != (lastDirection > 0) { turned += 1; lastDirection = direction }
            previous = y
        }
        XCTAssertTrue(sawBounce)
        XCTAssertLessThan(deepest, -20)
        XCTAssertEqual(turned, 1, "out and back once: critically damped")
        XCTAssertEqual(view.presentationContentOffset.y, 0, "ends exactly on the edge")
        XCTAssertFalse(view.needsTicks)
    }

    func testAPullPastTheTopBouncesBackMonotonically() throws {
        var view = list()
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, 200))
        try view.pan(.ended, translation: Point(0, 200), velocity: .zero)
        XCTAssertTrue(view.scrollPhysics.bouncing)
        let frames = run(&view)
        var previous = -RubberBand.distance(200, dimension: 600)
        for offset in frames {
            XCTAssertGreaterThanOrEqual(offset.y, previous)
            XCTAssertLessThanOrEqual(offset.y, 0)
            previous = offset.y
        }
        XCTAssertEqual(view.presentationContentOffset.y, 0)
        // Critically damped at 2 Hz from 78 pt: y(t) = y0·e^(−ωt)(1 + ωt) is under 0.25 pt in ~0.7 s.
        XCTAssertLessThan(Double(frames.count) * h, 1.0)
    }

    func testAFlingIntoACornerSettlesOnItWithoutOscillating() throws {
        var view = plane()
        view.setContentOffset(Point(1400, 1200))
        try fling(&view, Point(-3000, -2500))
        var frames = [view.presentationContentOffset]
        frames += run(&view)
        for axis in [\Point.x, \Point.y] {
            let edge = axis == \Point.x ? 1600.0 : 1400.0
            var crossed = false, turns = 0, last = 0.0
            for (a, b) in zip(frames, frames.dropFirst()) {
                if b[keyPath: axis] > edge { crossed = true }
                if crossed { XCTAssertGreaterThanOrEqual(b[keyPath: axis], edge, "never back inside the corner") }
                let d = b[keyPath: axis] - a[keyPath: axis]
                if d != 0, last != 0, (d > 0) != (last > 0) { turns += 1 }
                if d != 0 { last = d }
            }
            XCTAssertTrue(crossed)
            XCTAssertEqual(turns, 1)
        }
        XCTAssertEqual(view.presentationContentOffset, Point(1600, 1400))
    }

    func testTheInBoundsAxisKeepsDecelerating() throws {
        var view = plane()
        view.setContentOffset(Point(1400, 200))
        try fling(&view, Point(-3000, -300))
        run(&view)
        XCTAssertEqual(view.presentationContentOffset.x, 1600)
        XCTAssertEqual(view.presentationContentOffset.y, 200 - 300 / (1000 * log(0.998)), accuracy: 0.5)
    }

    // MARK: Paging and snapping

    func testPagingTargets() {
        // (offset, velocity, start) → target, pages of 400 in 0…3600.
        let table: [(Double, Double, Double, Double)] = [
            (150, 0, 0, 0), (199, 0, 0, 0), (201, 0, 0, 400), (150, 301, 0, 400), (150, 299, 0, 0),
            (390, -301, 400, 0), (400, 500, 400, 800), (400, 0, 400, 400), (799, 5000, 0, 400),
            (3500, 5000, 3600, 3600), (10, -5000, 0, 0), (1250, 0, 1200, 1200), (1250, -2000, 1200, 1200), (1150, -2000, 1200, 800),
        ]
        for (offset, velocity, start, expected) in table {
            XCTAssertEqual(Paging.target(offset: offset, velocity: velocity, pageSize: 400, startOffset: start, lo: 0, hi: 3600),
                           expected, "offset \(offset) velocity \(velocity) start \(start)")
        }
    }

    func testAPagingReleaseLandsExactlyOnThePage() throws {
        for (drag, velocity, page) in [(-150.0, 0.0, 0.0), (-150, -500, 400), (-250, 0, 400), (-250, 800, 0)] {
            var view = plane(width: 4000, height: 600)
            view.configureScrolling(ScrollConfiguration(pagingEnabled: true))
            try view.pan(.began, translation: .zero)
            try view.pan(.changed, translation: Point(drag, 0))
            try view.pan(.ended, translation: Point(drag, 0), velocity: Point(velocity, 0))
            let events = view.drainEvents()
            XCTAssertTrue(events.contains(.scrollWillEndDragging(velocity: Point(-velocity, 0), targetContentOffset: Point(page, 0))))
            let frames = run(&view)
            XCTAssertEqual(view.presentationContentOffset, Point(page, 0))
            XCTAssertLessThan(Double(frames.count) * h, 1.0, "a page turns in under a second")
        }
    }

    func testTheLayoutsTargetIsWhereAFlingEndsExactly() throws {
        var view = CollectionView(boundsSize: Size(400, 600), layout: SnappingList(), data: items(1000))
        view.setContentOffset(Point(0, 1000))
        try fling(&view, Point(0, -2345))
        let projected = 1000 + 2345 / -(1000 * log(0.998))
        let target = (projected / 70).rounded() * 70
        XCTAssertNotEqual(projected, target)
        XCTAssertTrue(view.drainEvents().contains(.scrollWillEndDragging(velocity: Point(0, 2345), targetContentOffset: Point(0, target))))
        run(&view)
        XCTAssertEqual(view.presentationContentOffset.y, target)
        XCTAssertEqual(view.drainEvents().last, .scrollDidEndDecelerating(contentOffset: Point(0, target)))
    }

    // MARK: Catch and interruptions

    func testATouchCatchesAFlingWhereItIs() throws {
        var view = list()
        try fling(&view, Point(0, -3000))
        for i in 1...10 { view.advance(to: Double(i) * h) }
        let caught = view.presentationContentOffset
        view.touch(down: true)
        XCTAssertFalse(view.scrollPhysics.decelerating)
        XCTAssertTrue(view.scrollPhysics.tracking)
        XCTAssertFalse(view.needsTicks)
        for i in 11...40 { view.advance(to: Double(i) * h) }
        XCTAssertEqual(view.presentationContentOffset, caught)
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, -40))
        XCTAssertEqual(view.presentationContentOffset.y, caught.y + 40)
    }

    func testACaughtBounceReturnsWhenTheFingerLifts() throws {
        var view = list()
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, 200))
        try view.pan(.ended, translation: Point(0, 200))
        view.advance(to: 5 * h)
        view.touch(down: true)
        let held = view.presentationContentOffset
        view.advance(to: 20 * h)
        XCTAssertEqual(view.presentationContentOffset, held)
        XCTAssertLessThan(held.y, 0)
        view.touch(down: false)
        XCTAssertTrue(view.scrollPhysics.bouncing)
        run(&view)
        XCTAssertEqual(view.presentationContentOffset.y, 0)
    }

    func testAnAnimatedScrollInterruptsAFlingAndAPanInterruptsAnAnimatedScroll() throws {
        var view = list()
        try fling(&view, Point(0, -3000))
        view.advance(to: 5 * h)
        let here = view.presentationContentOffset
        let scroll = try view.setContentOffset(Point(0, 5000), timing: AnimationTiming(duration: 0.3))
        XCTAssertFalse(view.scrollPhysics.decelerating)
        XCTAssertEqual(view.presentationContentOffset, here, "the animation starts where the fling was")
        view.advance(to: 10 * h)
        let midway = view.presentationContentOffset
        _ = view.drainEvents()
        try view.pan(.began, translation: .zero)
        XCTAssertEqual(view.presentationContentOffset, midway)
        XCTAssertFalse(view.needsTicks)
        let events = view.drainEvents()
        XCTAssertTrue(events.contains(.scrollCompleted(scroll: scroll!, finished: false)))
        XCTAssertTrue(events.contains(.scrollWillBeginDragging(contentOffset: midway)))
    }

    func testDelegateEventsInUIKitsOrder() throws {
        var view = list()
        try view.pan(.began, translation: .zero)
        view.advance(to: h)
        try view.pan(.changed, translation: Point(0, -30))
        try view.pan(.ended, translation: Point(0, -30), velocity: Point(0, -1000))
        let target = 30 + 1000 / -(1000 * log(0.998))
        XCTAssertEqual(view.drainEvents(), [
            .scrollWillBeginDragging(contentOffset: .zero),
            .scrollDidScroll(contentOffset: Point(0, 30)),
            .scrollWillEndDragging(velocity: Point(0, 1000), targetContentOffset: Point(0, target)),
            .scrollDidEndDragging(decelerate: true),
        ])
        view.advance(to: 2 * h)
        XCTAssertEqual(view.drainEvents().count, 1, "one didScroll per tick")
        run(&view)
        let last = view.drainEvents()
        XCTAssertEqual(last.last, .scrollDidEndDecelerating(contentOffset: view.presentationContentOffset))
        XCTAssertEqual(last.filter { if case .scrollDidEndDecelerating = $0 { return true } else { return false } }.count, 1)
    }

    func testRefusals() {
        var view = list(ScrollConfiguration(scrollEnabled: false))
        XCTAssertThrowsError(try view.pan(.began, translation: .zero)) { XCTAssertEqual($0 as? EngineError, .scrollingDisabled) }
        view.configureScrolling(ScrollConfiguration())
        XCTAssertThrowsError(try view.pan(.changed, translation: .zero)) { XCTAssertEqual($0 as? EngineError, .panNotBegun) }
    }

    // MARK: Determinism

    func testTheSameScriptGivesTheSameFramesAtAnyFrameRate() throws {
        func script(fps: Double) throws -> (frames: [Point], rest: Point) {
            var view = plane()
            view.setContentOffset(Point(800, 700))
            try view.pan(.began, translation: .zero)
            for i in 1...6 {
                view.advance(to: Double(i) / 60)
                try view.pan(.changed, translation: Point(Double(i) * -15, Double(i) * -25))
            }
            try view.pan(.ended, translation: Point(-90, -150), velocity: Point(-2500, -4000))
            var frames: [Point] = []
            var t = view.time
            while view.needsTicks {
                t += 1 / fps
                view.advance(to: t)
                frames.append(view.presentationContentOffset)
            }
            return (frames, view.presentationContentOffset)
        }
        let a = try script(fps: 60), b = try script(fps: 60), c = try script(fps: 30)
        XCTAssertEqual(a.frames, b.frames)
        XCTAssertEqual(a.rest, c.rest, "the same fixed steps at 30 fps")
        XCTAssertEqual(Array(a.frames.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)), Array(c.frames.prefix(a.frames.count / 2)))
    }
}
