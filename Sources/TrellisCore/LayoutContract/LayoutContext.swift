/// What a layout sees of its collection view when it prepares: the data, the view's geometry as
/// it is on screen, where scrolling will come to rest, how fast it moves and the time.
public struct LayoutContext: Sendable {
    /// The data source's current state (shared copy-on-write, never copied by passing it).
    public var data: CollectionData
    /// The size of the visible area (the collection view's bounds size).
    public var boundsSize: Size
    /// The content offset on screen now (the bounds' origin in content coordinates): what
    /// UIScrollView's contentOffset reads while a scroll animates, decelerates or bounces, and
    /// what pinned headers, zooming and carousels lay out against.
    public var contentOffset: Point
    /// UIScrollView's contentInset: extra scrollable space around the content.
    public var contentInset: EdgeInsets
    /// The model content offset: where the offset rests once its motion ends (an animated
    /// scroll's target). Equal to `contentOffset` at rest.
    public var modelContentOffset: Point
    /// The on-screen offset's velocity, in points per second (zero at rest).
    public var velocity: Point
    /// The engine's time, in seconds.
    public var time: Double
    /// A finger drags the content (UIScrollView's isDragging).
    public var isDragging: Bool

    public init(data: CollectionData, boundsSize: Size, contentOffset: Point = .zero, contentInset: EdgeInsets = .zero,
                modelContentOffset: Point? = nil, velocity: Point = .zero, time: Double = 0, isDragging: Bool = false) {
        self.data = data
        self.boundsSize = boundsSize
        self.contentOffset = contentOffset
        self.contentInset = contentInset
        self.modelContentOffset = modelContentOffset ?? contentOffset
        self.velocity = velocity
        self.time = time
        self.isDragging = isDragging
    }

    /// The visible rectangle on screen, in content coordinates.
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
