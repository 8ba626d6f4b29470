/// A location in points, in the collection view's content coordinates unless said otherwise.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    @inlinable public static var zero: Point { Point(x: 0, y: 0) }

    // Spelled out so other modules (the engine's layouts) inline them: synthesized conformances
    // are calls across the module boundary on every comparison.
    @inlinable public static func == (a: Point, b: Point) -> Bool { a.x == b.x && a.y == b.y }

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }

    /// The straight-line interpolation from `self` to `other` at `t` (0 gives self, 1 gives other).
    @inlinable public func interpolated(to other: Point, _ t: Double) -> Point {
        Point(x: x + (other.x - x) * t, y: y + (other.y - y) * t)
    }

    public var description: String { "(\(formatPoints(x)), \(formatPoints(y)))" }
}
