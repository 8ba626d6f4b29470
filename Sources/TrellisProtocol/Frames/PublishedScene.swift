import TrellisCore

/// What every caught-up viewer holds, as the server keeps it: the last scene published (its
/// views in drawing order) and the views that wait in their pools. The next frame is the
/// difference between it and the scene now (`publish`), and a viewer that falls behind keeps a
/// copy of it (copy-on-write: the views array is shared, not copied).
public struct PublishedScene: Sendable {
    public private(set) var time = 0.0
    public private(set) var contentOffset = Point.zero
    public private(set) var contentSize = Size.zero
    public private(set) var boundsSize = Size.zero
    /// The scrolled orthogonal sections' offsets by section index (the views' frames already
    /// include them; a viewer keeps them to know where each band stands).
    public private(set) var orthogonalOffsets: [Int: Double] = [:]
    /// The views shown, in drawing order: the last published scene's.
    public private(set) var views: [SceneView] = []
    /// The views viewers know that wait in a pool, with their reuse identifiers.
    public private(set) var pooled: [ViewID: String] = [:]

    public init() {}

    /// What a viewer holds after the keyframe of `scene`.
    public init(keyframe scene: Scene) {
        adopt(scene)
    }

    /// What a viewer holding `state` holds.
    public init(_ state: ViewerState) {
        adopt(state.scene)
        for (id, known) in state.views where known.shown == nil { pooled[id] = known.reuseIdentifier }
    }

    /// The scene viewers hold (the keyframe a new viewer gets).
    public var scene: Scene {
        Scene(time: time, contentOffset: contentOffset, contentSize: contentSize, boundsSize: boundsSize, views: views,
              orthogonalOffsets: orthogonalOffsets)
    }

    private mutating func adopt(_ scene: Scene) {
        time = scene.time
        contentOffset = scene.contentOffset
        contentSize = scene.contentSize
        boundsSize = scene.boundsSize
        orthogonalOffsets = scene.orthogonalOffsets
        views = scene.views
    }

    /// Moves to `scene` and reports to `sink` what changed on the way: the one diff behind every
    /// frame (shared by the caught-up viewers) and every catch-up, and behind
    /// `SceneDelta.between`. `enginePooled` are the ids the engine keeps in its reuse pools: a
    /// view that leaves the scene is unbound when pooled, destroyed otherwise.
    public mutating func publish<Sink: SceneDeltaSink>(_ scene: Scene, pooled enginePooled: Set<ViewID>,
                                                        reporting sink: inout Sink) {
        begin(time: scene.time, contentOffset: scene.contentOffset, contentSize: scene.contentSize,
              boundsSize: scene.boundsSize, orthogonalOffsets: scene.orthogonalOffsets, reporting: &sink)
        walk(to: scene, pooled: enginePooled, reporting: &sink)
    }

    /// `publish(engine.scene, …)` without building the scene: the engine's views are
    /// compared where it keeps them and the ones that changed are updated in place here. Only
    /// while every view keeps its place in drawing order (nearly every frame); at the first
    /// that does not, the rest goes the way of `publish(Scene)`, the views before it
    /// already up to date (they report nothing twice).
    public mutating func publish<Sink: SceneDeltaSink>(_ engine: CollectionView, pooled enginePooled: Set<ViewID>,
                                                        reporting sink: inout Sink) {
        begin(time: engine.time, contentOffset: engine.presentationContentOffset, contentSize: engine.scroll.contentSize,
              boundsSize: engine.scroll.boundsSize, orthogonalOffsets: engine.shownOrthogonalOffsets, reporting: &sink)
        let matched = views.withUnsafeMutableBufferPointer { shown in
            withUnsafeMutablePointer(to: &sink) { sink in
                var update = InPlaceUpdate(shown: shown, sink: sink)
                engine.visitScene(&update)
                return update.matched
            }
        }
        guard matched == engine.boundViewCount else {
            return walk(to: engine.scene, pooled: enginePooled, reporting: &sink)
        }
        if matched < views.count {
            report(leaving: views[matched...], pooled: enginePooled, reporting: &sink)
            views.removeSubrange(matched...)
        } else {
            report(leaving: [], pooled: enginePooled, reporting: &sink)
        }
    }

    /// Reports the time and the scroll values that changed (the orthogonal offsets as a whole),
    /// and takes them on.
    private mutating func begin<Sink: SceneDeltaSink>(time: Double, contentOffset: Point, contentSize: Size,
                                                       boundsSize: Size, orthogonalOffsets: [Int: Double],
                                                       reporting sink: inout Sink) {
        sink.begin(time: time,
                   contentOffset: self.contentOffset != contentOffset ? contentOffset : nil,
                   contentSize: self.contentSize != contentSize ? contentSize : nil,
                   boundsSize: self.boundsSize != boundsSize ? boundsSize : nil)
        self.time = time
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.boundsSize = boundsSize
        if self.orthogonalOffsets != orthogonalOffsets {
            sink.orthogonal(orthogonalOffsets)
            self.orthogonalOffsets = orthogonalOffsets
        }
    }

