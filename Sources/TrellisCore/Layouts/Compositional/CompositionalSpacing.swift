/// NSCollectionLayoutSpacing: exactly so many points, or at least so many (flexible spacing
/// shares what room is left).
public enum CompositionalSpacing: Hashable, Sendable {
    case fixed(Double)
    case flexible(Double)

    /// The points it takes at the least.
    @inlinable public var minimum: Double {
        switch self { case .fixed(let v), .flexible(let v): return v }
    }

    @inlinable public var isFlexible: Bool {
        if case .flexible = self { return true }
        return false
    }
}
