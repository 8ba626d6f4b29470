/// NSCollectionLayoutEdgeSpacing: optional outsets around an item or group, applied while it is
/// placed (before its content insets); flexible edges take what room the group has left.
public struct CompositionalEdgeSpacing: Hashable, Sendable {
    public var leading: CompositionalSpacing?
    public var top: CompositionalSpacing?
    public var trailing: CompositionalSpacing?
    public var bottom: CompositionalSpacing?

    public init(leading: CompositionalSpacing? = nil, top: CompositionalSpacing? = nil,
                trailing: CompositionalSpacing? = nil, bottom: CompositionalSpacing? = nil) {
        self.leading = leading; self.top = top; self.trailing = trailing; self.bottom = bottom
    }

    public static let none = CompositionalEdgeSpacing()

    @inlinable public var isNone: Bool { leading == nil && top == nil && trailing == nil && bottom == nil }

    @inlinable public var transposed: CompositionalEdgeSpacing {
        CompositionalEdgeSpacing(leading: top, top: leading, trailing: bottom, bottom: trailing)
    }
}
