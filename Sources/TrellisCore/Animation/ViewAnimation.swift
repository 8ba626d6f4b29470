/// What an animation carries from one value to another: a view's attributes, the content offset.
protocol Animatable: Sendable {
    /// The value part way to `other`: 0 is this value, 1 is `other` (a spring may pass 1).
    func interpolated(to other: Self, progress: Double) -> Self
}

extension LayoutAttributes: Animatable {}

extension Point: Animatable {
    func interpolated(to other: Point, progress: Double) -> Point { interpolated(to: other, progress) }
}

/// One running animation: from the presentation value when it started to the target, over a
/// timing, as part of one transaction (an update, a layout change, a scroll).
struct ValueAnimation<Value: Animatable>: Sendable {
    var from: Value
    var to: Value
    var startTime: Double
    var timing: AnimationTiming
    var transaction: Int
    /// Driven by an interactive transition's progress, not by time.
    var interactive = false

    /// When the animation lands on `to`; a nanosecond early, so time summed from many
    /// steps (0.1 + 0.2 + …) lands it when it should rather than one ulp later.
    var endTime: Double { startTime + timing.delay + timing.activeDuration - 1e-9 }

    func value(at time: Double) -> Value {
        if time >= endTime { return to }
        return from.interpolated(to: to, progress: timing.progress(elapsed: time - startTime))
    }
}

/// A view's running animation: from its presentation attributes to the layout's target.
typealias ViewAnimation = ValueAnimation<LayoutAttributes>
/// The content offset's running animation (a layout change or an animated scroll).
typealias OffsetAnimation = ValueAnimation<Point>
