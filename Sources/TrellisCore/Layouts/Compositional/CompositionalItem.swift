/// NSCollectionLayoutItem: a leaf of the tree, one cell (one index path) per placement.
public struct CompositionalItem: Hashable, Sendable {
    /// Fractions are of the containing group's area inside its content insets.
    public var size: CompositionalSize
    /// Shrink the cell inside its slot (not on estimated axes); neighbours do not move.
    public var contentInsets: EdgeInsets
    public var edgeSpacing: CompositionalEdgeSpacing
    /// Badges and other views anchored to the item.
    public var supplementaryItems: [CompositionalSupplementaryItem]

    public init(size: CompositionalSize, contentInsets: EdgeInsets = .zero, edgeSpacing: CompositionalEdgeSpacing = .none,
                supplementaryItems: [CompositionalSupplementaryItem] = []) {
        self.size = size; self.contentInsets = contentInsets; self.edgeSpacing = edgeSpacing
        self.supplementaryItems = supplementaryItems
    }

    public var transposed: CompositionalItem {
        CompositionalItem(size: size.transposed, contentInsets: contentInsets.compositionalTransposed,
                          edgeSpacing: edgeSpacing.transposed, supplementaryItems: supplementaryItems.map(\.transposed))
    }
}
