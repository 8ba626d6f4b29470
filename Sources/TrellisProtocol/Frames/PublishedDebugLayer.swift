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
    /// A velocity arrow or a contact that moved no more than its step (`isWithinStep`) from
    /// what viewers hold is not sent: viewers keep the one they have, and so does this layer,
    /// so a shape that wanders goes again once it is a step from what was sent, and one that
    /// jitters across a grid line does not go every frame.
    public mutating func publish<Sink: DebugLayerSink>(_ new: inout [DebugShape], reporting sink: inout Sink) {
        sink.beginDebug()
        shapes.withUnsafeBufferPointer { old in
            new.withUnsafeMutableBufferPointer { now in
                var i = 0, j = 0
                while i < old.count || j < now.count {
                    if j == now.count || (i < old.count && old[i].id < now[j].id) {
                        sink.removed(old[i].id)
                        i += 1
                    } else if i == old.count || now[j].id < old[i].id {
                        sink.shape(now.baseAddress! + j)
                        j += 1
                    } else {
                        if old[i] != now[j] {
                            if Self.isWithinStep(old[i], now[j]) { now[j] = old[i] } else { sink.shape(now.baseAddress! + j) }
                        }
                        i += 1
                        j += 1
                    }
                }
            }
        }
        swap(&shapes, &new)
    }

    /// True when `now` is `old` moved by at most a step: a velocity arrow whose end moved by at
    /// most `DynamicAnimator.debugVelocityStep` on each axis, a contact by at most a point.
    @inline(__always)
    static func isWithinStep(_ old: DebugShape, _ now: DebugShape) -> Bool {
        guard old.kind == now.kind, old.view == now.view, old.label == now.label else { return false }
        switch (old.geometry, now.geometry) {
        case (.arrow(let a0, let b0), .arrow(let a1, let b1)) where now.kind == .velocity:
            let step = DynamicAnimator.debugVelocityStep
            return a0 == a1 && abs(b0.x - b1.x) <= step && abs(b0.y - b1.y) <= step
        case (.point(let p0), .point(let p1)) where now.kind == .contact:
            return abs(p0.x - p1.x) <= 1 && abs(p0.y - p1.y) <= 1
        default:
            return false
        }
    }

    /// `publish` into a frame writer, specialised here (as `PublishedScene`'s is).
    public mutating func publish(_ new: inout [DebugShape], writing frame: inout DebugFrameWriter) {
        publish(&new, reporting: &frame)
    }
}
