#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A displacement, velocity, force or direction in points, as CGVector is to CGPoint: UIKit
/// Dynamics speaks in vectors (gravityDirection, pushDirection, velocities) and positions stay
/// `Point`s, so the types say which is which.
public struct Vector: Hashable, Sendable, CustomStringConvertible {
    public var dx: Double
    public var dy: Double

    @inlinable public init(dx: Double, dy: Double) { self.dx = dx; self.dy = dy }
    @inlinable public init(_ dx: Double, _ dy: Double) { self.dx = dx; self.dy = dy }

    @inlinable public static var zero: Vector { Vector(dx: 0, dy: 0) }

    /// Inlinable across modules (see Point's).
    @inlinable public static func == (a: Vector, b: Vector) -> Bool { a.dx == b.dx && a.dy == b.dy }

    /// The vector of `length` pointing at `angle` radians from the positive x axis (y downwards,
    /// so positive angles turn clockwise on screen, as UIPushBehavior's angle).
    @inlinable public init(angle: Double, length: Double) {
        self.init(dx: cos(angle) * length, dy: sin(angle) * length)
    }

    @inlinable public var length: Double { (dx * dx + dy * dy).squareRoot() }
    @inlinable public var lengthSquared: Double { dx * dx + dy * dy }
    /// The angle from the positive x axis, in radians (atan2).
    @inlinable public var angle: Double { atan2(dy, dx) }

    /// The same direction with length 1; zero stays zero.
    @inlinable public var normalized: Vector {
        let l = length
        return l > 0 ? Vector(dx: dx / l, dy: dy / l) : .zero
    }

    /// Turned a quarter clockwise on screen (y downwards): (−dy, dx).
    @inlinable public var perpendicular: Vector { Vector(dx: -dy, dy: dx) }

    @inlinable public func dot(_ other: Vector) -> Double { dx * other.dx + dy * other.dy }
    /// The z of the 3-D cross product: positive when `other` lies clockwise on screen.
    @inlinable public func cross(_ other: Vector) -> Double { dx * other.dy - dy * other.dx }

    @inlinable public static func + (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx + b.dx, dy: a.dy + b.dy) }
    @inlinable public static func - (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx - b.dx, dy: a.dy - b.dy) }
    @inlinable public static prefix func - (v: Vector) -> Vector { Vector(dx: -v.dx, dy: -v.dy) }
    @inlinable public static func * (v: Vector, s: Double) -> Vector { Vector(dx: v.dx * s, dy: v.dy * s) }
    @inlinable public static func * (s: Double, v: Vector) -> Vector { Vector(dx: v.dx * s, dy: v.dy * s) }
    @inlinable public static func / (v: Vector, s: Double) -> Vector { Vector(dx: v.dx / s, dy: v.dy / s) }
    @inlinable public static func += (a: inout Vector, b: Vector) { a = a + b }
    @inlinable public static func -= (a: inout Vector, b: Vector) { a = a - b }

    public var description: String { "<\(formatPoints(dx)), \(formatPoints(dy))>" }
}

extension Point {
    /// The point moved by `v`.
    @inlinable public static func + (p: Point, v: Vector) -> Point { Point(x: p.x + v.dx, y: p.y + v.dy) }
    @inlinable public static func - (p: Point, v: Vector) -> Point { Point(x: p.x - v.dx, y: p.y - v.dy) }
    @inlinable public static func += (p: inout Point, v: Vector) { p = p + v }
    /// The vector from `other` to this point.
    @inlinable public func vector(from other: Point) -> Vector { Vector(dx: x - other.x, dy: y - other.y) }
    /// The straight-line distance to `other`.
    @inlinable public func distance(to other: Point) -> Double { vector(from: other).length }
}
