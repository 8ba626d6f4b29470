/// One view's running animation: from its presentation attributes when it started to the
/// target the layout gave, over a timing, as part of one transaction (an update, a layout
/// change, a scroll).
struct ViewAnimation: Sendable {
    var from: LayoutAttributes
    var to: LayoutAttributes
    var startTime: Double
    var timing: AnimationTiming
    var transaction: Int
    /// Driven by an interactive transition's progress, not by time.
    var interactive = false

    /// When the animation lands on `to`; a nanosecond early, so time summed from many
    /// steps (0.1 + 0.2 + …) lands it when it should rather than one ulp later.
    var endTime: Double { startTime + timing.delay + timing.activeDuration - 1e-9 }

    func attributes(at time: Double) -> LayoutAttributes {
        if time >= endTime { return to }
        return from.interpolated(to: to, progress: timing.progress(elapsed: time - startTime))
    }
}

/// The content offset's running animation (a layout change or an animated scroll).
struct OffsetAnimation: Sendable {
    var from: Point
    var to: Point
    var startTime: Double
    var timing: AnimationTiming
    var transaction: Int
    /// Driven by an interactive transition's progress, not by time.
    var interactive = false

    var endTime: Double { startTime + timing.delay + timing.activeDuration - 1e-9 }

    func offset(at time: Double) -> Point {
        if time >= endTime { return to }
        return from.interpolated(to: to, timing.progress(elapsed: time - startTime))
    }
}

/// A group of animations started by one command; it completes when its last animation lands,
/// or is interrupted by a later command (finished = false), like a UIKit completion block.
struct AnimationTransaction: Sendable {
    enum Kind: Sendable { case update, layout, scroll }
    var id: Int
    var kind: Kind
    var remaining: Int
    /// An interactive transition that was cancelled: the old layout stays.
    var cancelled = false
}
