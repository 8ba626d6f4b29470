import TrellisCore
import TrellisProtocol
import TrellisTransport

/// The flight recorder: every accepted change to a recorded session becomes a script line, at
/// the one place accepted changes are journaled (`acceptChange`), so nothing reaches a session
/// around it: CLI, browser bridge and raw requests all pass there.
extension Server {
    /// An accepted change to `touched`: written to its recording (if it has one), then journaled
    /// (when the server keeps a journal) before the reply. `cost`: the handler's time, for
    /// compaction. `journaledByHandler`: the handler made it durable itself.
    func acceptChange(_ method: String, params: JSONValue, touched: Session?, cost: Double,
                      journaledByHandler: Bool) throws(RPCError) {
        if let session = touched, session.recording != nil { record(method, params: params, session: session, journaledByHandler: journaledByHandler) }
        if !journaledByHandler, let persistence {
            try persistence.record(method: method, params: params, touched: touched, cost: cost)
        }
    }

    /// Writes the change's lines: the ticks since the last line (`advance`), the change, and a
    /// checkpoint when the recording takes one per change.
    private func record(_ method: String, params: JSONValue, session: Session, journaledByHandler: Bool) {
        guard let recording = session.recording else { return }
        // A fork reads its source and changes nothing of it.
        if method == "session.fork" { return }
        // A chunked upload's commit recorded itself (`recordCommitted`), as it journals itself.
        if journaledByHandler { return }
        if method == "session.destroy" {
            recording.history.stop(at: session.collectionView.time, "the session was destroyed")
        }
        // A history grows only beside its file (it stopped when the file did).
        guard recording.isWriting else { return }
        var lines = recording.takeLines()
        defer { recording.giveBack(lines) }
        let time = session.collectionView.time
        if method != "clock.advance", time != recording.scriptTime {
            RecordedScriptLines.advance(session.name, sessionWord: recording.sessionWord, milliseconds: (time - recording.scriptTime) * 1000, into: &lines)
        }
        let changeStart = lines.count
        RecordedScriptLines.change(method, params: params, session: session.name, sessionWord: recording.sessionWord, into: &lines)
        // Kept as its line, and counted as it: the encoding is made for the file anyway.
        if method != "session.destroy" {
            recording.history.append(method, encoded: lines, from: changeStart, form: .line, session: session)
        }
        writeChange(recording, session: session, lines: &lines, time: time, destroyed: method == "session.destroy")
    }

    /// A chunked upload's commit, as the one `data.reload` or `data.apply` request it equals
    /// (`writeParams` writes its params): one `rpc` line, when that line is a request the server
    /// reads (its message limit); else the recording stops before it, saying why.
    func recordCommitted(_ method: String, session: Session, capacity: Int, writeParams: (inout ByteBuffer) -> Void) {
        guard let recording = session.recording else { return }
        var json = ByteBuffer(capacity: min(capacity, configuration.maximumMessageBytes))
        writeParams(&json)
        guard recording.isWriting else { return }
        // The history keeps the commit as the one request it equals, its params as written
        // (read back only by a seek that replays it), within its byte budget.
        recording.history.append(method, encoded: json, from: 0, form: .json, session: session)
        // The request around the params takes a few dozen bytes.
        guard json.count + 128 <= configuration.maximumMessageBytes else {
            endRecording(recording, reason: "a chunked upload committed \(json.count) bytes of data, more than one request may carry (\(configuration.maximumMessageBytes) bytes), so no script line can replay it; the recording stopped before it")
            return
        }
        var lines = ByteBuffer(capacity: json.count + 512)
        let time = session.collectionView.time
        if time != recording.scriptTime {
            RecordedScriptLines.advance(session.name, milliseconds: (time - recording.scriptTime) * 1000, into: &lines)
        }
        RecordedScriptLines.rpc(method, json: json, into: &lines)
        writeChange(recording, session: session, lines: &lines, time: time, destroyed: false)
    }

    /// Adds the checkpoint (when one is due, `ScriptRecording.Checkpoints`) and writes the change's lines.
    private func writeChange(_ recording: ScriptRecording, session: Session, lines: inout ByteBuffer, time: Double, destroyed: Bool) {
        let pinned = !destroyed && recording.checkpointDue(at: time)
        if pinned { RecordedScriptLines.checkpoint(session, into: &lines) }
        recording.scriptTime = time
        guard recording.append(lines, now: nowMilliseconds) else {
            endRecording(recording, reason: recording.ended ?? "")
            return
        }
        recording.noteChange(pinned: pinned)
        if pinned { recording.noteCheckpoint(at: time) }
        if destroyed { recording.end("the session was destroyed") }
    }

