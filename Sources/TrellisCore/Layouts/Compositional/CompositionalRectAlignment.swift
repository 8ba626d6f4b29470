/// NSRectAlignment: where a boundary supplementary item (header, footer) sits on its section.
public enum CompositionalRectAlignment: String, Hashable, Sendable, CaseIterable {
    case top, topLeading, leading, bottomLeading, bottom, bottomTrailing, trailing, topTrailing

    /// The section edges it names.
    public var edges: CompositionalRectEdges {
        switch self {
        case .top: return .top
        case .topLeading: return [.top, .leading]
        case .leading: return .leading
        case .bottomLeading: return [.bottom, .leading]
        case .bottom: return .bottom
        case .bottomTrailing: return [.bottom, .trailing]
        case .trailing: return .trailing
        case .topTrailing: return [.top, .trailing]
        }
    }

    /// Headers (placed before the section's content along the scroll axis), as laid out in flow
    /// space (the scroll axis is y there).
    public var isLeadingAlongScroll: Bool { edges.contains(.top) || (edges == .leading) }

    public var transposed: CompositionalRectAlignment {
        switch self {
        case .top: return .leading
        case .leading: return .top
        case .bottom: return .trailing
        case .trailing: return .bottom
        case .topTrailing: return .bottomLeading
        case .bottomLeading: return .topTrailing
        case .topLeading, .bottomTrailing: return self
        }
    }
}
