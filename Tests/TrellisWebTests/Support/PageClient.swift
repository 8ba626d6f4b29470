import HummingbirdWSClient
import Logging
import TrellisCore
import TrellisProtocol

/// A WebSocket client standing in for a page: it connects, reads the bridge's first message
/// (the attach reply), then hands that, the reader and the writer to the test. The test's
/// WebSocket client now and then loses the bytes that arrive in the same read as its 101
/// response (see `WebViewerTests.oneMessageExchange`); when no first message came within 5 s the
/// client closes and connects again, at most three times, as the page itself does.
enum PageClient {
    typealias Body = @Sendable (JSONValue, inout JSONMessageReader, WebSocketOutboundWriter) async throws -> Void

    struct LostFirstMessage: Error {}

    static let logger: Logger = {
        var logger = Logger(label: "trellis-web-test-page")
        logger.logLevel = .error
        return logger
    }()

    static func run(_ url: String, seconds: Double = 60, _ body: @escaping Body) async throws {
        for attempt in 1...3 {
            let result = await outcome {
                try await withDeadline(seconds: seconds, "the page at \(url)") {
                    _ = try await WebSocketClient.connect(
                        url: url, configuration: .init(maxFrameSize: 1 << 20), logger: logger
                    ) { inbound, outbound, _ in
                        let first = Recorded(false)
                        let watchdog = Task {
                            try await Task.sleep(for: .seconds(5))
                            if !first.current { try? await outbound.close(.normalClosure, reason: nil) }
                        }
                        defer { watchdog.cancel() }
                        var reader = JSONMessageReader(inbound)
                        guard let reply = try await reader.next() else { throw LostFirstMessage() }
                        first.update { $0 = true }
                        try await body(reply, &reader, outbound)
                    }
                }
            }
            switch result {
            case .success: return
            case .failure(let error as LostFirstMessage) where attempt < 3: _ = error
            case .failure(let error): throw error
            }
        }
    }

    /// Sends one request and reads until its reply, keeping the notifications met on the way.
    static func call(
        _ method: String, _ params: [String: JSONValue], id: Int,
        reader: inout JSONMessageReader, outbound: WebSocketOutboundWriter, seen: inout [JSONValue]
    ) async throws -> JSONValue {
        let request = JSONValue.object(["jsonrpc": .string("2.0"), "id": .number(Double(id)), "method": .string(method),
                                        "params": .object(params)])
        try await outbound.writeTextMessage(JSONWriter.string(request))
        while let message = try await reader.next() {
            if message["id"] == .number(Double(id)) { return message }
            seen.append(message)
        }
        throw WebTestFailure("the socket closed before the reply to \(method)")
    }
}
