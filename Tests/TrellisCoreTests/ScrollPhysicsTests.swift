import Testing
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

@Suite struct ScrollPhysicsTests {
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
        while view.scrollDeceleration.decelerating && frames.count < limit {
            n += 1
            view.advance(to: n * h)
            frames.append(view.presentationContentOffset)
        }
        return frames
    }

    // MARK: Rubber band

    @Test func rubberBandMatchesTheFormulaAndTheReferenceSamples() {
        // The reference's samples for d = 960.
        for (x, b) in [(5.0, 2.74), (10, 5.47), (100, 52.02), (400, 178.98), (960, 340.65)] {
            #expect(near(RubberBand.distance(x, dimension: 960), b, 0.005))
        }
        for x in [1.0, 37.5, 600, 5000] {
            #expect(near(RubberBand.overshoot(RubberBand.distance(x, dimension: 600), dimension: 600), x, 1e-6 * x))
        }
    }

    @Test func dragFollowsTheFingerInsideAndRubberBandsPastEitherEdge() throws {
        var view = list()
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, -300))
        #expect(view.presentationContentOffset == Point(0, 300), "1:1 inside the content")
        try view.pan(.changed, translation: Point(0, 120))
        let pulled: Double = -(120 * 600 * 0.55 / (600 + 0.55 * 120))
        #expect(near(view.presentationContentOffset.y, pulled, 1e-9))
        #expect(view.presentationContentOffset.x == 0, "a list does not move sideways")
        try view.pan(.cancelled, translation: Point(0, 120))
        run(&view)
        // Past the bottom: the maximum offset is 50,000 − 600.
        view.setContentOffset(Point(0, 49_000))
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, -700))
        let pushed: Double = 49_400 + 300 * 600 * 0.55 / (600 + 0.55 * 300)
        #expect(near(view.presentationContentOffset.y, pushed, 1e-9))
    }

    @Test func withoutBouncingADragStopsAtTheEdge() throws {
        var view = list(ScrollConfiguration(bounces: false))
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, 200))
        #expect(view.presentationContentOffset == .zero)
    }

    @Test func aDragStartedFromAStretchedOffsetCarriesOnFromIt() throws {
        var view = list()
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, 200))
        let stretched = view.presentationContentOffset.y
        view.touch(down: true)
        try view.pan(.began, translation: .zero)
        #expect(near(view.presentationContentOffset.y, stretched, 1e-9))
        try view.pan(.changed, translation: Point(0, 100))
        // As one drag of 300 past the edge.
        #expect(near(view.presentationContentOffset.y, -RubberBand.distance(300, dimension: 600), 1e-6))
    }

    @Test func onlyMovableAxesFollow() throws {
        var short = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(3))
        try short.pan(.began, translation: .zero)
        try short.pan(.changed, translation: Point(50, 80))
        #expect(short.presentationContentOffset == .zero, "short content without alwaysBounce stays")
        short.configureScrolling(ScrollConfiguration(alwaysBounceVertical: true))
        try short.pan(.changed, translation: Point(50, 80))
        #expect(short.presentationContentOffset.x == 0)
        #expect(near(short.presentationContentOffset.y, -RubberBand.distance(80, dimension: 600), 1e-9))
    }

    // MARK: Deceleration

    @Test func aRateOutsideTheRangeIsKeptInside() {
        var c = ScrollConfiguration(decelerationRate: 1)
        #expect(c.decelerationRate == 0.9999)
        c.decelerationRate = 0
        #expect(c.decelerationRate == 0.5)
        c.decelerationRate = .nan
        #expect(c.decelerationRate == 0.998)
    }

    @Test func resistanceMapsTheRateExactly() {
        for d in [0.998, 0.99, 0.95] {
            let c = AxisMotion.resistance(rate: d)
            #expect(near(exp(-c * h), pow(d, 1000 * h), 1e-15))
        }
    }

    @Test func aFlingRestsWhereUIKitProjectsInTheTimeItTakes() throws {
        for (rate, speed) in [(0.998, 3000.0), (0.99, 3000), (0.998, 800), (0.99, 12_000)] {
            var view = list(ScrollConfiguration(decelerationRate: rate))
            view.setContentOffset(Point(0, 10_000))
            try fling(&view, Point(0, -speed))
            #expect(view.scrollDeceleration.decelerating)
            let frames = run(&view)
            let lambda = 1000 * log(rate)
            let projected = 10_000 - speed / lambda
            #expect(near(view.presentationContentOffset.y, projected, 0.5), "rate \(rate), \(speed) pt/s")
            let timeToRest = log(0.5 / speed) / lambda
            #expect(near(Double(frames.count), timeToRest * 60, 1), "rate \(rate), \(speed) pt/s")
            // Every frame on the closed form x0 + v0·(d^(1000t) − 1)/λ.
            for (i, offset) in frames.dropLast().enumerated() {
                let t = Double(i + 1) * h
                #expect(near(offset.y, 10_000 + speed * (pow(rate, 1000 * t) - 1) / lambda, 1e-6))
            }
            #expect(!view.needsTicks)
            #expect(view.scrollVelocity == .zero)
        }
    }

    @Test func velocityIsSeenByTheLayoutAndViewsAreBoundAlongTheWay() throws {
        var view = list()
        try fling(&view, Point(0, -4000))
        view.advance(to: h)
        #expect(near(view.scrollVelocity.y, 4000 * pow(0.998, 1000 * h), 1e-9))
        #expect(view.context.velocity == view.scrollVelocity)
        run(&view)
        let y = view.presentationContentOffset.y
        let first = Int(((y - 64) / 50).rounded(.down))
        #expect(view.presentationAttributes(for: .cell(0, first + 2)) != nil)
        #expect(view.presentationAttributes(for: .cell(0, 0)) == nil)
    }

    // MARK: Bounce

    @Test func aFlingIntoTheTopBouncesBackWithoutOvershoot() throws {
        var view = list()
        view.setContentOffset(Point(0, 300))
        try fling(&view, Point(0, 3000))
        var sawBounce = false, deepest = 0.0, crossed = false
        var previous = view.presentationContentOffset.y
        var turned = 0, lastDirection = -1.0
        for _ in 0..<600 where view.scrollDeceleration.decelerating {
            view.advance(to: view.time + h)
            let y = view.presentationContentOffset.y
            sawBounce = sawBounce || view.scrollDeceleration.bouncing
            if y < 0 { crossed = true }
            if crossed { #expect(y <= 0, "no overshoot past the edge on the way back") }
            deepest = min(deepest, y)
            let direction = y - previous
            if direction != 0, (direction > 0) != (lastDirection > 0) { turned += 1; lastDirection = direction }
            previous = y
        }
        #expect(sawBounce)
        #expect(deepest < -20)
        #expect(turned == 1, "out and back once: critically damped")
        #expect(view.presentationContentOffset.y == 0, "ends exactly on the edge")
        #expect(!view.needsTicks)
    }

    @Test func aPullPastTheTopBouncesBackMonotonically() throws {
        var view = list()
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, 200))
        try view.pan(.ended, translation: Point(0, 200), velocity: .zero)
        #expect(view.scrollDeceleration.bouncing)
        let frames = run(&view)
        var previous = -RubberBand.distance(200, dimension: 600)
        for offset in frames {
            #expect(offset.y >= previous)
            #expect(offset.y <= 0)
            previous = offset.y
        }
        #expect(view.presentationContentOffset.y == 0)
        // Critically damped at 2 Hz from 78 pt: y(t) = y0·e^(−ωt)(1 + ωt) is under 0.25 pt in ~0.7 s.
        #expect(Double(frames.count) * h < 1.0)
    }

    @Test func aFlingIntoACornerSettlesOnItWithoutOscillating() throws {
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
                if crossed { #expect(b[keyPath: axis] >= edge, "never back inside the corner") }
                let d = b[keyPath: axis] - a[keyPath: axis]
                if d != 0, last != 0, (d > 0) != (last > 0) { turns += 1 }
                if d != 0 { last = d }
            }
            #expect(crossed)
            #expect(turns == 1)
        }
        #expect(view.presentationContentOffset == Point(1600, 1400))
    }

    @Test func theInBoundsAxisKeepsDecelerating() throws {
        var view = plane()
        view.setContentOffset(Point(1400, 200))
        try fling(&view, Point(-3000, -300))
        run(&view)
        #expect(view.presentationContentOffset.x == 1600)
        #expect(near(view.presentationContentOffset.y, 200 - 300 / (1000 * log(0.998)), 0.5))
    }

    // MARK: Paging and snapping

    @Test func pagingTargets() {
        // (offset, velocity, start) → target, pages of 400 in 0…3600.
        let table: [(Double, Double, Double, Double)] = [
            (150, 0, 0, 0), (199, 0, 0, 0), (201, 0, 0, 400), (150, 301, 0, 400), (150, 299, 0, 0),
            (390, -301, 400, 0), (400, 500, 400, 800), (400, 0, 400, 400), (799, 5000, 0, 400),
            (3500, 5000, 3600, 3600), (10, -5000, 0, 0), (1250, 0, 1200, 1200), (1250, -2000, 1200, 1200), (1150, -2000, 1200, 800),
        ]
        for (offset, velocity, start, expected) in table {
            #expect(Paging.target(offset: offset, velocity: velocity, pageSize: 400, startOffset: start, lo: 0, hi: 3600) == expected, "offset \(offset) velocity \(velocity) start \(start)")
        }
    }

    @Test func aPagingReleaseLandsExactlyOnThePage() throws {
        for (drag, velocity, page) in [(-150.0, 0.0, 0.0), (-150, -500, 400), (-250, 0, 400), (-250, 800, 0)] {
            var view = plane(width: 4000, height: 600)
            view.configureScrolling(ScrollConfiguration(pagingEnabled: true))
            try view.pan(.began, translation: .zero)
            try view.pan(.changed, translation: Point(drag, 0))
            try view.pan(.ended, translation: Point(drag, 0), velocity: Point(velocity, 0))
            let events = view.drainEvents()
            #expect(events.contains(.scrollWillEndDragging(velocity: Point(-velocity, 0), targetContentOffset: Point(page, 0))))
            let frames = run(&view)
            #expect(view.presentationContentOffset == Point(page, 0))
            #expect(Double(frames.count) * h < 1.0, "a page turns in under a second")
        }
    }

    @Test func theLayoutsTargetIsWhereAFlingEndsExactly() throws {
        var view = CollectionView(boundsSize: Size(400, 600), layout: SnappingList(), data: items(1000))
        view.setContentOffset(Point(0, 1000))
        try fling(&view, Point(0, -2345))
        let projected = 1000 + 2345 / -(1000 * log(0.998))
        let target = (projected / 70).rounded() * 70
        #expect(projected != target)
        #expect(view.drainEvents().contains(.scrollWillEndDragging(velocity: Point(0, 2345), targetContentOffset: Point(0, target))))
        run(&view)
        #expect(view.presentationContentOffset.y == target)
        #expect(view.drainEvents().last == .scrollDidEndDecelerating(contentOffset: Point(0, target)))
    }

    // MARK: Catch and interruptions

    @Test func aTouchCatchesAFlingWhereItIs() throws {
        var view = list()
        try fling(&view, Point(0, -3000))
        for i in 1...10 { view.advance(to: Double(i) * h) }
        let caught = view.presentationContentOffset
        view.touch(down: true)
        #expect(!view.scrollDeceleration.decelerating)
        #expect(view.scrollDeceleration.tracking)
        #expect(!view.needsTicks)
        for i in 11...40 { view.advance(to: Double(i) * h) }
        #expect(view.presentationContentOffset == caught)
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, -40))
        #expect(view.presentationContentOffset.y == caught.y + 40)
    }

    @Test func aCaughtBounceReturnsWhenTheFingerLifts() throws {
        var view = list()
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, 200))
        try view.pan(.ended, translation: Point(0, 200))
        view.advance(to: 5 * h)
        view.touch(down: true)
        let held = view.presentationContentOffset
        view.advance(to: 20 * h)
        #expect(view.presentationContentOffset == held)
        #expect(held.y < 0)
        view.touch(down: false)
        #expect(view.scrollDeceleration.bouncing)
        run(&view)
        #expect(view.presentationContentOffset.y == 0)
    }

    @Test func anAnimatedScrollInterruptsAFlingAndAPanInterruptsAnAnimatedScroll() throws {
        var view = list()
        try fling(&view, Point(0, -3000))
        view.advance(to: 5 * h)
        let here = view.presentationContentOffset
        let scroll = try view.setContentOffset(Point(0, 5000), timing: AnimationTiming(duration: 0.3))
        #expect(!view.scrollDeceleration.decelerating)
        #expect(view.presentationContentOffset == here, "the animation starts where the fling was")
        view.advance(to: 10 * h)
        let midway = view.presentationContentOffset
        _ = view.drainEvents()
        try view.pan(.began, translation: .zero)
        #expect(view.presentationContentOffset == midway)
        #expect(!view.needsTicks)
        let events = view.drainEvents()
        #expect(events.contains(.scrollCompleted(scroll: scroll!, finished: false)))
        #expect(events.contains(.scrollWillBeginDragging(contentOffset: midway)))

        // A layout change stops a fling where it is, as a scroll does.
        try view.pan(.ended, translation: .zero, velocity: Point(0, -3000))
        view.advance(to: 12 * h)
        let flung = view.presentationContentOffset
        #expect(view.scrollDeceleration.decelerating)
        view.setLayout(ListLayout(), animation: AnimationTiming(duration: 0.2))
        #expect(!view.scrollDeceleration.decelerating)
        // The transition's target is the item at the centre kept there, from the fling's offset.
        let target = view.scroll.contentOffset
        #expect(near(target.y, flung.y, 25))
        for i in 13...60 { view.advance(to: Double(i) * h) }
        #expect(view.presentationContentOffset == target, "nothing but the transition moved it")
    }

    @Test func delegateEventsInUIKitsOrder() throws {
        var view = list()
        try view.pan(.began, translation: .zero)
        view.advance(to: h)
        try view.pan(.changed, translation: Point(0, -30))
        try view.pan(.ended, translation: Point(0, -30), velocity: Point(0, -1000))
        let target = 30 + 1000 / -(1000 * log(0.998))
        #expect(view.drainEvents() == [
            .scrollWillBeginDragging(contentOffset: .zero),
            .scrollDidScroll(contentOffset: Point(0, 30)),
            .scrollWillEndDragging(velocity: Point(0, 1000), targetContentOffset: Point(0, target)),
            .scrollDidEndDragging(decelerate: true),
        ])
        view.advance(to: 2 * h)
        #expect(view.drainEvents().count == 1, "one didScroll per tick")
        run(&view)
        let last = view.drainEvents()
        #expect(last.last == .scrollDidEndDecelerating(contentOffset: view.presentationContentOffset))
        #expect(last.filter { if case .scrollDidEndDecelerating = $0 { return true } else { return false } }.count == 1)
    }

    @Test func refusals() {
        var view = list(ScrollConfiguration(scrollEnabled: false))
        #expect(throws: EngineError.scrollingDisabled) { try view.pan(.began, translation: .zero) }
        view.configureScrolling(ScrollConfiguration())
        #expect(throws: EngineError.panNotBegun) { try view.pan(.changed, translation: .zero) }
    }

    @Test func anInteractiveTransitionEndsADragInProgress() throws {
        // Pans are refused while the transition runs, so a drag left in progress could never
        // end: the transition's start ends it, cancelled, where the offset is.
        var view = list()
        try view.pan(.began, translation: .zero)
        view.advance(to: h)
        try view.pan(.changed, translation: Point(0, -200))
        _ = view.drainEvents()
        try view.beginInteractiveTransition(to: ListLayout())
        #expect(!view.scrollDeceleration.dragging && !view.scrollDeceleration.tracking && !view.scrollDeceleration.decelerating)
        #expect(view.drainEvents().contains(.scrollDidEndDragging(decelerate: false)))
        // Its end is accepted and changes nothing (PROTOCOL.md, gesture.pan).
        try view.pan(.cancelled, translation: Point(0, -200))
        try view.cancelInteractiveTransition()
        #expect(throws: EngineError.panNotBegun) { try view.pan(.changed, translation: Point(0, -210)) }
    }

    // MARK: Determinism

    @Test func theSameScriptGivesTheSameFramesAtAnyFrameRate() throws {
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
        #expect(a.frames == b.frames)
        #expect(a.rest == c.rest, "the same fixed steps at 30 fps")
        #expect(Array(a.frames.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)) == Array(c.frames.prefix(a.frames.count / 2)))
    }
}

