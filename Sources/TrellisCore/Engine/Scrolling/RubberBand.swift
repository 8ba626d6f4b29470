/// UIScrollView's rubber band while dragging past an edge: a finger `x` points past the edge
/// moves the content f(x, d, c) = x·d·c / (d + c·x) points, c = 0.55, d the bounds' dimension
/// on that axis (Grant Paul's analysis of UIKit; f → d as x → ∞).
public enum RubberBand {
    public static let coefficient = 0.55

    /// How far past the edge the content shows for a finger `overshoot` ≥ 0 points past it.
    @inlinable public static func distance(_ overshoot: Double, dimension d: Double, coefficient c: Double = coefficient) -> Double {
        guard d > 0 else { return 0 }
        return overshoot * d * c / (d + c * overshoot)
    }

    /// The finger's overshoot that shows `distance` (0 ≤ distance < d): the inverse of
    /// `distance(_:dimension:)`, so a drag that starts from a stretched offset carries on from it.
    @inlinable public static func overshoot(_ distance: Double, dimension d: Double, coefficient c: Double = coefficient) -> Double {
        guard d > 0 else { return 0 }
        let b = min(distance, d * 0.999_999)
        return b * d / (c * (d - b))
    }

    /// `raw` on one axis of [lo, hi]: unchanged inside, stretched past an edge.
    @inlinable public static func band(_ raw: Double, lo: Double, hi: Double, dimension: Double) -> Double {
        if raw < lo { return lo - distance(lo - raw, dimension: dimension) }
        if raw > hi { return hi + distance(raw - hi, dimension: dimension) }
        return raw
    }

    /// The finger position that shows `shown` on one axis (inverse of `band`).
    @inlinable public static func unband(_ shown: Double, lo: Double, hi: Double, dimension: Double) -> Double {
        if shown < lo { return lo - overshoot(lo - shown, dimension: dimension) }
        if shown > hi { return hi + overshoot(shown - hi, dimension: dimension) }
        return shown
    }
}
