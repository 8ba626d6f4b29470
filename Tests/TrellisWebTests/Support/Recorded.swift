import Synchronization

/// What a WebSocket handler (which runs on the client's own task and returns nothing) hands
/// back to the test.
final class Recorded<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ initial: Value) { value = Mutex(initial) }
    func update(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
    var current: Value { value.withLock { $0 } }
}