    /// Writes `# mark: LABEL` and a checkpoint into `session`'s recording.
    func markRecording(of session: Session, label: String) throws(RPCError) -> ScriptRecording {
        guard let recording = session.recording else { throw Self.notRecording(session.name) }
        guard recording.isWriting else {
            throw .domain("invalid_state", "the recording of '\(session.name)' has ended (\(recording.ended ?? "")); stop it to get what it holds: trellis record-script \(session.name) --stop")
        }
        writeCheckpoint(recording, session: session, label: label)
        recording.history.mark(label, at: session.collectionView.time)
        return recording
    }

    /// The last checkpoint of a recording stopped with changes after its last one (`frames`):
    /// `session`, brought to now, is the one recorded.
    func closeCheckpoints(_ recording: ScriptRecording, session: Session) {
        guard recording.checkpoints == .frames, recording.isWriting, recording.unpinnedChanges, recording.session === session else { return }
        writeCheckpoint(recording, session: session, label: nil)
    }

    /// The ticks since the last line, `# mark: LABEL` (when there is a label) and a checkpoint.
    private func writeCheckpoint(_ recording: ScriptRecording, session: Session, label: String?) {
        var lines = ByteBuffer(capacity: 256)
        let time = session.collectionView.time
        if time != recording.scriptTime {
            RecordedScriptLines.advance(session.name, milliseconds: (time - recording.scriptTime) * 1000, into: &lines)
            recording.scriptTime = time
        }
        if let label { RecordedScriptLines.mark(label, into: &lines) }
        RecordedScriptLines.checkpoint(session, into: &lines)
        if recording.append(lines, now: nowMilliseconds) {
            recording.noteCheckpoint(at: time)
        } else {
            endRecording(recording, reason: recording.ended ?? "")
        }
    }

    /// Ends a recording that could not go on: it says why in its last line (when it still can),
    /// and the session's viewers get `recording.stopped`. The file and the recording stay until
    /// `recording.stop`, which hands over what was written.
    func endRecording(_ recording: ScriptRecording, reason: String) {
        recording.end(reason)
        logger.warning("recording of '\(recording.sessionName)' stopped: \(recording.ended ?? reason)")
        guard let session = recording.session, sessions[session.name] === session else { return }
        let notice: JSONValue = .object(["session": .string(session.name), "reason": .string(recording.ended ?? reason),
                                         "path": .string(recording.path), "bytes": .number(Double(recording.bytes))])
        for viewer in session.viewers.values { notify("recording.stopped", notice, to: viewer.connection) }
    }

    /// Gathered lines reach the file `flushMilliseconds` after the first of them (a write that
    /// fails then ends the recording, as one during a change does). Only a server with a running
    /// loop gets the timer; an in-process one writes at the size mark and at the stop.
    func armFlushes(_ recording: ScriptRecording) {
        guard listener != nil else { return }
        let timer = LoopTimer(loop: loop)
        timer.onFire = { [weak recording, unowned self] in
            guard let recording, !recording.flush() else { return }
            self.endRecording(recording, reason: recording.ended ?? "")
        }
        recording.flushTimer = timer
        recording.onPending = { [unowned timer] in timer.start(after: ScriptRecording.flushMilliseconds) }
    }

    static func notRecording(_ name: String) -> RPCError {
        .domain("invalid_state", "session '\(name)' is not being recorded; start a recording with: trellis record-script \(name) --out FILE")
    }

    /// A keyframe, when one is due, of every recorded live session (at each display tick, so a
    /// seek into a long stretch without changes replays at most a second of it).
    func keyframeRecordedSessions() {
        for recording in recordings.values {
            guard let session = recording.session, session.clock == .live, sessions[session.name] === session else { continue }
            recording.history.tick(session)
        }
    }

    /// Closes every recording's file (at shutdown); the files keep what was written.
    func closeRecordings() {
        for recording in recordings.values {
            recording.end("the server shut down")
            recording.close()
        }
    }
}
