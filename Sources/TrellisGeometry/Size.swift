/// A width and height in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    @inlinable public init(width: Double, height: Double) { self.width = width; self.height = height }
    @inlinable public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }

    @inlinable public static var zero: Size { Size(width: 0, height: 0) }

    /// Inlinable across modules (see Point's).
    @inlinable public static func == (a: Size, b: Size) -> Bool { a.width == b.width && a.height == b.height }

    @inlinable public func interpolated(to other: Size, _ t: Double) -> Size {
        Size(width: width + (other.width - width) * t, height: height + (other.height - height) * t)
    }

    public var description: String { "\(formatPoints(width))x\(formatPoints(height))" }
}
