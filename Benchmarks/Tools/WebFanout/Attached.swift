import Synchronization

/// How many WebSocket clients hold a keyframe now (the measured window opens once all do),
/// and the first reason a client gave up, so a broken start fails at once.
final class Attached: Sendable {
    private struct State {
        var count = 0
        var failure: String?
    }
    private let state = Mutex(State())

    var current: Int { state.withLock { $0.count } }
    var failure: String? { state.withLock { $0.failure } }
    func arrive() { state.withLock { $0.count += 1 } }
    func leave() { state.withLock { $0.count -= 1 } }
    func fail(_ reason: String) { state.withLock { $0.failure = $0.failure ?? reason } }
}
