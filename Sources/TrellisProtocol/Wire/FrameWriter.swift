import TrellisCore

/// Writes a `frame` notification's delta fields as `PublishedScene.advance` reports them, without
/// building a `SceneDelta`: each changed view is written from the view itself and the set of
/// fields that changed. One writer per session is reused frame after frame, so its buffers
/// keep their size and a frame allocates nothing.
public struct FrameWriter: SceneDeltaSink, Sendable {
    /// True when the frame would change nothing but the time.
    public private(set) var isEmpty = true
    private var time = 0.0
    private var contentOffset: Point?
    private var contentSize: Size?
    private var boundsSize: Size?
    private var orthogonalOffsets: [Int: Double]?
    private var created: [SceneDelta.CreatedView] = []
    /// `bound` and `changed` entries, comma-separated, written as the walk reports them.
    private var bound = ByteBuffer()
    private var changed = ByteBuffer()
    private var unbound: [ViewID] = []
    private var destroyed: [ViewID] = []

    public init() {}

    /// Starts a frame: forgets the last one, keeping the buffers' capacity.
    public mutating func begin(time: Double, contentOffset: Point?, contentSize: Size?, boundsSize: Size?) {
        self.time = time
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.boundsSize = boundsSize
        orthogonalOffsets = nil
        isEmpty = contentOffset == nil && contentSize == nil && boundsSize == nil
        created.removeAll(keepingCapacity: true)
        bound.clear()
        changed.clear()
        unbound.removeAll(keepingCapacity: true)
        destroyed.removeAll(keepingCapacity: true)
    }

    public mutating func orthogonal(_ offsets: [Int: Double]) {
        isEmpty = false
        orthogonalOffsets = offsets
    }

    public mutating func created(_ view: ViewID, reuseIdentifier: String) {
        isEmpty = false
        created.append(SceneDelta.CreatedView(view: view, reuseIdentifier: reuseIdentifier))
    }

    public mutating func bound(_ view: SceneView, order: Int) {
        isEmpty = false
        if !bound.isEmpty { bound.append(UInt8(ascii: ",")) }
        WireEncoding.writeSceneView(view, order: order, into: &bound)
    }

    public mutating func changed(_ fields: ChangedFields, of view: UnsafePointer<SceneView>, order: Int) {
        isEmpty = false
        WireEncoding.writeChanged(fields, of: view, order: order, separated: !changed.isEmpty, into: &changed)
    }

    public mutating func unbound(_ view: ViewID) {
        isEmpty = false
        unbound.append(view)
    }

    public mutating func destroyed(_ view: ViewID) {
        isEmpty = false
        destroyed.append(view)
    }

    /// The fields of the frame's params after `session` and `seq`: `time`, the scroll values
    /// that changed, `orthogonal` when it changed, then `created`, `bound`, `changed`, `unbound`, `destroyed` when not empty.
    public func write(_ o: inout JSONObjectWriter, into b: inout ByteBuffer) {
        o.field("time", WireEncoding.milliseconds(time), into: &b)
        if let p = contentOffset { o.key("contentOffset", into: &b); WireEncoding.writePoint(p, into: &b) }
        if let s = contentSize { o.key("contentSize", into: &b); WireEncoding.writeSize(s, into: &b) }
        if let s = boundsSize { o.key("bounds", into: &b); WireEncoding.writeSize(s, into: &b) }
        if let offsets = orthogonalOffsets { o.key("orthogonal", into: &b); WireEncoding.writeOrthogonalOffsets(offsets, into: &b) }
        if !created.isEmpty {
            o.key("created", into: &b)
            var a = JSONArrayWriter(into: &b)
            for c in created {
                a.element(into: &b)
                var co = JSONObjectWriter(into: &b)
                co.field("view", c.view.rawValue, into: &b)
                co.field("reuseId", c.reuseIdentifier, into: &b)
                co.end(into: &b)
            }
            a.end(into: &b)
        }
        // Local functions rather than loops over array literals: those allocated every frame.
        func entries(_ key: StaticString, _ written: ByteBuffer) {
            guard !written.isEmpty else { return }
            o.key(key, into: &b)
            b.append(UInt8(ascii: "["))
            b.append(written)
            b.append(UInt8(ascii: "]"))
        }
        func ids(_ key: StaticString, _ ids: [ViewID]) {
            guard !ids.isEmpty else { return }
            o.key(key, into: &b)
            var a = JSONArrayWriter(into: &b)
            for id in ids { a.element(into: &b); JSONWriter.writeInt(id.rawValue, into: &b) }
            a.end(into: &b)
        }
        entries("bound", bound)
        entries("changed", changed)
        ids("unbound", unbound)
        ids("destroyed", destroyed)
    }
}

extension PublishedScene {
    /// The server's per-frame diff, `publish(_:pooled:reporting:)` into a frame writer, spelled
    /// out so that this module compiles it for the writer (called generically from another
    /// module, every report went through a witness table).
    public mutating func publish(_ scene: Scene, pooled: Set<ViewID>, writing frame: inout FrameWriter) {
        publish(scene, pooled: pooled, reporting: &frame)
    }

    /// `publish(_: CollectionView, pooled:, reporting:)` into a frame writer (as above).
    public mutating func publish(_ engine: CollectionView, pooled: Set<ViewID>, writing frame: inout FrameWriter) {
        publish(engine, pooled: pooled, reporting: &frame)
    }
}
