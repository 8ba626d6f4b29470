import HummingbirdWSClient
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
