/// Insets from the four edges of a rectangle, in UIKit's order (top, left, bottom, right).
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    @inlinable public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    /// The same inset on every edge.
    @inlinable public init(all value: Double) { self.init(top: value, left: value, bottom: value, right: value) }

    @inlinable public static var zero: EdgeInsets { EdgeInsets() }

    /// Inlinable across modules (see Point's).
    @inlinable public static func == (a: EdgeInsets, b: EdgeInsets) -> Bool {
        a.top == b.top && a.left == b.left && a.bottom == b.bottom && a.right == b.right
    }

    @inlinable public var horizontal: Double { left + right }
    @inlinable public var vertical: Double { top + bottom }
}
