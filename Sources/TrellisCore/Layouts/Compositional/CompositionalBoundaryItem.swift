/// NSCollectionLayoutBoundarySupplementaryItem: a section's header or footer (any kind), aligned
/// to an edge of the section, optionally pinned to the visible bounds. Index path (section, 0).
public struct CompositionalBoundaryItem: Hashable, Sendable {
    public var kind: ElementKindName
    /// Fractions are of the section's width inside its side insets, and of the container's height.
    public var size: CompositionalSize
    public var alignment: CompositionalRectAlignment
    /// Moves it, in points (UIKit's absoluteOffset).
    public var offset: Point
    /// UIKit default true: takes room and pushes the section's content.
    public var extendsBoundary: Bool
    /// UIKit default false: stays in view while any part of the section is.
    public var pinToVisibleBounds: Bool
    public var zIndex: Int

    public init(kind: ElementKindName, size: CompositionalSize, alignment: CompositionalRectAlignment, offset: Point = .zero,
                extendsBoundary: Bool = true, pinToVisibleBounds: Bool = false, zIndex: Int = 0) {
        self.kind = kind; self.size = size; self.alignment = alignment; self.offset = offset
        self.extendsBoundary = extendsBoundary; self.pinToVisibleBounds = pinToVisibleBounds; self.zIndex = zIndex
    }

    /// A header: top alignment, element kind "header".
    public static func header(height: CompositionalDimension, pinned: Bool = false, zIndex: Int = 0) -> CompositionalBoundaryItem {
        CompositionalBoundaryItem(kind: "header", size: CompositionalSize(width: .fractionalWidth(1), height: height),
                                  alignment: .top, pinToVisibleBounds: pinned, zIndex: zIndex)
    }

    /// A footer: bottom alignment, element kind "footer".
    public static func footer(height: CompositionalDimension) -> CompositionalBoundaryItem {
        CompositionalBoundaryItem(kind: "footer", size: CompositionalSize(width: .fractionalWidth(1), height: height), alignment: .bottom)
    }

    public var transposed: CompositionalBoundaryItem {
        CompositionalBoundaryItem(kind: kind, size: size.transposed, alignment: alignment.transposed,
                                  offset: Point(x: offset.y, y: offset.x), extendsBoundary: extendsBoundary,
                                  pinToVisibleBounds: pinToVisibleBounds, zIndex: zIndex)
    }
}
