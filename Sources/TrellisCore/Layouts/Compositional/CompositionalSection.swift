/// NSCollectionLayoutSection: one group repeated over the section's items, with insets, spacing
/// between groups, headers and footers, and decorations.
public struct CompositionalSection: Hashable, Sendable {
    /// How the section provider's rule refers to this description (ours; optional).
    public var name: String?
    public var group: CompositionalGroup
    /// Around the groups; the group's fractions resolve inside them.
    public var contentInsets: EdgeInsets
    /// Between consecutive groups (along the orthogonal axis in an orthogonal section).
    public var interGroupSpacing: Double
    public var orthogonalScrollingBehavior: OrthogonalScrollingBehavior
    public var boundaryItems: [CompositionalBoundaryItem]
    public var decorationItems: [CompositionalDecorationItem]
    /// Scale and alpha by distance from the band's centre, per frame (orthogonal sections only).
    public var visibleItemsEffect: CompositionalVisibleItemsEffect?

    public init(name: String? = nil, group: CompositionalGroup, contentInsets: EdgeInsets = .zero, interGroupSpacing: Double = 0,
                orthogonalScrollingBehavior: OrthogonalScrollingBehavior = .none, boundaryItems: [CompositionalBoundaryItem] = [],
                decorationItems: [CompositionalDecorationItem] = [], visibleItemsEffect: CompositionalVisibleItemsEffect? = nil) {
        self.name = name; self.group = group; self.contentInsets = contentInsets; self.interGroupSpacing = interGroupSpacing
        self.orthogonalScrollingBehavior = orthogonalScrollingBehavior; self.boundaryItems = boundaryItems
        self.decorationItems = decorationItems; self.visibleItemsEffect = visibleItemsEffect
    }

    /// Laid out across the scroll axis in one band.
    @inlinable public var isOrthogonal: Bool { orthogonalScrollingBehavior != .none }

    public var transposed: CompositionalSection {
        CompositionalSection(name: name, group: group.transposed, contentInsets: contentInsets.compositionalTransposed,
                             interGroupSpacing: interGroupSpacing, orthogonalScrollingBehavior: orthogonalScrollingBehavior,
                             boundaryItems: boundaryItems.map(\.transposed), decorationItems: decorationItems.map(\.transposed),
                             visibleItemsEffect: visibleItemsEffect)
    }
}
