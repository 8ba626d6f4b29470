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

    /// The history of the recording of `params.session`, or why there is none.
    func history(_ context: inout MethodContext) throws(RPCError) -> SessionHistory {
        let name = try context.string("session")
        guard let recording = recordings[name] else {
            guard sessions[name] != nil else { throw .unknownSession(name, known: sessions.keys.sorted()) }
            throw .domain("invalid_state", "session '\(name)' is not being recorded, so it has no past to revisit; start a recording with: trellis record-script \(name) --out FILE (moments from then on can be revisited)")
        }
        return recording.history
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
        let end = seekEnd(history, session: name, context: context)
        let endMilliseconds = (end - history.startTime) * 1000
        let lastFrame = Int((endMilliseconds / 1000 * SessionHistory.framesPerSecond + 1e-6).rounded(.down))
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

    /// The recorded session `name` as it was at `time` (engine seconds), on a private server
    /// that is closed again before this returns; the session it gives is nobody else's.
    func rebuild(_ history: SessionHistory, name: String, at time: Double) throws(RPCError) -> Session {
        let end = history.changeCount(through: time)
        let keyframe = history.keyframe(before: end, at: time)
        let replica: Server
        do { replica = try Server(inProcessWith: logger) } catch {
            throw RPCError(code: -32603, message: "internal error: cannot make the private server a seek replays on (\(error)); the live session is untouched")
        }
        defer { replica.loop.close() }
        let session = Session(name: name, collectionView: keyframe.engine, clock: .manual, epochMilliseconds: 0,
                              contactLimit: configuration.maximumContacts)
        replica.sessions[name] = session
        // The replay's client has no connection, as the journal's at start (a pan it did not
        // begin is still its own to go on with).
        let client = Client(connection: nil)
        for k in keyframe.changes..<end {
            let change = history.changes[k]
            // clock.advance moves the time itself; any other change was made at its time.
            if change.method != "clock.advance", change.time > session.collectionView.time {
                session.collectionView.advance(to: change.time)
            }
            let execution = replica.execute(change.method, params: change.params, client: client)
            if case .failure(let error) = execution.outcome {
                throw RPCError(code: -32603, message: "internal error: change \(k + 1) of the recording of '\(name)' (\(change.method)) did not replay: \(error.message); the live session is untouched. This is a server bug: please report it")
            }
            _ = session.collectionView.drainEvents()
        }
        if time > session.collectionView.time + SessionHistory.sameMoment { session.collectionView.advance(to: time) }
        _ = session.collectionView.drainEvents()
        return session
    }
}
