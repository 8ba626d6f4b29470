/// A timing curve through (0,0) and (1,1) with two control points, as CAMediaTimingFunction:
/// maps the fraction of time elapsed to the fraction of the change applied.
public struct CubicBezierCurve: Hashable, Sendable {
    public var c1: Point
    public var c2: Point

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        c1 = Point(x: x1, y: y1); c2 = Point(x: x2, y: y2)
    }

    /// Core Animation's named functions (kCAMediaTimingFunction…), by their control points.
    public static let linear = CubicBezierCurve(0, 0, 1, 1)
    public static let easeIn = CubicBezierCurve(0.42, 0, 1, 1)
    public static let easeOut = CubicBezierCurve(0, 0, 0.58, 1)
    public static let easeInEaseOut = CubicBezierCurve(0.42, 0, 0.58, 1)

    /// The curve's y at time fraction `t` (0…1): solve x(s) = t for the parameter s (Newton,
    /// then bisection as the fallback), then evaluate y(s).
    public func value(at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        if c1 == Point(x: 0, y: 0) && c2 == Point(x: 1, y: 1) { return t }
        let s = parameter(forX: t)
        return Self.bezier(s, c1.y, c2.y)
    }

    private func parameter(forX x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let error = Self.bezier(s, c1.x, c2.x) - x
            if abs(error) < 1e-9 { return s }
            let slope = Self.derivative(s, c1.x, c2.x)
            if abs(slope) < 1e-9 { break }
            s -= error / slope
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<60 {
            let value = Self.bezier(s, c1.x, c2.x)
            if abs(value - x) < 1e-10 { break }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }

    /// One coordinate of the Bézier with end points 0 and 1 at parameter s.
    private static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private static func derivative(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }
}
