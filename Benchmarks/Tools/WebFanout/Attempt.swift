import Synchronization

/// One connection's findings, shared between the client's handler and the keyframe timer.
final class Attempt: Sendable {
    private struct State {
        var hasKeyframe = false
        var refusal: String?
        var arrivals: [FrameArrival] = []
    }
    private let state = Mutex(State())

    var hasKeyframe: Bool { state.withLock { $0.hasKeyframe } }
    var refusal: String? { state.withLock { $0.refusal } }
    var arrivals: [FrameArrival] { state.withLock { $0.arrivals } }
    func gotKeyframe() { state.withLock { $0.hasKeyframe = true } }
    func refuse(_ reply: String) { state.withLock { $0.refusal = reply } }
    func keep(_ arrivals: [FrameArrival]) { state.withLock { $0.arrivals += arrivals } }
}
