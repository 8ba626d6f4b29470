#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// iCarousel's CoverFlow2 `toggle`: while a finger drags, the item that becomes current turns to
/// face the viewer over 0.2–0.4 s (eased) instead of following the offset, which is what sets
/// CoverFlow2 apart from CoverFlow; at any other time it follows the offset (which makes
/// CoverFlow2 look like CoverFlow). Driven by the engine's time in `LayoutContext`, so it is as
/// deterministic as everything else; while it animates the layout asks for ticks.
struct CoverFlowToggle: Hashable, Sendable {
    /// The toggle as last set from the offset (iCarousel's `_toggle` before a drag changes it).
    var resting = 0.0
    /// The current item as of the last prepare.
    var index: Int?
    /// When the running animation began (engine seconds); nil: none.
    var start: Double?
    /// −1 or 1: the animation runs from this value to 0.
    var sign = 1.0
    /// 0.2 + 0.2·min(1, 1/|items per second|) (iCarousel's MIN/MAX_TOGGLE_DURATION).
    var duration = 0.4
    var dragging = false

    /// iCarousel's easeInOut: a cubic ease in and out.
    static func ease(_ t: Double) -> Double {
        t < 0.5 ? 0.5 * pow(2 * t, 3) : 0.5 * pow(2 * t - 2, 3) + 1
    }

    /// After a prepare: `current` is the current item, `currentOffset` its offset from the scroll
    /// position, `speed` the scroll's speed in items per second, `distance(a, b)` iCarousel's
    /// minScrollDistance from a to b.
    mutating func update(current: Int?, currentOffset: Double, dragging: Bool, time: Double, speed: Double,
                         distance: (Int, Int) -> Double) {
        if !dragging {
            // Decelerating, scrolling programmatically or at rest: from the offset (the current
            // item's toggle is minus its clamped offset).
            resting = -min(1, max(-1, currentOffset))
            start = nil
        } else if let previous = index, let current, current != previous {
            sign = min(1, max(-1, distance(current, previous))) < 0 ? -1 : 1
            duration = 0.2 + 0.2 * (speed != 0 ? min(1, max(0, 1 / abs(speed))) : 1)
            start = time
        }
        index = current
        self.dragging = dragging
    }

    /// The toggle at `time` while dragging; nil when it follows the offset.
    func value(at time: Double) -> Double? {
        guard dragging else { return nil }
        guard let start else { return resting }
        let e = Self.ease(min(1, max(0, (time - start) / duration)))
        return sign < 0 ? e - 1 : 1 - e
    }

    /// The animation still runs at `time`.
    func isAnimating(at time: Double) -> Bool { dragging && start.map { time - $0 < duration } ?? false }
}
