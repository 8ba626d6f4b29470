import TrellisCore

/// What a viewer holds: every view it knows (bound or pooled) and the scroll geometry, kept up
/// to date by applying frames (`ViewerMirror`, `trellis record`, tests). The server keeps what
/// viewers hold as a `PublishedScene`.
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
    /// The scrolled orthogonal sections' offsets by section index.
    public var orthogonalOffsets: [Int: Double] = [:]
    public var views: [ViewID: KnownView] = [:]

    public init() {}

    /// The state a keyframe of `scene` gives: every bound view.
    public init(keyframe scene: Scene) {
        self.init()
        time = scene.time
        contentOffset = scene.contentOffset
        contentSize = scene.contentSize
        boundsSize = scene.boundsSize
        orthogonalOffsets = scene.orthogonalOffsets
        for (order, view) in scene.views.enumerated() {
            views[view.view] = KnownView(reuseIdentifier: view.reuseIdentifier, shown: view, order: order)
        }
    }

    /// Applies one delta, as a viewer does.
    public mutating func apply(_ delta: SceneDelta) {
        time = delta.time
        if let o = delta.contentOffset { contentOffset = o }
        if let s = delta.contentSize { contentSize = s }
        if let b = delta.boundsSize { boundsSize = b }
        if let o = delta.orthogonalOffsets { orthogonalOffsets = o }
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
                     views: shown.map { $0.shown! }, orthogonalOffsets: orthogonalOffsets)
    }
}
