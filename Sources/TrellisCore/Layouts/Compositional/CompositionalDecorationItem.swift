/// NSCollectionLayoutDecorationItem.background: a view behind a section's content, inset by its
/// content insets. Index path (section, 0).
public struct CompositionalDecorationItem: Hashable, Sendable {
    public var kind: ElementKindName
    public var contentInsets: EdgeInsets
    /// Ours: -1, behind the cells at 0 (UIKit puts it at 0 and lifts the section's other items to 1).
    public var zIndex: Int

    public init(kind: ElementKindName = "background", contentInsets: EdgeInsets = .zero, zIndex: Int = -1) {
        self.kind = kind; self.contentInsets = contentInsets; self.zIndex = zIndex
    }

    public var transposed: CompositionalDecorationItem {
        CompositionalDecorationItem(kind: kind, contentInsets: contentInsets.compositionalTransposed, zIndex: zIndex)
    }
}

extension EdgeInsets {
    /// Top with left and bottom with right swapped (a horizontal layout is solved transposed).
    @inlinable public var compositionalTransposed: EdgeInsets { EdgeInsets(top: left, left: top, bottom: right, right: bottom) }
}
