import Logging
import TrellisCore
import TrellisProtocol

/// Revisiting a recorded session's past (`session.seek`, `session.fork`'s `at`): the moment is
/// rebuilt from its history's nearest keyframe before it, the changes after that replayed
/// through the method table of a private in-process server on a manual clock, and the clock
/// advanced to the moment. The live session is only read (brought to now, to know the range).
extension Server {
    /// A moment of a recording: engine time (seconds), and as the request named it.
    struct SeekMoment {
        var time: Double
        /// Milliseconds since the recording began.
        var at: Double
        var frame: Int?
    }

    /// The recording of `params.session` (its history is what a seek replays), or why there is none.
    func recording(_ context: inout MethodContext) throws(RPCError) -> ScriptRecording {
        let name = try context.string("session")
        guard let recording = recordings[name] else {
            guard sessions[name] != nil else { throw .unknownSession(name, known: sessions.keys.sorted()) }
            throw .domain("invalid_state", "session '\(name)' is not being recorded, so it has no past to revisit; start a recording with: trellis record-script \(name) --out FILE (moments from then on can be revisited)")
        }
        return recording
    }

    /// The moment named by `params.at` (ms since the recording began) or `params.atFrame` (60
    /// a second since then), checked against the range the history covers.
    func seekMoment(_ context: MethodContext, history: SessionHistory, required: Bool) throws(RPCError) -> SeekMoment? {
        let name = (try? context.string("session")) ?? ""
        let at = context.params.field("at"), atFrame = context.params.field("atFrame")
        if at == nil && atFrame == nil {
            if required { throw .invalidParams("params: expected \"at\" (milliseconds since the recording began) or \"atFrame\" (a frame number, 60 a second since then)") }
            return nil
        }
        guard at == nil || atFrame == nil else {
            throw .invalidParams("params: give either \"at\" or \"atFrame\", not both")
        }
        let (end, lastFrame) = seekRange(history, session: name, context: context)
        let endMilliseconds = (end - history.startTime) * 1000
        let range = "0 … \(RecordedScriptLines.number(WireEncoding.milliseconds(end - history.startTime))) ms, frames 0 … \(lastFrame)"
        let stopped = history.stopped.map { "; the history ends there: \($0.reason)" } ?? ""
        if let atFrame {
            guard case .number(let n) = atFrame, n.isFinite, n == n.rounded(), n >= -1e15, n <= 1e15 else {
                throw .invalidParams("params.atFrame: expected a whole frame number from 0 to \(lastFrame) (the recording of '\(name)' covers \(range)), found \(JSONWriter.string(atFrame))")
            }
            guard n >= 0 else { throw .domain("out_of_range", "params.atFrame: frame \(Int(n)) is before the start of the recording of '\(name)', which covers \(range)") }
            guard n <= Double(lastFrame) else {
                throw .domain("out_of_range", "params.atFrame: frame \(Int(n)) is past the end of the recording of '\(name)', which covers \(range)\(stopped)")
            }
            let ms = n / SessionHistory.framesPerSecond * 1000
            return SeekMoment(time: history.startTime + n / SessionHistory.framesPerSecond, at: ms, frame: Int(n))
        }
        guard case .number(let ms) = at!, ms.isFinite else {
            throw .invalidParams("params.at: expected a finite number of milliseconds since the recording began, from 0 to \(RecordedScriptLines.number(endMilliseconds)) (the recording of '\(name)' covers \(range)), found \(JSONWriter.string(at!))")
        }
        guard ms >= 0 else { throw .domain("out_of_range", "params.at: \(RecordedScriptLines.number(ms)) ms is before the start of the recording of '\(name)', which covers \(range)") }
        guard ms / 1000 <= end - history.startTime + SessionHistory.sameMoment else {
            throw .domain("out_of_range", "params.at: \(RecordedScriptLines.number(ms)) ms is past the end of the recording of '\(name)', which covers \(range)\(stopped)")
        }
        return SeekMoment(time: history.startTime + ms / 1000, at: ms, frame: nil)
    }

    /// The range `history` covers: its last moment (engine seconds, `seekEnd`) and the last whole
    /// frame (60 a second since the recording began) at or before it.
    func seekRange(_ history: SessionHistory, session name: String, context: MethodContext) -> (end: Double, lastFrame: Int) {
        let end = seekEnd(history, session: name, context: context)
        return (end, history.frame(at: end))
    }

    /// The last moment `history` covers: where it stopped, else the live session's now (its
    /// live clock brought there first; nothing else of it changes).
    private func seekEnd(_ history: SessionHistory, session name: String, context: MethodContext) -> Double {
        if let stopped = history.stopped { return stopped.time }
        guard let recording = recordings[name], let session = recording.session, sessions[name] === session else {
            return history.changes.last?.time ?? history.startTime
        }
        session.syncClock(toLoopMilliseconds: nowMilliseconds, dynamicsWhile: context.withinBudget)
        return session.collectionView.time
    }

    /// The recorded session `name` as it was at `time` (engine seconds), rebuilt in one go (a
    /// request that cannot defer: in process, replayed); the session it gives is nobody else's.
    func rebuild(_ history: SessionHistory, name: String, at time: Double) throws(RPCError) -> Session {
        let replay = try SeekReplay(history, name: name, at: time, logger: logger, contactLimit: configuration.maximumContacts)
        _ = try replay.run(while: { true })
        return replay.session
    }

