/// Receives the views on screen one at a time, back to front, read where the engine keeps
/// them (`CollectionView.visitScene`): a frame's diff walks the scene this way instead of
/// building a `Scene` of copies and destroying the last one. The arguments (the attributes
/// pointer too) are valid during the call only.
public protocol SceneVisitor {
    /// The view at `order` in drawing order; returning false stops the walk.
    mutating func visit(_ view: ViewID, reuseIdentifier: String, element: ElementID, itemID: ItemID?,
                        data: ItemPayload?, attributes: UnsafePointer<LayoutAttributes>, order: Int) -> Bool
}

/// Builds the `Scene` value from the walk.
struct SceneBuilder: SceneVisitor {
    var views: [SceneView] = []

    init(capacity: Int) { views.reserveCapacity(capacity) }

    mutating func visit(_ view: ViewID, reuseIdentifier: String, element: ElementID, itemID: ItemID?,
                        data: ItemPayload?, attributes: UnsafePointer<LayoutAttributes>, order: Int) -> Bool {
        views.append(SceneView(view: view, reuseIdentifier: reuseIdentifier, element: element, itemID: itemID,
                               attributes: attributes.pointee, data: data))
        return true
    }
}
