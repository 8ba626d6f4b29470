import TrellisCore

/// What every caught-up viewer holds, as the server keeps it: the last scene published (its
/// views in drawing order) and the views that wait in their pools. The next frame is the
/// difference between it and the scene now (`advance`), and a viewer that falls behind keeps a
/// copy of it (copy-on-write: the views array is shared, not copied).
public struct PublishedScene: Sendable {
    public private(set) var time = 0.0
    public private(set) var contentOffset = Point.zero
    public private(set) var contentSize = Size.zero
    public private(set) var boundsSize = Size.zero
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
        Scene(time: time, contentOffset: contentOffset, contentSize: contentSize, boundsSize: boundsSize, views: views)
    }

    private mutating func adopt(_ scene: Scene) {
        time = scene.time
        contentOffset = scene.contentOffset
        contentSize = scene.contentSize
        boundsSize = scene.boundsSize
        views = scene.views
    }

    /// Moves to `scene` and reports to `sink` what changed on the way: the one diff behind every
    /// frame (shared by the caught-up viewers) and every catch-up, and behind
    /// `SceneDelta.between`. `enginePooled` are the ids the engine keeps in its reuse pools: a
    /// view that leaves the scene is unbound when pooled, destroyed otherwise.
    ///
    /// Drawing order rarely changes between frames, so each view is first looked for at its own
    /// position in the last scene, and the two arrays are walked side by side; ids are indexed
    /// only when that fails. Afterwards the state is the new scene's array itself: nothing is
    /// copied or updated per view.
    public mutating func advance<Sink: SceneDeltaSink>(to scene: Scene, pooled enginePooled: Set<ViewID>,
                                                        reporting sink: inout Sink) {
        sink.begin(time: scene.time,
                   contentOffset: contentOffset != scene.contentOffset ? scene.contentOffset : nil,
                   contentSize: contentSize != scene.contentSize ? scene.contentSize : nil,
                   boundsSize: boundsSize != scene.boundsSize ? scene.boundsSize : nil)
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
        // Views that left the scene (most frames: none), and pooled views the engine let go.
        var unbound: [ViewID] = [], destroyed: [ViewID] = []
        if found < views.count {
            let present = Set(scene.views.lazy.map(\.view))
            for view in views where !present.contains(view.view) {
                if enginePooled.contains(view.view) {
                    unbound.append(view.view)
                    pooled[view.view] = view.reuseIdentifier
                } else {
                    destroyed.append(view.view)
                }
            }
        }
        for id in pooled.keys where !enginePooled.contains(id) {
            destroyed.append(id)
        }
        for id in destroyed { pooled[id] = nil }
        for id in unbound.sorted() { sink.unbound(id) }
        for id in destroyed.sorted() { sink.destroyed(id) }
        adopt(scene)
    }
}
