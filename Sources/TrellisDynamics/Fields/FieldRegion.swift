import TrellisGeometry

/// UIRegion: where a field acts, in coordinates relative to the field's position (shapes are
/// centred on it), composed with set operations. Boundaries belong to the shape (a point on a
/// circle's rim is inside), as UIKit does not say; an ellipse with a side of zero or less
/// contains nothing.
public indirect enum FieldRegion: Hashable, Sendable {
    /// Everywhere (UIRegion.infinite, a field's default).
    case infinite
    /// A rectangle of this size centred on the position (UIRegion(size:)).
    case rect(Size)
    /// A disc of this radius in points (UIRegion(radius:)).
    case circle(radius: Double)
    /// The ellipse inscribed in a rectangle of this size centred on the position.
    case ellipse(Size)
    /// Everywhere the region is not (inverse()).
    case inverse(FieldRegion)
    /// Either region (region(byUnionWith:)).
    case union(FieldRegion, FieldRegion)
    /// The first region without the second.
    case difference(FieldRegion, FieldRegion)
    /// Both regions (region(byIntersectionWith:)).
    case intersection(FieldRegion, FieldRegion)

    public func inverted() -> FieldRegion { .inverse(self) }
    public func union(_ other: FieldRegion) -> FieldRegion { .union(self, other) }
    /// This region without `other`.
    public func subtracting(_ other: FieldRegion) -> FieldRegion { .difference(self, other) }
    public func intersection(_ other: FieldRegion) -> FieldRegion { .intersection(self, other) }

    /// Whether the point at `offset` from the field's position is inside. A few comparisons per
    /// shape: it runs once per item per (sub-)step.
    public func contains(_ offset: Vector) -> Bool {
        switch self {
        case .infinite:
            return true
        case .rect(let size):
            return abs(offset.dx) <= size.width / 2 && abs(offset.dy) <= size.height / 2
        case .circle(let radius):
            return radius >= 0 && offset.lengthSquared <= radius * radius
        case .ellipse(let size):
            guard size.width > 0, size.height > 0 else { return false }
            let x = offset.dx / (size.width / 2), y = offset.dy / (size.height / 2)
            return x * x + y * y <= 1
        case .inverse(let region):
            return !region.contains(offset)
        case .union(let a, let b):
            return a.contains(offset) || b.contains(offset)
        case .difference(let a, let b):
            return a.contains(offset) && !b.contains(offset)
        case .intersection(let a, let b):
            return a.contains(offset) && b.contains(offset)
        }
    }

    /// Whether it is everywhere: then the per-item test is skipped.
    var isInfinite: Bool {
        if case .infinite = self { return true }
        return false
    }
}
