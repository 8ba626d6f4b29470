import TrellisCore

/// Receives what `PublishedScene.publish(pooled:reporting:)` finds, in the order a frame lists
/// it: the scroll geometry first (the orthogonal sections' offsets with it), then created, bound and changed views in drawing order, then
/// unbound and destroyed ids in ascending order. `SceneDelta` collects it as values;
/// `FrameWriter` writes it as a frame's JSON without building one.
public protocol SceneDeltaSink {
    /// The scene's time, and each scroll value that changed (nil: unchanged).
    mutating func begin(time: Double, contentOffset: Point?, contentSize: Size?, boundsSize: Size?)
    /// Right after `begin`, only when the scrolled orthogonal sections' offsets changed: all of
    /// them by section index (empty when none is scrolled any more).
    mutating func orthogonal(_ offsets: [Int: Double])
    /// A view id the viewer has not seen; `bound` follows for it.
    mutating func created(_ view: ViewID, reuseIdentifier: String)
    /// A view that now shows an element it did not show before.
    mutating func bound(_ view: SceneView, order: Int)
    /// A view that still shows an element, with `fields` changed; their new values are `view`'s.
    /// A pointer into the scene, valid during the call: passed as a value, every changed view
    /// of every frame was copied (and destroyed) on the way, a tenth of the frame's work.
    mutating func changed(_ fields: ChangedFields, of view: UnsafePointer<SceneView>, order: Int)
    /// A view that left the screen and waits in its pool.
    mutating func unbound(_ view: ViewID)
    /// A view that no longer exists.
    mutating func destroyed(_ view: ViewID)
}