/// During an interactive layout transition the content does not scroll, the same whether or not
/// the transition moves the offset (before, a pan's end was refused on one and accepted on the
/// other): a pan cannot begin, its end is always accepted, and beginning the transition cancels
/// a drag in progress.
@Suite struct PanDuringInteractiveTransitionTests {
    /// A list scrolled to 300, going to a layout of the same content (the offset stays) or to
    /// one whose target moves it.
    static func session(offsetMoves: Bool) throws -> CollectionView {
        var view = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(100))
        view.setContentOffset(Point(0, 300))
        var next = ListLayout()
        if offsetMoves { next.rowHeight = 5 }   // 500 pt of content: the offset goes back to 0
        try view.beginInteractiveTransition(to: next)
        return view
    }

    @Test(arguments: [false, true])
    func aPanCannotBeginAndItsEndIsAlwaysAccepted(offsetMoves: Bool) throws {
        var view = try Self.session(offsetMoves: offsetMoves)
        let before = view.presentationContentOffset
        #expect(throws: EngineError.transitionInProgress) { try view.pan(.began, translation: .zero) }
        #expect(throws: EngineError.transitionInProgress) { try view.pan(.changed, translation: Point(0, 40)) }
        try view.pan(.ended, translation: Point(0, 40), velocity: Point(0, 900))
        try view.pan(.cancelled, translation: .zero)
        #expect(!view.scrollDeceleration.dragging && !view.scrollDeceleration.decelerating)
        #expect(view.presentationContentOffset == before)
    }

    @Test func beginningATransitionCancelsADragInProgress() throws {
        var view = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(100))
        try view.pan(.began, translation: .zero)
        try view.pan(.changed, translation: Point(0, -120))
        _ = view.drainEvents()
        try view.beginInteractiveTransition(to: ListLayout())
        #expect(!view.scrollDeceleration.dragging && !view.scrollDeceleration.tracking)
        let events = view.drainEvents()
        #expect(events.contains(.scrollDidEndDragging(decelerate: false)))
        #expect(!events.contains { if case .scrollWillEndDragging = $0 { true } else { false } })
        try view.pan(.ended, translation: Point(0, -120), velocity: Point(0, -2000))
        #expect(!view.scrollDeceleration.decelerating)
    }
}

/// A fling however fast never carries the content further past its edge than the rubber band
/// lets a drag show (0.55 of the view's size): a 1,000,000 pt/s fling flew 29,000 pt past it.
@Suite struct BounceOvershootTests {
    @Test(arguments: [3_000.0, 100_000, 1_000_000])
    func aFlingsBounceStaysWithinTheRubberBandsReach(speed: Double) throws {
        var view = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(100))
        view.setContentOffset(Point(0, 4300))   // 100 rows of 50 pt: the end is at 4,400
        try view.pan(.began, translation: .zero)
        try view.pan(.ended, translation: .zero, velocity: Point(0, -speed))
        var farthest = 0.0, t = 0.0
        while view.scrollDeceleration.decelerating && t < 10 {
            t += 1.0 / 60
            view.advance(to: t)
            farthest = max(farthest, view.presentationContentOffset.y - 4400)
        }
        #expect(!view.scrollDeceleration.decelerating)
        #expect(view.presentationContentOffset.y == 4400)
        #expect(farthest > 0 && farthest <= 0.55 * 600 + 1e-9, "\(farthest) pt past the end")
    }
}
