/// What a layout sees of its collection view when it prepares: the data and the view's geometry.
public struct LayoutContext: Sendable {
    /// The data source's current state (shared copy-on-write, never copied by passing it).
    public var data: CollectionData
    /// The size of the visible area (the collection view's bounds size).
    public var boundsSize: Size
    /// The current content offset (the bounds' origin in content coordinates).
    public var contentOffset: Point
    /// UIScrollView's contentInset: extra scrollable space around the content.
    public var contentInset: EdgeInsets

    public init(data: CollectionData, boundsSize: Size, contentOffset: Point = .zero, contentInset: EdgeInsets = .zero) {
        self.data = data
        self.boundsSize = boundsSize
        self.contentOffset = contentOffset
        self.contentInset = contentInset
    }

    /// The visible rectangle in content coordinates.
    @inlinable public var visibleBounds: Rect { Rect(origin: contentOffset, size: boundsSize) }
}

/// What changed since the layout last prepared, so it can redo only that (as
/// UICollectionViewLayoutInvalidationContext).
public struct LayoutInvalidation: Hashable, Sendable {
    /// Everything: new data, a new configuration, or the first layout.
    public var everything: Bool
    /// Sections whose items changed (inserted, deleted, resized); the number of sections did not change.
    public var sections: Set<Int>
    /// The bounds changed (size or origin); the data did not.
    public var bounds: Bool

    public init(everything: Bool = false, sections: Set<Int> = [], bounds: Bool = false) {
        self.everything = everything; self.sections = sections; self.bounds = bounds
    }

    public static let all = LayoutInvalidation(everything: true)
    public static let boundsChange = LayoutInvalidation(bounds: true)
    public static func sections(_ s: Set<Int>) -> LayoutInvalidation { LayoutInvalidation(sections: s) }
}
