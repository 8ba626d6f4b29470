import HummingbirdWSClient
import Synchronization
import TrellisCore
import TrellisProtocol

/// The JSON texts a WebSocket receives, one message at a time (fragments joined).
struct JSONMessageReader {
    private var iterator: WebSocketInboundMessageStream.AsyncIterator

    init(_ inbound: WebSocketInboundStream) {
        iterator = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
    }

    /// The next message parsed; nil once the socket closed.
    mutating func next() async throws -> JSONValue? {
        guard let message = try await iterator.next() else { return nil }
        guard case .text(let text) = message else { throw WebTestFailure("a binary WebSocket message: \(message)") }
        return try JSONParser.parse(text)
    }
}

/// What a WebSocket handler (which runs on the client's own task and returns nothing) hands
/// back to the test.
final class Recorded<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ initial: Value) { value = Mutex(initial) }
    func update(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
    var current: Value { value.withLock { $0 } }
}

/// Runs `body`, giving up with a failure after `seconds` (a bound on waiting for sockets, not
/// a sleep that stands in for a condition).
func withDeadline<T: Sendable>(
    seconds: Double, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw WebTestFailure("\(what): nothing after \(seconds) s")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// What `body` ended with, kept so that a test can clean up before it reports.
func outcome<T>(of body: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