    /// The moment of `history` at `time` rebuilt for the request in `context`, then `answer`ed:
    /// at once when the replay fits the request budget (or the request cannot defer), else as
    /// deferred work that replays a budget of changes per loop turn (`SeekReplay`), the
    /// session's other requests waiting behind it. `answer` may refuse (a fork whose name was
    /// taken meanwhile).
    func seek(_ history: SessionHistory, name: String, at time: Double, _ context: inout MethodContext,
              answer: @escaping (Session) throws(RPCError) -> DeferredOutcome) throws(RPCError) -> JSONValue {
        let replay = try SeekReplay(history, name: name, at: time, logger: logger, contactLimit: configuration.maximumContacts)
        let perTurn = configuration.seekChangesPerTurn
        if !context.canDefer {
            _ = try replay.run(while: { true })
        } else if try !replay.run(while: context.withinBudget, atMost: perTurn) {
            // The replay's own session names the work, so the live one (if any) is neither
            // published nor journaled by it; requests naming it still wait behind the seek.
            let logger = logger
            context.deferred = DeferredWork(session: replay.session, journaledByStep: true) { _, more in
                do throws(RPCError) {
                    guard try replay.run(while: more, atMost: perTurn) else { return nil }
                    logger.debug("seek of '\(name)' replayed \(replay.replayed) changes over \(replay.turns) loop turns")
                    return try answer(replay.session)
                } catch {
                    return .failure(error)
                }
            }
            return .null
        }
        switch try answer(replay.session) {
        case .value(let value): return value
        case .encoded(let bytes):
            context.encodedResult = bytes
            return .null
        case .failure(let error): throw error
        }
    }
}

/// One seek's replay: the nearest keyframe before the moment on a private in-process server on
/// a manual clock, and the changes after it, copied from the history up front (copy on write:
/// live appends and keyframe thinning do not reach them), replayed a slice per call, each
/// change's params read back from its bytes as it replays. A single
/// change is never split: one heavier than the request budget (a replayed million-item reload)
/// holds its loop turn alone.
final class SeekReplay {
    let session: Session
    private let replica: Server
    /// The replay's client has no connection, as the journal's at start (a pan it did not begin
    /// is still its own to go on with).
    private let client = Client(connection: nil)
    private let name: String
    private let changes: ArraySlice<SessionHistory.Change>
    /// Their params' bytes (a copy on write, as `changes`).
    private let bytes: RecordedChangeBytes
    private let first: Int
    private var next: Int
    private let time: Double
    /// Loop turns taken so far (calls to `run`), for the log.
    private(set) var turns = 0
    var replayed: Int { next - first }

    init(_ history: SessionHistory, name: String, at time: Double, logger: Logger, contactLimit: Int) throws(RPCError) {
        let end = history.changeCount(through: time)
        let keyframe = history.keyframe(before: end, at: time)
        let replica: Server
        do { replica = try Server(inProcessWith: logger) } catch {
            throw RPCError(code: -32603, message: "internal error: cannot make the private server a seek replays on (\(error)); the live session is untouched")
        }
        let session = Session(name: name, collectionView: keyframe.engine, clock: .manual, epochMilliseconds: 0,
                              contactLimit: contactLimit)
        replica.sessions[name] = session
        self.replica = replica
        self.session = session
        self.name = name
        self.time = time
        changes = history.changes[keyframe.changes..<end]
        bytes = history.bytes
        first = keyframe.changes
        next = first
    }

    deinit { replica.loop.close() }

    /// Replays changes while `more()` says so (at least one, at most `atMost`); true once all
    /// are replayed and the clock is at the moment.
    func run(while more: () -> Bool, atMost: Int = Int.max) throws(RPCError) -> Bool {
        turns += 1
        var taken = 0
        while next < changes.endIndex && (taken == 0 || (taken < atMost && more())) {
            let change = changes[next]
            // clock.advance moves the time itself; any other change was made at its time.
            if change.method != "clock.advance", change.time > session.collectionView.time {
                session.collectionView.advance(to: change.time)
            }
            let params: JSONValue
            do throws(RecordedChangeError) {
                params = try bytes.params(change.encoded, method: change.method, session: name)
            } catch {
                throw RPCError(code: -32603, message: "internal error: change \(next + 1) of the recording of '\(name)' (\(change.method)) did not read back: \(error.message); the live session is untouched. This is a server bug: please report it")
            }
            let execution = replica.execute(change.method, params: params, client: client)
            if case .failure(let error) = execution.outcome {
                throw RPCError(code: -32603, message: "internal error: change \(next + 1) of the recording of '\(name)' (\(change.method)) did not replay: \(error.message); the live session is untouched. This is a server bug: please report it")
            }
            _ = session.collectionView.drainEvents()
            next += 1
            taken += 1
        }
        guard next == changes.endIndex else { return false }
        if time > session.collectionView.time + SessionHistory.sameMoment { session.collectionView.advance(to: time) }
        _ = session.collectionView.drainEvents()
        return true
    }
}
