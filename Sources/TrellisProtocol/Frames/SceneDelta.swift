import TrellisCore

/// What changed between two frames as a viewer sees it: views created, views bound to an
/// element (full attributes), views whose attributes changed (only the changed fields), views
/// unbound (back in the pool) and views destroyed. A viewer that applies a keyframe and then
/// every delta holds exactly the server's scene (see `SceneMirror`).
public struct SceneDelta: Hashable, Sendable {
    public var time: Double
    public var contentOffset: Point?
    public var contentSize: Size?
    public var boundsSize: Size?
    /// Every scrolled orthogonal section's offset by section index, when any changed.
    public var orthogonalOffsets: [Int: Double]?
    /// New view ids with their reuse identifier.
    public var created: [CreatedView] = []
    /// Views now showing an element they did not show before, with their drawing position.
    public var bound: [BoundView] = []
    /// Views showing the same element with some fields changed.
    public var changed: [ChangedView] = []
    /// Views that left the screen and wait in their pool.
    public var unbound: [ViewID] = []
    /// Views that no longer exist.
    public var destroyed: [ViewID] = []

    public init(time: Double) { self.time = time }

    /// True when applying it would change nothing but the time.
    public var isEmpty: Bool {
        contentOffset == nil && contentSize == nil && boundsSize == nil && orthogonalOffsets == nil && created.isEmpty && bound.isEmpty
            && changed.isEmpty && unbound.isEmpty && destroyed.isEmpty
    }

    /// A view bound to an element: everything about it, and its position in drawing order.
    public struct BoundView: Hashable, Sendable {
        public var view: SceneView
        public var order: Int
        public init(view: SceneView, order: Int) { self.view = view; self.order = order }
    }

    /// A view id that came into existence.
    public struct CreatedView: Hashable, Sendable {
        public var view: ViewID
        public var reuseIdentifier: String
        public init(view: ViewID, reuseIdentifier: String) { self.view = view; self.reuseIdentifier = reuseIdentifier }
    }

    /// The fields of one view that changed; nil means unchanged.
    public struct ChangedView: Hashable, Sendable {
        public var view: ViewID
        public var frame: Rect?
        public var alpha: Double?
        public var zIndex: Int?
        public var isHidden: Bool?
        public var transform: Transform3D?
        /// The element moved to another index path (the same item after a batch update).
        public var element: ElementID?
        public var itemID: ItemID??
        public var data: ItemPayload??
        /// The position in drawing order changed.
        public var order: Int?
        public init(view: ViewID) { self.view = view }

        /// The new values of `fields`, taken from the view that shows them now.
        public init(_ fields: ChangedFields, of view: SceneView, order: Int) {
            self.view = view.view
            if fields.contains(.frame) { frame = view.attributes.frame }
            if fields.contains(.alpha) { alpha = view.attributes.alpha }
            if fields.contains(.zIndex) { zIndex = view.attributes.zIndex }
            if fields.contains(.hidden) { isHidden = view.attributes.isHidden }
            if fields.contains(.transform) { transform = view.attributes.transform }
            if fields.contains(.element) { element = view.element }
            if fields.contains(.itemID) { itemID = .some(view.itemID) }
            if fields.contains(.data) { data = .some(view.data) }
            if fields.contains(.order) { self.order = order }
        }
    }

    /// The delta that turns `old` into `new`. `pooled` are the ids the engine keeps in its reuse
    /// pools: a view that leaves the scene is unbound when pooled, destroyed otherwise.
    public static func between(_ old: ViewerState, _ new: Scene, pooled: Set<ViewID>) -> SceneDelta {
        var state = PublishedScene(old)
        var delta = SceneDelta(time: new.time)
        state.publish(new, pooled: pooled, reporting: &delta)
        return delta
    }
}

extension SceneDelta: SceneDeltaSink {
    public mutating func begin(time: Double, contentOffset: Point?, contentSize: Size?, boundsSize: Size?) {
        self.time = time
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.boundsSize = boundsSize
        self.orthogonalOffsets = nil
    }

    public mutating func orthogonal(_ offsets: [Int: Double]) { orthogonalOffsets = offsets }

    public mutating func created(_ view: ViewID, reuseIdentifier: String) {
        created.append(CreatedView(view: view, reuseIdentifier: reuseIdentifier))
    }

    public mutating func bound(_ view: SceneView, order: Int) { bound.append(BoundView(view: view, order: order)) }

    public mutating func changed(_ fields: ChangedFields, of view: UnsafePointer<SceneView>, order: Int) {
        changed.append(ChangedView(fields, of: view.pointee, order: order))
    }

    public mutating func unbound(_ view: ViewID) { unbound.append(view) }
    public mutating func destroyed(_ view: ViewID) { destroyed.append(view) }
}
