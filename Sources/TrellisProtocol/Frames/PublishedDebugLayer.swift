import TrellisDynamics

/// The debug layer every caught-up debug viewer holds, as the server keeps it: the last shapes
/// published, sorted by id. The next frame's `debug` member is the difference between it and
/// the shapes now, found by walking both in id order (no hashing).
public struct PublishedDebugLayer: Sendable {
    public private(set) var shapes: [DebugShape] = []

    public init() {}

    /// What a viewer holds after a keyframe of `shapes` (sorted by id).
    public init(keyframe shapes: [DebugShape]) { self.shapes = shapes }

    /// Moves to `new` (sorted by id) and reports what changed to `sink`. `new` is handed back
    /// holding the old shapes, so the caller's buffer keeps its capacity frame after frame.
    public mutating func publish<Sink: DebugLayerSink>(_ new: inout [DebugShape], reporting sink: inout Sink) {
        sink.beginDebug()
        shapes.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { now in
                var i = 0, j = 0
                while i < old.count || j < now.count {
                    if j == now.count || (i < old.count && old[i].id < now[j].id) {
                        sink.removed(old[i].id)
                        i += 1
                    } else if i == old.count || now[j].id < old[i].id {
                        sink.shape(now.baseAddress! + j)
                        j += 1
                    } else {
                        if old[i] != now[j] { sink.shape(now.baseAddress! + j) }
                        i += 1
                        j += 1
                    }
                }
            }
        }
        swap(&shapes, &new)
    }

    /// `publish` into a frame writer, specialised here (as `PublishedScene`'s is).
    public mutating func publish(_ new: inout [DebugShape], writing frame: inout DebugFrameWriter) {
        publish(&new, reporting: &frame)
    }
}
