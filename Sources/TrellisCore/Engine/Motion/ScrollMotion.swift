import TrellisGeometry
import TrellisDynamics

/// The tick's scroll-motion stage (`TickStage.scrollMotion`): what moves the content offset by
/// itself, giving the offset that is on screen and its velocity. Today that is an animated scroll
/// or a layout transition's offset; the user's scrolling (`ScrollDeceleration`: drag, deceleration,
/// bounce, paging, snapping) moves the offset itself, on fixed 60 Hz steps (`DynamicsStage.scrollStep`).
/// For an animation the model offset (`ScrollState.contentOffset`) is where it comes to rest; for
/// the user's scrolling it is the offset on screen, as UIScrollView's contentOffset during a drag
/// or a deceleration.
struct ScrollMotion: Sendable {
    /// The running offset animation; nil at rest (the model offset is on screen).
    var animation: OffsetAnimation?
    /// The user's scrolling: settings, drag, released motion per axis.
    var deceleration = ScrollDeceleration()

    /// An interactive transition's offset follows its progress, not time.
    var needsTicks: Bool { (animation.map { !$0.interactive } ?? false) || deceleration.needsTicks }

    /// The offset on screen at `time`: the model offset at rest, else where the animation is
    /// (at the interactive transition's `progress` when one drives it).
    func offset(model: Point, time: Double, progress: Double?) -> Point {
        guard let animation else { return model }
        if animation.interactive { return animation.from.interpolated(to: animation.to, progress ?? 0) }
        return animation.value(at: time)
    }

    /// The on-screen offset's velocity at `time`, in points per second: the animation curve's
    /// slope, measured over a fixed millisecond so it does not depend on the frame rate.
    func velocity(at time: Double) -> Point {
        if deceleration.dragging || deceleration.decelerating { return deceleration.velocity }
        guard let animation, !animation.interactive, time < animation.endTime else { return .zero }
        let h = 0.0005
        let before = animation.value(at: Swift.max(animation.startTime, time - h))
        let after = animation.value(at: time + h)
        let span = time + h - Swift.max(animation.startTime, time - h)
        return Point(x: (after.x - before.x) / span, y: (after.y - before.y) / span)
    }

    /// Moves to `time`. `moved` is true when the offset on screen changed; `landed` is the
    /// transaction of an animation that reached its target.
    mutating func step(to time: Double) -> (moved: Bool, landed: Int?) {
        guard let running = animation, !running.interactive else { return (false, nil) }
        if time >= running.endTime {
            animation = nil
            return (true, running.transaction)
        }
        return (true, nil)
    }
}

extension CollectionView {
    /// The tick's scroll-motion stage: the offset animation and the released scroll move to
    /// now; a springy layout's springs follow the scroll before the dynamics step (seed 000's
    /// bounds change).
    mutating func stepScrollMotion(_ tick: inout TickInProgress) {
        let shown = presentationContentOffset
        let (animated, landed) = scrollMotion.step(to: time)
        let flung = stepScrollDeceleration(steps: tick.scrollSteps)
        tick.scrolled = animated || flung
        tick.scrollLanded = landed
        if tick.scrolled { layoutSpringsFollowScroll(from: shown) }
        // An orthogonal band's offset is read at query time: only the views follow it.
        if stepOrthogonalScrolling(steps: tick.scrollSteps) { setNeedsBinding() }
    }

    /// The user's released scroll for `steps` fixed 60 Hz steps, whatever the animator's rate.
    /// Returns true when the offset on screen moved.
    mutating func stepScrollDeceleration(steps: Int) -> Bool {
        guard steps > 0, scrollMotion.deceleration.decelerating else { return false }
        let h = DynamicsStage.scrollStep
        let bounces = scrollConfiguration.bounces
        var offset = scroll.contentOffset
        let lo = scroll.minimumContentOffset, hi = scroll.maximumContentOffset
        for _ in 0..<steps {
            if var axis = scrollMotion.deceleration.x {
                let (x, ended) = axis.step(offset.x, lo: lo.x, hi: hi.x, bounces: bounces, h: h, dimension: scroll.boundsSize.width)
                offset.x = x
                scrollMotion.deceleration.x = ended ? nil : axis
            }
            if var axis = scrollMotion.deceleration.y {
                let (y, ended) = axis.step(offset.y, lo: lo.y, hi: hi.y, bounces: bounces, h: h, dimension: scroll.boundsSize.height)
                offset.y = y
                scrollMotion.deceleration.y = ended ? nil : axis
            }
            if !scrollMotion.deceleration.decelerating { break }
        }
        let moved = offset != scroll.contentOffset
        if moved {
            scroll.contentOffset = offset
            pendingEvents.append(.scrollDidScroll(contentOffset: offset))
        }
        if !scrollMotion.deceleration.decelerating { pendingEvents.append(.scrollDidEndDecelerating(contentOffset: offset)) }
        return moved
    }
}
