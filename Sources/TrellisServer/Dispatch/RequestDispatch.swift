import TrellisCore
import TrellisProtocol

/// Request dispatch: a line read from a client becomes a JSON-RPC envelope, the envelope a
/// method call through the method table (the read-only rule, durability first, the handler,
/// the journal), and the call a reply; then the session it touched publishes its frame.
extension Server {
    /// One message from `connection`: parsed, checked as a JSON-RPC 2.0 request, run, answered.
    func handle(_ bytes: [UInt8], from connection: Connection) {
        guard let client = clients[connection.id] else { return }
        requestsHandled += 1
        let request: JSONValue
        do {
            request = try JSONParser.parse(bytes)
        } catch {
            reply(id: .null, error: .parse("parse error: \(error.message)"), to: connection)
            return
        }
        guard case .object(let envelope) = request else {
            reply(id: .null, error: .invalidRequest("a request must be a JSON object {jsonrpc, id, method, params}"), to: connection)
            return
        }
        let id = envelope["id"]
        if let id, !isValidID(id) {
            reply(id: .null, error: .invalidRequest("id must be a string, a number or null"), to: connection)
            return
        }
        guard envelope["jsonrpc"] == .string("2.0") else {
            reply(id: id ?? .null, error: .invalidRequest("jsonrpc must be \"2.0\""), to: connection)
            return
        }
        guard case .string(let name)? = envelope["method"] else {
            reply(id: id ?? .null, error: .invalidRequest("method must be a string"), to: connection)
            return
        }
        let params = envelope["params"] ?? .object([:])
        guard case .object = params else {
            // A notification (no id) is never answered, not even with an error (JSON-RPC 2.0 §4.1).
            if let id { reply(id: id, error: .invalidParams("params must be an object (by-name parameters)"), to: connection) }
            return
        }
        let (outcome, touched, encoded) = execute(name, params: params, client: client)
        if let id {
            switch outcome {
            case .success(let result): reply(id: id, result: encoded.map(Reply.encoded) ?? .value(result), to: connection)
            case .failure(let error): reply(id: id, error: error, to: connection)
            }
        }
        finishRequest(touched: touched, client: client)
    }

    /// Runs one method for `client` the way every request runs (the socket's and the in-process
    /// ones alike): the read-only check, the handler, and the journal before any acknowledgement.
    /// Returns the outcome and the session the method touched (published by `finishRequest`).
    /// A result the handler encoded itself comes back as the third value.
    func execute(_ name: String, params: JSONValue, client: Client) -> (Result<JSONValue, RPCError>, Session?, ByteBuffer?) {
        guard let method = MethodTable.byName[name] else {
            return (.failure(.unknownMethod(name, known: MethodTable.names)), nil, nil)
        }
        if method.mutates, let session = client.viewing, client.isReadOnly(for: session) {
            return (.failure(.domain("read_only", "this connection is attached read-only to '\(session.name)'; '\(name)' changes a session: use another connection, or attach without readOnly")), nil, nil)
        }
        var context = MethodContext(server: self, client: client, params: params, effect: method.effect)
        let outcome: Result<JSONValue, RPCError>
        do {
            // Persistence: a change that could not be made durable is refused before it is made.
            if method.isJournaled, let persistence { try persistence.ensureWritable() }
            let result = try method.handler(&context)
            // Persistence: journal an accepted mutation before acknowledging it.
            if method.isJournaled, let persistence { try persistence.record(method: name, params: params, touched: context.touched) }
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        return (outcome, context.touched, context.encodedResult)
    }

    /// After the reply: the touched session publishes its frame and events, lagging viewers
    /// catch up, and a requested shutdown begins.
    func finishRequest(touched: Session?, client: Client) {
        if let session = touched, sessions[session.name] === session {
            publish(session)
        }
        if let session = client.viewing, let connection = client.connection, session.viewers[connection.id]?.lagging != nil {
            _ = catchUpLaggingViewers()
        }
        if hasLaggingViewers { startFrameTimer() }
        if shutdownRequested { shutdown() }
    }

    func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string, .number, .null: return true
        default: return false
        }
    }
}
