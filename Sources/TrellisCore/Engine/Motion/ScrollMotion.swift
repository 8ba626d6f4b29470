/// Stage 2 of the tick: what moves the content offset by itself, giving the offset that is on
/// screen and its velocity. Today that is an animated scroll or a layout transition's offset;
/// the user's scrolling (`ScrollPhysics`: drag, deceleration, bounce, paging, snapping) moves
/// the offset itself, stepped by the physics stage's fixed steps. For an animation the model
/// offset (`ScrollState.contentOffset`) is where it comes to rest; for the user's scrolling it
/// is the offset on screen, as UIScrollView's contentOffset during a drag or a deceleration.
struct ScrollMotion: MotionStage, Sendable {
    /// The running offset animation; nil at rest (the model offset is on screen).
    var animation: OffsetAnimation?
    /// The user's scrolling: settings, drag, released motion per axis.
    var physics = ScrollPhysics()

    /// An interactive transition's offset follows its progress, not time.
    var needsTicks: Bool { (animation.map { !$0.interactive } ?? false) || physics.needsTicks }

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
        if physics.dragging || physics.decelerating { return physics.velocity }
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
