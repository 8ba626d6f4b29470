import TrellisCore
import TrellisProtocol

/// A connected client: its connection and the session it watches, if any.
final class Client {
    /// Nil only for the client that replays the journal at start (Persistence), which never
    /// calls a method that uses its connection.
    let connection: Connection!
    var viewing: Session?
    init(connection: Connection!) { self.connection = connection }
}

extension Client {
    func isReadOnly(for session: Session) -> Bool { session.viewers[connection.id]?.readOnly ?? false }
}

extension Server {
    /// A connection that goes mid-drag (a CLI killed, a browser tab closed) leaves no finger on
    /// the screen: the server ends its pan as cancelled, where the finger was, through the method
    /// table like any request (so it is journaled and every viewer sees it), as UIKit cancels the
    /// touches of a window that goes away.
    func cancelPans(of connection: Connection) {
        guard !isShuttingDown else { return }
        for session in sessions.values.sorted(by: { $0.name < $1.name }) where session.panOwner == connection.id {
            session.panOwner = nil
            let deceleration = session.collectionView.scrollDeceleration
            guard pendingRequests[session.name] == nil, let drag = deceleration.drag, let finger = deceleration.fingerInView else { continue }
            let translation = finger.vector(from: drag.touchDown)
            let params: JSONValue = .object(["session": .string(session.name), "phase": .string("cancelled"),
                                             "translation": .array([.number(translation.dx), .number(translation.dy)])])
            let client = Client(connection: nil)
            let execution = execute("gesture.pan", params: params, client: client)
            if case .failure(let error) = execution.outcome {
                logger.warning("could not end the pan of closed client \(connection.id) on '\(session.name)': \(error.message)")
            } else {
                logger.info("client \(connection.id) closed mid-drag on '\(session.name)': its pan was cancelled")
            }
            finishRequest(touched: execution.touched, client: client)
        }
    }

    /// Takes a new connection, or refuses it with a reason it can read (past the client limit,
    /// or while shutting down).
    func accept(_ connection: Connection) {
        if isShuttingDown || clients.count >= configuration.maximumClients {
            let error = RPCError.domain("limit_exceeded", isShuttingDown ? "the server is shutting down"
                : "too many clients (the limit is \(configuration.maximumClients), set with --max-clients)")
            send(["jsonrpc": .string("2.0"), "id": .null, "error": error.json], to: connection)
            // Not closed at once: a client that wrote a request first would get a reset, not this.
            connection.stream.closeAfterWrites(reason: "client limit")
            return
        }
        let client = Client(connection: connection)
        clients[connection.id] = client
        connection.stream.outputSoftLimit = configuration.clientSoftLimitBytes
        connection.stream.outputHardLimit = configuration.clientHardLimitBytes
        connection.onMessage = { [unowned self] c, bytes in self.handle(bytes, from: c) }
        connection.onOversized = { [unowned self] c, count in
            let error = RPCError.domain("limit_exceeded", "message of \(count) bytes is over the limit of \(self.configuration.maximumMessageBytes) bytes (--max-message-bytes); it was dropped")
            self.send(["jsonrpc": .string("2.0"), "id": .null, "error": error.json], to: c)
        }
        connection.onClose = { [unowned self] c in
            if let client = self.clients.removeValue(forKey: c.id) {
                client.viewing?.viewers[c.id] = nil
                // A reload it was staging dies with it, and what it staged is freed.
                self.reloadUploads.drop(ObjectIdentifier(client))
            }
            self.cancelPans(of: c)
            self.memoryTrim.afterChurn(now: self.nowMilliseconds)
            let reason = c.closeReason ?? ""
            if reason.hasPrefix("output over the hard limit") {
                self.clientsCutForOutput += 1
                self.logger.warning("disconnected client \(c.id): \(reason)")
            } else {
                self.logger.debug("client \(c.id) closed: \(reason)")
            }
        }
    }
}
