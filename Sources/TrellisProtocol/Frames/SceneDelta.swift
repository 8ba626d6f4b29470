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
        contentOffset == nil && contentSize == nil && boundsSize == nil && created.isEmpty && bound.isEmpty
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
        public var data: JSONValue??
        /// The position in drawing order changed.
        public var order: Int?
        public init(view: ViewID) { self.view = view }

        /// The fields that differ between what a view showed and what it shows now; nil when
        /// nothing does.
        init?(from shown: SceneView, order oldOrder: Int, to view: SceneView, order: Int) {
            self.view = view.view
            let a = shown.attributes, b = view.attributes
            var any = false
            if a.frame != b.frame { frame = b.frame; any = true }
            if a.alpha != b.alpha { alpha = b.alpha; any = true }
            if a.zIndex != b.zIndex { zIndex = b.zIndex; any = true }
            if a.isHidden != b.isHidden { isHidden = b.isHidden; any = true }
            if a.transform != b.transform { transform = b.transform; any = true }
            // A new element always carries its item id, so the pair travels together on the wire.
            if shown.element != view.element { element = view.element; itemID = .some(view.itemID); any = true }
            if shown.itemID != view.itemID { itemID = .some(view.itemID); any = true }
            if shown.data != view.data { data = .some(view.data); any = true }
            if oldOrder != order { self.order = order; any = true }
            if !any { return nil }
        }
    }

    /// The delta that turns `old` into `new`. `pooled` are the ids the engine keeps in its reuse
    /// pools: a view that leaves the scene is unbound when pooled, destroyed otherwise.
    public static func between(_ old: ViewerState, _ new: Scene, pooled: Set<ViewID>) -> SceneDelta {
        var delta = SceneDelta(time: new.time)
        if old.contentOffset != new.contentOffset { delta.contentOffset = new.contentOffset }
        if old.contentSize != new.contentSize { delta.contentSize = new.contentSize }
        if old.boundsSize != new.boundsSize { delta.boundsSize = new.boundsSize }
        var present = Set<ViewID>()
        present.reserveCapacity(new.views.count)
        for (order, view) in new.views.enumerated() {
            present.insert(view.view)
            guard let before = old.views[view.view] else {
                delta.created.append(CreatedView(view: view.view, reuseIdentifier: view.reuseIdentifier))
                delta.bound.append(BoundView(view: view, order: order))
                continue
            }
            guard let shown = before.shown else {
                delta.bound.append(BoundView(view: view, order: order))
                continue
            }
            if let change = ChangedView(from: shown, order: before.order, to: view, order: order) { delta.changed.append(change) }
        }
        for (id, before) in old.views where !present.contains(id) {
            if pooled.contains(id) {
                if before.shown != nil { delta.unbound.append(id) }
            } else {
                delta.destroyed.append(id)
            }
        }
        delta.unbound.sort()
        delta.destroyed.sort()
        return delta
    }
}

/// What a viewer holds: every view it knows (bound or pooled) and the scroll geometry. The
/// server keeps one per viewer (what it last sent) to compute deltas against.
public struct ViewerState: Hashable, Sendable {
    /// One view the viewer knows: its reuse identifier, what it shows (nil while pooled) and
    /// its position in drawing order.
    public struct KnownView: Hashable, Sendable {
        public var reuseIdentifier: String
        public var shown: SceneView?
        public var order: Int
        public init(reuseIdentifier: String, shown: SceneView? = nil, order: Int = 0) {
            self.reuseIdentifier = reuseIdentifier; self.shown = shown; self.order = order
        }

        /// The changed fields of a shown view.
        mutating func apply(_ change: SceneDelta.ChangedView) {
            if let f = change.frame { shown!.attributes.frame = f }
            if let a = change.alpha { shown!.attributes.alpha = a }
            if let z = change.zIndex { shown!.attributes.zIndex = z }
            if let h = change.isHidden { shown!.attributes.isHidden = h }
            if let t = change.transform { shown!.attributes.transform = t }
            if let e = change.element { shown!.element = e; shown!.attributes.element = e }
            if let i = change.itemID { shown!.itemID = i }
            if let d = change.data { shown!.data = d }
            if let o = change.order { order = o }
        }
    }

    public var time: Double = 0
    public var contentOffset = Point.zero
    public var contentSize = Size.zero
    public var boundsSize = Size.zero
    public var views: [ViewID: KnownView] = [:]

    public init() {}

    /// The state a keyframe of `scene` gives: every bound view.
    public init(keyframe scene: Scene) {
        self.init()
        apply(SceneDelta.between(ViewerState(), scene, pooled: []))
    }

    /// Applies one delta, as a viewer does.
    public mutating func apply(_ delta: SceneDelta) {
        time = delta.time
        if let o = delta.contentOffset { contentOffset = o }
        if let s = delta.contentSize { contentSize = s }
        if let b = delta.boundsSize { boundsSize = b }
        for id in delta.destroyed { views[id] = nil }
        for id in delta.unbound { views[id]?.shown = nil }
        for c in delta.created { views[c.view] = KnownView(reuseIdentifier: c.reuseIdentifier) }
        for change in delta.changed {
            // In place: one lookup, no copy of the view (this runs for every view of every frame).
            guard let index = views.index(forKey: change.view), views.values[index].shown != nil else { continue }
            views.values[index].apply(change)
        }
        for b in delta.bound {
            views[b.view.view] = KnownView(reuseIdentifier: b.view.reuseIdentifier, shown: b.view, order: b.order)
        }
    }

    /// The scene this state shows: bound views in drawing order.
    public var scene: Scene {
        let shown = views.values.filter { $0.shown != nil }.sorted { $0.order < $1.order }
        return Scene(time: time, contentOffset: contentOffset, contentSize: contentSize, boundsSize: boundsSize,
                     views: shown.map { $0.shown! })
    }
}
