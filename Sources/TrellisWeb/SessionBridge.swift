import Logging
import NIOCore
import TrellisCore
import TrellisProtocol

/// One browser's view of one session: its own read-only attach on trellisd's socket, whose
/// reply (the keyframe) and every notification after it (frames, events, `session.closed`) go
/// to the browser as they are, one JSON text per WebSocket message. Only the reply is parsed
/// (to know whether the attach took); what follows is forwarded byte for byte, so the page sees
/// exactly the protocol a terminal viewer sees and the bridge does no work per view.
struct SessionBridge: Sendable {
    let connection: TrellisdConnection
    let logger: Logger

    /// The id of the one request the bridge sends.
    static let attachID = 1

    /// The `session.attach` request for `session`, read-only: a browser only watches.
    static func attachRequest(session: String) -> String {
        JSONWriter.string(.object([
            "jsonrpc": .string("2.0"), "id": .number(Double(attachID)), "method": .string("session.attach"),
            "params": .object(["session": .string(session), "readOnly": .bool(true)]),
        ]))
    }

    /// Bridges until trellisd ends the connection, the attach is refused, or the task is
    /// cancelled (the browser left); `send` puts one text message on the WebSocket. Every way
    /// out but cancellation tells the page why with a last message (trellisd's error reply or a
    /// `BridgeNotice`), and the page tries again.
    func run(session: String?, send: @escaping @Sendable (String) async throws -> Void) async throws {
        guard let session, !session.isEmpty else {
            try await send(BridgeNotice(kind: .noSession, message: "no session named: open /?session=NAME, or start trellis-web NAME").json)
            return
        }
        var attached = false, replied = false
        do {
            try await connection.exchange(Self.attachRequest(session: session)) { line in
                if attached {
                    try await send(line)
                    return true
                }
                // The first line answers the attach: a keyframe, or an error (unknown session,
                // too many clients) that the page shows as it is.
                try await send(line)
                replied = true
                let reply = try? JSONParser.parse(line)
                attached = reply?["result"]?["keyframe"] != nil
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
