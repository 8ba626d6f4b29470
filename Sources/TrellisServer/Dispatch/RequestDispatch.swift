import TrellisCore
import TrellisProtocol

/// Request dispatch: a line read from a client becomes a JSON-RPC envelope, the envelope a
/// method call through the method table (the read-only rule, durability first, the handler,
/// the journal), and the call a reply; then the session it touched publishes its frame.
extension Server {
    /// One message from `connection`: read as a JSON-RPC 2.0 request, run, answered.
    func handle(_ bytes: UnsafeRawBufferPointer, from connection: Connection) {
        guard let client = clients[connection.id] else { return }
        requestsHandled += 1
        switch IncomingRequest.read(bytes) {
        case .call(let method, let params, let id):
            run(method, params: params, id: id, client: client, connection: connection)
        case .refused(let error, let id):
            // A notification (no id) is never answered, not even with an error (JSON-RPC 2.0 §4.1).
            if let id { reply(id: id, error: error, to: connection) }
        }
    }

    /// Runs a request's method, answers it (unless it is a notification) and publishes.
    private func run(_ method: Method, params: JSONValue, id: JSONValue?, client: Client, connection: Connection) {
        let (outcome, touched, encoded) = execute(method, params: params, client: client)
        if let id {
            switch outcome {
            case .success(let result): reply(id: id, result: encoded.map(Reply.encoded) ?? .value(result), to: connection)
            case .failure(let error): reply(id: id, error: error, to: connection)
            }
        }
        // The result buffer back for the next request, unless one huge result grew it.
        if let encoded, encoded.capacity <= 1 << 20 { resultBuffer = encoded }
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
        return execute(method, params: params, client: client)
    }

    func execute(_ method: Method, params: JSONValue, client: Client) -> (Result<JSONValue, RPCError>, Session?, ByteBuffer?) {
        let name = method.name
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
}
