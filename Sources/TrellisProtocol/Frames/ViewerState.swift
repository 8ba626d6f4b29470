import TrellisCore

/// What a viewer holds: every view it knows (bound or pooled) and the scroll geometry. The
/// server keeps one per viewer (what it last sent) to compute deltas against.
public struct ViewerState: Hashable, Sendable {
    /// One view the viewer knows: its reuse identifier, what it shows (nil while pooled) and
    /// its position in drawing order.
    public struct KnownView: Hashable, Sendable {
        public var reuseIdentifier: String
        public var order: Int
        /// The last view shown, kept (stale) while pooled. Stored without an Optional around it
        /// so that the frame diff can read and write its fields in place: unwrapping copied the
        /// whole view, for every view of every frame.
        @usableFromInline var view: SceneView
        @usableFromInline var isShown: Bool

        public init(reuseIdentifier: String, shown: SceneView? = nil, order: Int = 0) {
            self.reuseIdentifier = reuseIdentifier
            self.order = order
            isShown = shown != nil
            view = shown ?? SceneView(view: ViewID(0), reuseIdentifier: reuseIdentifier, element: .cell(0, 0), itemID: nil,
                                      attributes: LayoutAttributes(element: .cell(0, 0), frame: .zero), data: nil)
        }

        /// What it shows; nil while it waits in its pool.
        public var shown: SceneView? {
            get { isShown ? view : nil }
            set {
                isShown = newValue != nil
                if let newValue { view = newValue }
            }
        }

        public static func == (a: KnownView, b: KnownView) -> Bool {
            a.reuseIdentifier == b.reuseIdentifier && a.order == b.order && a.shown == b.shown
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(reuseIdentifier)
            hasher.combine(order)
            hasher.combine(shown)
        }

        /// The changed fields of a shown view.
        mutating func apply(_ change: SceneDelta.ChangedView) {
            guard isShown else { return }
            if let f = change.frame { view.attributes.frame = f }
            if let a = change.alpha { view.attributes.alpha = a }
            if let z = change.zIndex { view.attributes.zIndex = z }
            if let h = change.isHidden { view.attributes.isHidden = h }
            if let t = change.transform { view.attributes.transform = t }
            if let e = change.element { view.element = e; view.attributes.element = e }
            if let i = change.itemID { view.itemID = i }
            if let d = change.data { view.data = d }
            if let o = change.order { order = o }
        }

        /// Takes `fields` from `new`, the view it shows now; only those are written.
        @inlinable
        mutating func update(_ fields: ChangedFields, to new: UnsafePointer<SceneView>, order: Int) {
            if fields.contains(.frame) { view.attributes.frame = new.pointee.attributes.frame }
            if fields.contains(.alpha) { view.attributes.alpha = new.pointee.attributes.alpha }
            if fields.contains(.zIndex) { view.attributes.zIndex = new.pointee.attributes.zIndex }
            if fields.contains(.hidden) { view.attributes.isHidden = new.pointee.attributes.isHidden }
            if fields.contains(.transform) { view.attributes.transform = new.pointee.attributes.transform }
            if fields.contains(.element) { view.element = new.pointee.element; view.attributes.element = new.pointee.element }
            if fields.contains(.itemID) { view.itemID = new.pointee.itemID }
            if fields.contains(.data) { view.data = new.pointee.data }
            if fields.contains(.order) { self.order = order }
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
        var ignored = SceneDelta(time: scene.time)
        advance(to: scene, pooled: [], reporting: &ignored)
    }

    /// Brings this state to `scene` and reports to `sink` what changed on the way: the one diff
    /// the server computes per frame (shared by every caught-up viewer) and per catch-up.
    /// `pooled` are the ids the engine keeps in its reuse pools: a view that leaves the scene is
    /// unbound when pooled, destroyed otherwise.
    ///
    /// Each known view is found once and compared and updated in place, field by field: a
    /// KnownView holds a whole SceneView, and copies of it were most of a frame's cost.
    public mutating func advance<Sink: SceneDeltaSink>(to scene: Scene, pooled: Set<ViewID>, reporting sink: inout Sink) {
        sink.begin(time: scene.time,
                   contentOffset: contentOffset != scene.contentOffset ? scene.contentOffset : nil,
                   contentSize: contentSize != scene.contentSize ? scene.contentSize : nil,
                   boundsSize: boundsSize != scene.boundsSize ? scene.boundsSize : nil)
        time = scene.time
        contentOffset = scene.contentOffset
        contentSize = scene.contentSize
        boundsSize = scene.boundsSize
        let knownBefore = views.count
        var stillThere = 0
        scene.views.withUnsafeBufferPointer { newViews in
            // Pointers, not subscripts: an array's or a dictionary's getter copies the whole
            // element; these read and write fields where they are.
            for order in newViews.indices {
                let new = newViews.baseAddress! + order
                let id = new.pointee.view
                guard let index = views.index(forKey: id) else {
                    sink.created(id, reuseIdentifier: new.pointee.reuseIdentifier)
                    sink.bound(new.pointee, order: order)
                    views[id] = KnownView(reuseIdentifier: new.pointee.reuseIdentifier, shown: new.pointee, order: order)
                    continue
                }
                stillThere += 1
                withUnsafeMutablePointer(to: &views.values[index]) { known in
                    guard known.pointee.isShown else {
                        sink.bound(new.pointee, order: order)
                        known.pointee.view = new.pointee
                        known.pointee.isShown = true
                        known.pointee.order = order
                        return
                    }
                    let fields = withUnsafePointer(to: &known.pointee.view) {
                        ChangedFields(from: $0, order: known.pointee.order, to: new, order: order)
                    }
                    guard !fields.isEmpty else { return }
                    sink.changed(fields, of: new.pointee, order: order)
                    known.pointee.update(fields, to: new, order: order)
                }
            }
        }
        // Views left the scene only when some known ones were not in it (most frames: none).
        guard stillThere < knownBefore else { return }
        let present = Set(scene.views.lazy.map(\.view))
        var unbound: [ViewID] = [], destroyed: [ViewID] = []
        for (id, known) in views where !present.contains(id) {
            if !pooled.contains(id) {
                destroyed.append(id)
            } else if known.shown != nil {
                unbound.append(id)
            }
        }
        for id in unbound.sorted() {
            views[id]!.shown = nil
            sink.unbound(id)
        }
        for id in destroyed.sorted() {
            views[id] = nil
            sink.destroyed(id)
        }
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
