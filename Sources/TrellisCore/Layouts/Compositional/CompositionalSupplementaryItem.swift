/// NSCollectionLayoutSupplementaryItem on an item: a view of its own kind anchored to the item's
/// edges (a badge). It carries its host item's index path.
public struct CompositionalSupplementaryItem: Hashable, Sendable {
    /// The element kind (unique among the section's kinds).
    public var kind: ElementKindName
    /// Fractions are of the host item's frame.
    public var size: CompositionalSize
    public var anchor: CompositionalAnchor
    /// Ours: 1, above the cells (UIKit's default is not public).
    public var zIndex: Int

    public init(kind: ElementKindName, size: CompositionalSize, anchor: CompositionalAnchor, zIndex: Int = 1) {
        self.kind = kind; self.size = size; self.anchor = anchor; self.zIndex = zIndex
    }

    public var transposed: CompositionalSupplementaryItem {
        CompositionalSupplementaryItem(kind: kind, size: size.transposed, anchor: anchor.transposed, zIndex: zIndex)
    }
}