    /// The views of `publish(Scene)`.
    ///
    /// Drawing order rarely changes between frames, so each view is first looked for at its own
    /// position in the last scene, and the two arrays are walked side by side; ids are indexed
    /// only when that fails. Afterwards the state is the new scene's array itself: nothing is
    /// copied or updated per view.
    private mutating func walk<Sink: SceneDeltaSink>(to scene: Scene, pooled enginePooled: Set<ViewID>,
                                                      reporting sink: inout Sink) {
        var found = 0
        var positions: [ViewID: Int]?
        // Pointers, not subscripts: an array's getter copies the whole view.
        views.withUnsafeBufferPointer { old in
            scene.views.withUnsafeBufferPointer { new in
                for order in new.indices {
                    let view = new.baseAddress! + order
                    let id = view.pointee.view
                    var position: Int?
                    if order < old.count && old[order].view == id {
                        position = order
                    } else {
                        if positions == nil { positions = Dictionary(uniqueKeysWithValues: old.indices.map { (old[$0].view, $0) }) }
                        position = positions![id]
                    }
                    guard let position else {
                        if pooled.removeValue(forKey: id) == nil {
                            sink.created(id, reuseIdentifier: view.pointee.reuseIdentifier)
                        }
                        sink.bound(view.pointee, order: order)
                        continue
                    }
                    found += 1
                    let fields = ChangedFields(from: old.baseAddress! + position, order: position, to: view, order: order)
                    if !fields.isEmpty { sink.changed(fields, of: view, order: order) }
                }
            }
        }
        if found < views.count {
            let present = Set(scene.views.lazy.map(\.view))
            report(leaving: views.lazy.filter { !present.contains($0.view) }, pooled: enginePooled, reporting: &sink)
        } else {
            report(leaving: [], pooled: enginePooled, reporting: &sink)
        }
        views = scene.views
    }

    /// Views that left the scene (most frames: none), and pooled views the engine let go.
    private mutating func report<Sink: SceneDeltaSink, Leaving: Sequence<SceneView>>(
        leaving: Leaving, pooled enginePooled: Set<ViewID>, reporting sink: inout Sink
    ) {
        var unbound: [ViewID] = [], destroyed: [ViewID] = []
        for view in leaving {
            if enginePooled.contains(view.view) {
                unbound.append(view.view)
                pooled[view.view] = view.reuseIdentifier
            } else {
                destroyed.append(view.view)
            }
        }
        for id in pooled.keys where !enginePooled.contains(id) {
            destroyed.append(id)
        }
        for id in destroyed { pooled[id] = nil }
        for id in unbound.sorted() { sink.unbound(id) }
        for id in destroyed.sorted() { sink.destroyed(id) }
    }
}

/// The in-place half of `PublishedScene.publish(CollectionView, …)`: each view the engine
/// hands over is compared with the one shown at the same position and, where they differ,
/// reported and updated; it stops at the first view not at its old position.
private struct InPlaceUpdate<Sink: SceneDeltaSink>: SceneVisitor {
    let shown: UnsafeMutableBufferPointer<SceneView>
    let sink: UnsafeMutablePointer<Sink>
    /// Views found at their own position (all before the one that stopped the walk).
    var matched = 0

    mutating func visit(_ view: ViewID, reuseIdentifier: String, element: ElementID, itemID: ItemID?,
                        data: ItemPayload?, attributes: UnsafePointer<LayoutAttributes>, order: Int) -> Bool {
        // A view keeps its reuse identifier for life; should one not, the scene's walk takes over.
        guard order < shown.count, shown[order].view == view, shown[order].reuseIdentifier == reuseIdentifier else { return false }
        let old = shown.baseAddress! + order
        let fields = ChangedFields(from: UnsafePointer(old), to: attributes, element: element, itemID: itemID, data: data)
        // The attributes name their element too, which no frame carries (the view's own
        // element does) and which can change on its own: the state takes it all the same, as
        // the scene's walk would.
        if !fields.isDisjoint(with: ChangedFields.attributes) || old.pointee.attributes.element != attributes.pointee.element {
            old.pointee.attributes = attributes.pointee
        }
        if !fields.isEmpty {
            if fields.contains(.element) { old.pointee.element = element }
            if fields.contains(.itemID) { old.pointee.itemID = itemID }
            if fields.contains(.data) { old.pointee.data = data }
            sink.pointee.changed(fields, of: UnsafePointer(old), order: order)
        }
        matched += 1
        return true
    }
}
