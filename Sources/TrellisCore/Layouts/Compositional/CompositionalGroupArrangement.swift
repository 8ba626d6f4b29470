/// How a group places its subitems: in a row, in a column, or at explicit frames
/// (NSCollectionLayoutGroup.horizontal / .vertical / .custom).
public enum CompositionalGroupArrangement: Hashable, Sendable {
    case horizontal
    case vertical
    /// Frames relative to the group's origin, one per cell, each with a z-index (the custom
    /// group's item provider, as a fixed list).
    case custom([CompositionalCustomFrame])

    public var transposed: CompositionalGroupArrangement {
        switch self {
        case .horizontal: return .vertical
        case .vertical: return .horizontal
        case .custom(let frames): return .custom(frames.map(\.transposed))
        }
    }
}

/// NSCollectionLayoutGroupCustomItem: one cell's frame inside a custom group.
public struct CompositionalCustomFrame: Hashable, Sendable {
    public var frame: Rect
    public var zIndex: Int

    public init(frame: Rect, zIndex: Int = 0) { self.frame = frame; self.zIndex = zIndex }

    public var transposed: CompositionalCustomFrame {
        CompositionalCustomFrame(frame: Rect(x: frame.origin.y, y: frame.origin.x, width: frame.size.height, height: frame.size.width),
                                 zIndex: zIndex)
    }
}
