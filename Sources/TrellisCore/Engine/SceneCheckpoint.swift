import TrellisGeometry

/// What a flight recorder's checkpoint pins of a scene: the time, the offset on screen, the
/// content size, the scroll's flags, the animator's state, how many views are on screen, and the
/// first and last cell in drawing order with their frames (`last` nil with fewer than two cells).
public struct SceneCheckpoint: Sendable {
    public var time: Double
    public var offset: Point
    public var contentSize: Size
    public var dragging: Bool
    public var decelerating: Bool
    public var bouncing: Bool
    public var tracking: Bool
    public var behaviors: Int
    public var dynamicsRunning: Bool
    public var visible: Int
    public var first: (path: IndexPath, frame: Rect)?
    public var last: (path: IndexPath, frame: Rect)?

    /// Reads `view` where it is kept (inout only for that: a session's engine read through its
    /// getters was copied, every field retained and released, for each of them). The cells are
    /// found in one pass, as `visitScene` would meet them, without sorting the views or reading
    /// their items: the sorted walk for two cells was a third of a recorded request's time.
    public init(reading view: inout CollectionView) {
        assert(!view.needsBinding, "a command ended without binding (bindIfNeeded)")
        time = view.time
        offset = view.presentationContentOffset
        contentSize = view.scroll.contentSize
        let scroll = view.scrollDeceleration
        dragging = scroll.dragging
        decelerating = scroll.decelerating
        bouncing = scroll.bouncing
        tracking = scroll.tracking
        behaviors = view.dynamicBehaviorCount
        dynamicsRunning = view.dynamicsRunning
        var ends = DrawingEnds()
        for index in view.bound.indices {
            ends.consider(DrawingKey(zIndex: view.bound[row: index].attributes.zIndex, order: view.bound[row: index].order,
                                     view: view.bound[row: index].view, source: index),
                          view.bound.keys[index], view.bound[row: index].attributes.frame)
        }
        let rows = view.bound.count
        for index in view.disappearing.indices {
            ends.consider(DrawingKey(zIndex: view.disappearing[index].attributes.zIndex, order: view.disappearing[index].order,
                                     view: view.disappearing[index].view, source: rows + index),
                          view.disappearing[index].element, view.disappearing[index].attributes.frame)
        }
        visible = rows + view.disappearing.count
        first = ends.first.map { ($0.path, $0.frame) }
        last = ends.cells >= 2 ? ends.last.map { ($0.path, $0.frame) } : nil
    }
}

/// The least and the greatest cell in drawing order met so far.
private struct DrawingEnds {
    var first: (key: DrawingKey, path: IndexPath, frame: Rect)?
    var last: (key: DrawingKey, path: IndexPath, frame: Rect)?
    var cells = 0

    // Keys as visitScene builds them; they differ in `view`, so the order is strict.
    mutating func consider(_ key: DrawingKey, _ element: ElementID, _ frame: Rect) {
        guard element.isCell else { return }
        cells += 1
        if let f = first, !DrawingKey.inDrawingOrder(key, f.key) {
            if last == nil || DrawingKey.inDrawingOrder(last!.key, key) { last = (key, element.indexPath, frame) }
        } else {
            if last == nil, let f = first { last = f }
            first = (key, element.indexPath, frame)
        }
    }
}
