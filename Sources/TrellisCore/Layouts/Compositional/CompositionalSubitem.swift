/// A group's child: an item (a cell) or a nested group.
public indirect enum CompositionalSubitem: Hashable, Sendable {
    case item(CompositionalItem)
    case group(CompositionalGroup)

    public var size: CompositionalSize {
        switch self {
        case .item(let i): return i.size
        case .group(let g): return g.size
        }
    }

    public var edgeSpacing: CompositionalEdgeSpacing {
        switch self {
        case .item(let i): return i.edgeSpacing
        case .group(let g): return g.edgeSpacing
        }
    }

    public var transposed: CompositionalSubitem {
        switch self {
        case .item(let i): return .item(i.transposed)
        case .group(let g): return .group(g.transposed)
        }
    }
}
