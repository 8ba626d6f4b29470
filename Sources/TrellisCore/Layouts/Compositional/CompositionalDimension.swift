/// NSCollectionLayoutDimension: one side of a size, absolute, estimated, or a fraction of the
/// containing group's (or section's) width or height.
public enum CompositionalDimension: Hashable, Sendable {
    case absolute(Double)
    /// Ours: the estimate is used as the size (cells are not measured headless).
    case estimated(Double)
    case fractionalWidth(Double)
    case fractionalHeight(Double)

    /// The length in points inside `container`.
    @inlinable public func resolve(in container: Size) -> Double {
        switch self {
        case .absolute(let v), .estimated(let v): return v
        case .fractionalWidth(let f): return f * container.width
        case .fractionalHeight(let f): return f * container.height
        }
    }

    /// True for `.estimated`: item content insets are ignored on such an axis (UIKit's rule).
    @inlinable public var isEstimated: Bool {
        if case .estimated = self { return true }
        return false
    }

    /// True when it needs a container to be a fraction of.
    @inlinable public var isFractional: Bool {
        switch self {
        case .fractionalWidth, .fractionalHeight: return true
        case .absolute, .estimated: return false
        }
    }

    /// The same dimension with width and height swapped (for a horizontal layout, solved transposed).
    @inlinable public var transposed: CompositionalDimension {
        switch self {
        case .fractionalWidth(let f): return .fractionalHeight(f)
        case .fractionalHeight(let f): return .fractionalWidth(f)
        default: return self
        }
    }
}
