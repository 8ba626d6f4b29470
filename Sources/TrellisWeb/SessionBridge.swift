import Logging
import NIOCore
import TrellisProtocol

/// One browser's view of one session: its own attach on trellisd's socket (read-only unless
/// trellis-web runs with `--control`), whose reply (the keyframe) and every line after it
/// (frames, events, `session.closed`, replies to the page's requests) go to the browser as
/// they are, one JSON text per WebSocket message. Only the attach reply is parsed (to know
/// whether the attach took); what follows is forwarded byte for byte, so the page sees exactly
/// the protocol a terminal viewer sees and the bridge does no work per view. The page's own
/// requests come checked through its `PageRelay` and go out on the same connection.
struct SessionBridge: Sendable {
    let connection: TrellisdConnection
    let logger: Logger

    /// The id of the one request the bridge sends.
    static let attachID = 1

    /// The `session.attach` request for `session`: read-only unless the page may drive it.
    static func attachRequest(session: String, readOnly: Bool = true) -> String {
        JSONWriter.string(.object([
            "jsonrpc": .string("2.0"), "id": .number(Double(attachID)), "method": .string("session.attach"),
            "params": .object(["session": .string(session), "readOnly": .bool(readOnly)]),
        ]))
    }

    /// Bridges until trellisd ends the connection, the attach is refused, or the task is
    /// cancelled (the browser left); `send` puts one text message on the WebSocket. With a
    /// `relay`, the attach is read-only unless `relay.control`, and `relay.requests` (what it
    /// let through) go to trellisd once the attach took. Every way out but cancellation tells the
    /// page why with a last message (trellisd's error reply or a `BridgeNotice`), and the page
    /// tries again.
    func run(
        session: String?, relay: PageRelay? = nil, send: @escaping @Sendable (String) async throws -> Void
    ) async throws {
        guard let session, !session.isEmpty else {
            try await send(BridgeNotice(kind: .noSession, message: "no session named: open /?session=NAME, or start trellis-web NAME").json)
            return
        }
        var attached = false, replied = false
        do {
            let request = Self.attachRequest(session: session, readOnly: !(relay?.control ?? false))
            try await connection.exchange(request, outgoing: relay?.requests) { line in
                if attached {
                    relay?.received(line)
                    try await send(line)
                    return true
                }
                // The first line answers the attach: a keyframe, or an error (unknown session,
                // too many clients) that the page shows as it is. The relay opens before the
                // page can have read the reply, so the page's first request finds it open.
                let reply = try? JSONParser.parse(line)
                attached = reply?["result"]?["keyframe"] != nil
                if attached { relay?.markAttached() }
                try await send(line)
                replied = true
                if !attached { logger.debug("attach refused", metadata: ["session": "\(session)", "reply": "\(line)"]) }
                return attached
            }
            if attached {
                try await send(BridgeNotice(kind: .disconnected, message: "trellisd closed the connection").json)
            } else if !replied {
                try await send(BridgeNotice(kind: .unreachable, message: "trellisd closed the connection without answering").json)
            }
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            logger.debug("bridge ended", metadata: ["session": "\(session)", "error": "\(error)"])
            // Before the reply, any failure (no socket, connection refused, a path too long)
            // means nothing usable answers there; after it, the connection broke.
            let notice = attached
                ? BridgeNotice(kind: .disconnected, message: "the connection to trellisd failed: \(error)")
                : BridgeNotice(kind: .unreachable, message: "trellisd is not answering on \(connection.path): \(error)")
            try await send(notice.json)
        }
    }
}
