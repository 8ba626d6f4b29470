/// One view on screen: its stable id, reuse identifier, the element it shows, and its current
/// (presentation) attributes and payload.
public struct SceneView: Hashable, Sendable {
    public var view: ViewID
    public var reuseIdentifier: String
    public var element: ElementID
    /// The item shown, for cells.
    public var itemID: ItemID?
    public var attributes: LayoutAttributes
    /// The item's payload, for cells.
    public var data: ItemPayload?

    public init(view: ViewID, reuseIdentifier: String, element: ElementID, itemID: ItemID?,
                attributes: LayoutAttributes, data: ItemPayload?) {
        self.view = view; self.reuseIdentifier = reuseIdentifier; self.element = element
        self.itemID = itemID; self.attributes = attributes; self.data = data
    }

    @inlinable public var indexPath: IndexPath { element.indexPath }
}

/// What a collection view shows at one instant: the bound views sorted for drawing (z-index,
/// then the layout's order), back to front, plus the scroll geometry.
public struct Scene: Hashable, Sendable {
    public var time: Double
    public var contentOffset: Point
    public var contentSize: Size
    public var boundsSize: Size
    public var views: [SceneView]
    /// Orthogonal sections scrolled across, by section index: their offsets on screen.
    public var orthogonalOffsets: [Int: Double]

    public init(time: Double, contentOffset: Point, contentSize: Size, boundsSize: Size, views: [SceneView],
                orthogonalOffsets: [Int: Double] = [:]) {
        self.time = time; self.contentOffset = contentOffset; self.contentSize = contentSize
        self.boundsSize = boundsSize; self.views = views; self.orthogonalOffsets = orthogonalOffsets
    }

    /// The view showing `element`, if bound.
    public func view(for element: ElementID) -> SceneView? { views.first { $0.element == element } }
}
