import TrellisGeometry

/// One contact beginning or ending, as UICollisionBehaviorDelegate reports it: between two
/// elements, or between an element and a boundary (`boundary` nil with `withBoundary` true: the
/// reference bounds, whose identifier UIKit gives as nil).
public struct DynamicsCollision: Hashable, Sendable {
    public var behavior: Int
    public var began: Bool
    /// One element (against a boundary) or two.
    public var elements: [DynamicElement]
    public var withBoundary: Bool
    public var boundary: String?
    /// Where they touch (reference coordinates), on began only.
    public var point: Point?
}
