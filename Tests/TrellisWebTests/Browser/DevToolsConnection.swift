import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import TrellisCore
import TrellisProtocol

/// A Chrome DevTools Protocol error reply, or the connection ending under a command.
struct DevToolsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One WebSocket to a DevTools endpoint: each command gets an id, and the reading side hands
/// every reply to the command that waits for it. Events (messages without an id) are dropped:
/// the tests ask for state instead of listening for it. The browser sends only in answer to
/// what we send (no domain is enabled), so hummingbird-websocket's client losing bytes that
/// come with its 101 response cannot bite here: nothing comes before our first command.
final class DevToolsConnection: Sendable {
    private struct Waiting {
        var continuation: CheckedContinuation<JSONValue, any Error>
        var method: String
        var timer: Task<Void, Never>?
    }
    private struct State {
        var nextID = 0
        var waiting: [Int: Waiting] = [:]
        /// Set once the socket closed: later commands fail at once.
        var ended: String?
    }

    private let state = Mutex(State())
    private let writer: WebSocketOutboundWriter
    private let task: Task<Void, Never>

    /// Screenshots arrive as one base64 string in one message; this bounds it generously.
    static let maximumMessageBytes = 1 << 27
    static let replyLimits = JSONLimits(maximumDepth: 64, maximumStringBytes: maximumMessageBytes, maximumElements: 1 << 22)

    private static let logger: Logger = {
        var logger = Logger(label: "trellis-devtools")
        logger.logLevel = .error
        return logger
    }()

    private init(writer: WebSocketOutboundWriter, task: Task<Void, Never>) {
        self.writer = writer
        self.task = task
    }

    /// Connects to `url` (a `ws://` DevTools endpoint) within `timeout` seconds.
    static func open(_ url: String, timeout: Double = 15) async throws -> DevToolsConnection {
        // The client runs its handler for the life of the socket; the handler hands its writer
        // out through this stream and the connection, once made, takes the messages it reads.
        let (writers, writerContinuation) = AsyncStream<WebSocketOutboundWriter>.makeStream()
        let (connections, connectionContinuation) = AsyncStream<DevToolsConnection>.makeStream()
        let failure = Recorded<String?>(nil)
        let task = Task {
            let result = await outcome {
                try await WebSocketClient.connect(
                    url: url, configuration: .init(maxFrameSize: maximumMessageBytes), logger: logger
                ) { inbound, outbound, _ in
                    writerContinuation.yield(outbound)
                    writerContinuation.finish()
                    var waitingFor = connections.makeAsyncIterator()
                    guard let connection = await waitingFor.next() else { return }
                    do {
                        for try await message in inbound.messages(maxSize: maximumMessageBytes) {
                            guard case .text(let text) = message else { continue }
                            connection.deliver(text)
                        }
                        connection.end("the DevTools socket closed")
                    } catch {
                        connection.end("the DevTools socket failed: \(error)")
                    }
                }
            }
            // Connecting failed (the handler never ran): `open` below hears why. Once the handler
            // has run, it alone reports the end of the socket to the connection.
            if case .failure(let error) = result { failure.update { $0 = "\(error)" } }
            writerContinuation.finish()
        }
        let writer: WebSocketOutboundWriter
        do {
            writer = try await withDeadline(seconds: timeout, "connecting to \(url)") {
                var iterator = writers.makeAsyncIterator()
                guard let writer = await iterator.next() else {
                    throw DevToolsError("could not connect to \(url): \(failure.current ?? "the client ended without a socket")")
                }
                return writer
            }
        } catch {
            connectionContinuation.finish()
            task.cancel()
            throw error
        }
        let connection = DevToolsConnection(writer: writer, task: task)
        connectionContinuation.yield(connection)
        connectionContinuation.finish()
        return connection
    }

    /// Sends `method` (to the page attached as `session`, or to the browser) and returns its
    /// `result`; throws its error reply, or a timeout after `timeout` seconds.
    func call(_ method: String, _ params: [String: JSONValue] = [:], session: String? = nil, timeout: Double = 30) async throws -> JSONValue {
        let id = state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        var message: [String: JSONValue] = ["id": .number(Double(id)), "method": .string(method), "params": .object(params)]
        if let session { message["sessionId"] = .string(session) }
        let text = JSONWriter.string(.object(message))
        return try await withCheckedThrowingContinuation { continuation in
            let refusal = state.withLock { s -> String? in
                if let ended = s.ended { return ended }
                s.waiting[id] = Waiting(continuation: continuation, method: method, timer: nil)
                return nil
            }
            if let refusal {
                continuation.resume(throwing: DevToolsError("\(method): \(refusal)"))
                return
            }
            let timer = Task { [self] in
                try? await Task.sleep(for: .seconds(timeout))
                if !Task.isCancelled { fail(id, "no reply within \(timeout) s") }
            }
            // A reply that came first leaves nothing to time out.
            let armed = state.withLock { s -> Bool in
                guard s.waiting[id] != nil else { return false }
                s.waiting[id]?.timer = timer
                return true
            }
            if !armed { timer.cancel() }
            Task { [self, writer] in
                do { try await writer.writeTextMessage(text) } catch { fail(id, "could not send: \(error)") }
            }
        }
    }

    /// Closes the socket and waits (at most 5 s) for the client to finish.
    func close() async {
        try? await writer.close(.normalClosure, reason: nil)
        let task = self.task
        _ = await outcome { try await withDeadline(seconds: 5, "closing the DevTools socket") { await task.value } }
        task.cancel()
        end("the DevTools connection was closed")
    }

    private func deliver(_ text: String) {
        guard let message = try? JSONParser.parse(text, limits: Self.replyLimits),
              let id = message["id"]?.numberValue.map({ Int($0) }) else { return }
        guard let waiting = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        waiting.timer?.cancel()
        if let error = message["error"] {
            let code = error["code"]?.numberValue.map { String(Int($0)) } ?? "?"
            waiting.continuation.resume(throwing: DevToolsError("\(waiting.method): error \(code): \(error["message"]?.stringValue ?? "\(error)")"))
        } else {
            waiting.continuation.resume(returning: message["result"] ?? .object([:]))
        }
    }

    private func fail(_ id: Int, _ reason: String) {
        guard let waiting = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        waiting.timer?.cancel()
        waiting.continuation.resume(throwing: DevToolsError("\(waiting.method): \(reason)"))
    }

    private func end(_ reason: String) {
        let waiting = state.withLock { s -> [Waiting] in
            if s.ended == nil { s.ended = reason }
            defer { s.waiting.removeAll() }
            return Array(s.waiting.values)
        }
        for w in waiting {
            w.timer?.cancel()
            w.continuation.resume(throwing: DevToolsError("\(w.method): \(reason)"))
        }
    }
}
