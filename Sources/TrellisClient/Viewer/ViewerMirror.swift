import TrellisCore
import TrellisProtocol

/// The viewer's copy of a session's scene: the keyframe of `session.attach`, then every `frame`
/// applied as a delta (TrellisProtocol's `ViewerState` does the applying; this adds the frame
/// numbers and the check that a delta fits what is held).
public struct ViewerMirror: Sendable {
    public private(set) var state: ViewerState
    /// The last frame applied (the keyframe's `seq` at first).
    public private(set) var seq: Int
    /// Frames the server did not send us (seq jumps): the server skips frames for a viewer whose
    /// socket backs up and computes the next delta against what the viewer last got, so a jump
    /// loses intermediate frames, never state (PROTOCOL.md, "Slow viewers").
    public private(set) var skippedFrames = 0

    /// What became of one frame.
    public enum Outcome: Equatable, Sendable {
        case applied
        /// A frame at or before the one held (cannot happen with an honest server; ignored).
        case stale
        /// The delta does not fit what is held: only a new keyframe can repair the mirror.
        case needsKeyframe(reason: String)
    }

    public init(keyframe: Scene, seq: Int) {
        state = ViewerState(keyframe: keyframe)
        self.seq = seq
    }

    /// The scene held now: bound views in drawing order.
    public var scene: Scene { state.scene }
    /// Views showing an element.
    public var boundCount: Int { state.views.values.filter { $0.shown != nil }.count }
    /// Views the viewer keeps that wait in their pool.
    public var pooledCount: Int { state.views.values.filter { $0.shown == nil }.count }

    /// Applies the `frame` numbered `seq`; nothing changes unless the result is `.applied`.
    public mutating func apply(_ delta: SceneDelta, seq frameSeq: Int) -> Outcome {
        guard frameSeq > seq else { return .stale }
        if let problem = mismatch(delta) { return .needsKeyframe(reason: problem) }
        skippedFrames += frameSeq - seq - 1
        seq = frameSeq
        state.apply(delta)
        return .applied
    }

    /// Why `delta` cannot apply to what is held, following the order a viewer applies it in
    /// (destroyed, unbound, created, changed, bound); nil when it fits.
    func mismatch(_ delta: SceneDelta) -> String? {
        var shown = [ViewID: Bool]()
        for (id, known) in state.views { shown[id] = known.shown != nil }
        for id in delta.destroyed {
            guard shown.removeValue(forKey: id) != nil else { return "frame destroys view \(id.rawValue), which the viewer does not know" }
        }
        for id in delta.unbound {
            guard shown[id] == true else { return "frame unbinds view \(id.rawValue), which is not bound" }
            shown[id] = false
        }
        for created in delta.created {
            guard shown[created.view] == nil else { return "frame creates view \(created.view.rawValue), which exists" }
            shown[created.view] = false
        }
        for change in delta.changed where shown[change.view] != true {
            return "frame changes view \(change.view.rawValue), which is not bound"
        }
        for bound in delta.bound {
            guard let isShown = shown[bound.view.view] else { return "frame binds view \(bound.view.view.rawValue), which was never created" }
            guard !isShown else { return "frame binds view \(bound.view.view.rawValue), which is already bound" }
            shown[bound.view.view] = true
        }
        return nil
    }
}
