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
        let delivery = connection.deliveries
        let started: Double
        if let last = lastRequestEnd, last.connection == connection.id, last.delivery == delivery {
            started = last.at
        } else {
            started = nowMilliseconds
        }
        let compactions = persistence?.compactions ?? 0
        var called: (method: Method, params: JSONValue)?
        var answeredDirectly = false
        defer {
            let ended = nowMilliseconds
            lastRequestEnd = (connection.id, delivery, ended)
            let held = ended - started
            requestTimings.record(held)
            if held > 2 * configuration.requestBudgetMilliseconds {
                // Named only when slow: the hot path builds no text.
                // Only a session that exists is named: its name was checked for control
                // characters when it was made, and a client's raw text never reaches the log.
                let name = answeredDirectly ? "hello" : called.map { call in
                    call.method.name + (call.params["session"]?.stringValue.flatMap { sessions[$0] == nil ? nil : " on '\($0)'" } ?? "")
                }
                noteSlowRequest(name ?? "an unreadable line", held: held, tookSnapshot: (persistence?.compactions ?? 0) != compactions)
            }
        }
        let envelope = RequestEnvelope.scan(bytes)
        if let envelope, answerDirectly(envelope, in: bytes, client: client, connection: connection) {
            answeredDirectly = true
            return
        }
        switch IncomingRequest.read(bytes, envelope: envelope) {
        case .call(let method, let params, let id, let scanned):
            called = (method, params)
            // A request for a session whose long request is not done yet waits for it.
            if parkIfSessionBusy(bytes, params: params, from: connection) {
                requestsHandled -= 1
                return
            }
            run(method, params: params, scanned: scanned, id: id, client: client, connection: connection, started: started)
        case .refused(let error, let id):
            // A notification (no id) is never answered, not even with an error (JSON-RPC 2.0 §4.1).
            if let id { reply(id: id, error: error, to: connection) }
        }
    }

    /// A request that held the loop for more than twice the request budget is logged (a warning,
    /// naming it), as Redis's slow log names slow commands: the budget covers its physics, but
    /// not what the disk takes (a journal fsync, a compaction's snapshot).
    func noteSlowRequest(_ name: String, held: Double, tookSnapshot: Bool) {
        let note = tookSnapshot ? " (it took a snapshot of every session)" : ""
        logger.warning("slow request: \(name) held the loop \(Int(held.rounded())) ms, over twice the \(Int(configuration.requestBudgetMilliseconds)) ms budget\(note)")
    }

    /// Runs a request's method, answers it (unless it is a notification) and publishes.
    /// `started`: when the request was read (the loop time it holds counts from there).
    private func run(_ method: Method, params: JSONValue, scanned: [Section]?, id: JSONValue?, client: Client,
                     connection: Connection, started: Double) {
        let execution = execute(method, params: params, scanned: scanned, client: client, canDefer: true, now: started)
        if let work = execution.deferred {
            startPending(PendingRequest(method: method, params: params, id: id, client: client, connection: connection,
                                        work: work, cost: nowMilliseconds - started))
            return
        }
        let (outcome, touched, encoded) = (execution.outcome, execution.touched, execution.encoded)
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

    /// What running a method gave: its outcome, the session it touched (published by
    /// `finishRequest`), a result the handler encoded itself, and work it left for later loop
    /// turns (then the outcome waits for it: `PendingRequest`).
    struct Execution {
        var outcome: Result<JSONValue, RPCError>
        var touched: Session?
        var encoded: ByteBuffer?
        var deferred: DeferredWork?
    }

    /// Runs one method for `client` the way every request runs (the socket's and the in-process
    /// ones alike): the read-only check, the handler, and the journal before any acknowledgement.
    func execute(_ name: String, params: JSONValue, client: Client) -> Execution {
        guard let method = MethodTable.byName[name] else {
            return Execution(outcome: .failure(.unknownMethod(name, known: MethodTable.names)))
        }
        return execute(method, params: params, client: client)
    }

    /// `canDefer`: the handler may leave work for later loop turns (only a socket request, whose
    /// loop goes on; then nothing is journaled until the work is done). `now`: the loop clock
    /// when the caller just read it (one clock read less per request), else read here.
    /// `scanned`: sections the method's `scanParams` read from the request's bytes.
    func execute(_ method: Method, params: JSONValue, scanned: [Section]? = nil, client: Client, canDefer: Bool = false,
                 now: Double? = nil) -> Execution {
        let name = method.name
        if method.mutates, let session = client.viewing, client.isReadOnly(for: session) {
            return Execution(outcome: .failure(.domain("read_only", "this connection is attached read-only to '\(session.name)'; '\(name)' changes a session: use another connection, or attach without readOnly")))
        }
        var context = MethodContext(server: self, client: client, params: params, scannedSections: scanned, effect: method.effect,
                                    canDefer: canDefer)
        let started = now ?? nowMilliseconds
        requestDeadline = started + configuration.requestBudgetMilliseconds
        let outcome: Result<JSONValue, RPCError>
        do {
            // Persistence: a change that could not be made durable is refused before it is made.
            if method.isJournaled, let persistence { try persistence.ensureWritable() }
            // The journal's cost is the handler's own time (what a replay takes).
            let handlerStarted = method.isJournaled ? nowMilliseconds : started
            let result = try method.handler(&context)
            if context.deferred != nil {
                return Execution(outcome: .success(.null), touched: context.touched, deferred: context.deferred)
            }
            // An accepted mutation is recorded and journaled before it is acknowledged.
            if method.isJournaled {
                try acceptChange(name, params: params, touched: context.touched, cost: nowMilliseconds - handlerStarted,
                                 journaledByHandler: context.journaledByHandler)
            }
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        return Execution(outcome: outcome, touched: context.touched, encoded: context.encodedResult)
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
