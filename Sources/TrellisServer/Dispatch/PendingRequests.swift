import TrellisCore
import TrellisProtocol
import TrellisTransport

/// A request whose work goes on over later loop turns (`DeferredWork`), and the requests that
/// wait for it: its own connection's next ones (its stream is held) and every other request
/// that names its session (parked with their connections held), so that they run in the order
/// they came, after it, as they would have had it run in one go. Redis blocks a client on a
/// long command the same way, without blocking the others.
final class PendingRequest {
    let method: Method
    let params: JSONValue
    let id: JSONValue?
    let client: Client
    let connection: Connection
    let work: DeferredWork
    /// Requests naming the session, with their connections, in the order they came.
    var waiting: [(connection: Connection, message: [UInt8])] = []
    /// The loop time its work took so far (ms): what a restart takes to replay it.
    var cost: Double

    init(method: Method, params: JSONValue, id: JSONValue?, client: Client, connection: Connection, work: DeferredWork,
         cost: Double) {
        self.method = method; self.params = params; self.id = id; self.client = client
        self.connection = connection; self.work = work; self.cost = cost
    }
}

extension Server {
    /// The session a request names: `params.session`, or a new session's `params.name`.
    static func sessionNamed(by params: JSONValue) -> String? {
        params.field("session")?.stringValue ?? params.field("name")?.stringValue
    }

    /// Parks `message` if it names a session whose pending request is not done: its connection
    /// is held until then. True when parked.
    func parkIfSessionBusy(_ message: UnsafeRawBufferPointer, params: JSONValue, from connection: Connection) -> Bool {
        guard !pendingRequests.isEmpty, let name = Self.sessionNamed(by: params), let pending = pendingRequests[name] else {
            return false
        }
        pending.waiting.append((connection, Array(message)))
        connection.stream.hold()
        return true
    }

    /// A request whose handler left work for later: its connection waits, and the loop takes
    /// the work on from its next turn.
    func startPending(_ pending: PendingRequest) {
        pendingRequests[pending.work.session.name] = pending
        pending.connection.stream.hold()
        pendingRunner.start()
    }

    /// One loop turn of every pending request's work, each within its share of the request
    /// budget; those done are answered, journaled and published, and what waited for them runs.
    func runPendingRequests() {
        let all = pendingRequests.values.sorted { $0.work.session.name < $1.work.session.name }
        let share = configuration.requestBudgetMilliseconds / Double(max(1, all.count))
        for pending in all where !pending.work.awaitingPool() {
            let started = nowMilliseconds, deadline = started + share
            let compactions = persistence?.compactions ?? 0
            let outcome = pending.work.step(pending.work.session) { self.nowMilliseconds < deadline }
            pending.cost += nowMilliseconds - started
            if let outcome { finish(pending, outcome: outcome) }
            let held = nowMilliseconds - started
            requestTimings.record(held)
            if held > 2 * configuration.requestBudgetMilliseconds {
                noteSlowRequest("\(pending.method.name) on '\(pending.work.session.name)' (a turn of its deferred work)", held: held,
                                tookSnapshot: (persistence?.compactions ?? 0) != compactions)
            }
        }
        // Work on the thread pool wakes the runner when it is back (`awaitingPool`).
        if pendingRequests.values.allSatisfy({ $0.work.awaitingPool() }) { pendingRunner.stop() }
    }

    private func finish(_ pending: PendingRequest, outcome: DeferredOutcome) {
        let session = pending.work.session
        pendingRequests[session.name] = nil
        var outcome = outcome
        // A refused outcome changed nothing: nothing to journal.
        var refused = false
        if case .failure = outcome { refused = true }
        if pending.method.isJournaled && !refused {
            do {
                try acceptChange(pending.method.name, params: pending.params, touched: session, cost: pending.cost,
                                 journaledByHandler: pending.work.journaledByStep)
            } catch {
                outcome = .failure(error)
            }
        }
        // A commit journals its line inside its step, while it still counts as pending, so the
        // compaction that line makes due could not start then: it starts now (without this a
        // restart replayed a million-item line instead of reading the snapshot: twice as long).
        persistence?.compactIfDue()
        if let id = pending.id, !pending.connection.isClosing {
            switch outcome {
            case .value(let value): reply(id: id, result: .value(value), to: pending.connection)
            case .encoded(let bytes): reply(id: id, result: .encoded(bytes), to: pending.connection)
            case .failure(let error): reply(id: id, error: error, to: pending.connection)
            }
        }
        finishRequest(touched: session, client: pending.client)
        // What waited runs in the order it came; one that starts new work for the session
        // hands it the rest.
        var waiting = pending.waiting[...]
        pending.connection.stream.release()
        while let (connection, message) = waiting.popFirst() {
            if let again = pendingRequests[session.name] {
                again.waiting.append((connection, message))
                continue
            }
            if !connection.isClosing { message.withUnsafeBytes { handle($0, from: connection) } }
            if pendingRequests[session.name]?.connection !== connection { connection.stream.release() }
        }
    }
}
