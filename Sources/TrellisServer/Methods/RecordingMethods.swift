import TrellisCore
import TrellisProtocol

/// recording.start, recording.mark, recording.stop: the flight recorder (FlightRecorder), which
/// writes a session's accepted changes as a `trellis run` script under the state directory;
/// recording.info: a recording's range and marks (a timeline's); session.seek: any moment since
/// a recording began, rebuilt from its history (SessionSeek).
enum RecordingMethods {
    /// The longest label of a mark, and of a destination path (bytes).
    static let maximumLabelBytes = 200
    static let maximumDestinationBytes = 4096
    /// Recordings one server holds at once (each an open file), ended ones not collected included.
    static let maximumRecordings = 64

    static let entries: [Method] = [
        Method("recording.start", .changesServer) { context throws(RPCError) in
            try context.allow(["session", "destination", "checkpoints", "checkpointEvery"])
            let session = try context.sessionBroughtToNow()
            let server = context.server
            if let existing = server.recordings[session.name] {
                throw .domain("invalid_state", existing.isWriting
                    ? "session '\(session.name)' is already being recorded (to \(existing.path)); stop that recording first: trellis record-script \(session.name) --stop"
                    : "a recording of '\(session.name)' has ended (\(existing.ended ?? "")) and waits to be collected: trellis record-script \(session.name) --stop")
            }
            guard server.recordings.count < maximumRecordings else {
                throw .domain("invalid_state", "this server already holds \(maximumRecordings) recordings (ended ones wait to be collected); stop one first: trellis record-script NAME --stop (recordings: \(server.recordings.keys.sorted().prefix(8).joined(separator: ", "))…)")
            }
            let destination = try context.optionalString("destination")
            if let destination {
                guard !destination.isEmpty, destination.utf8.count <= maximumDestinationBytes, !destination.hasControlCharacters else {
                    throw .invalidParams("params.destination: expected a path of 1 to \(maximumDestinationBytes) bytes without control characters")
                }
            }
            let modeName = try context.optionalString("checkpoints") ?? ScriptRecording.Checkpoints.frames.rawValue
            guard let mode = ScriptRecording.Checkpoints(rawValue: modeName) else {
                throw .invalidParams("params.checkpoints: expected \"frames\" (the default: after a change at most once a frame, and at the stop), \"changes\" (after every change) or \"marks\" (only at recording.mark), found \"\(modeName)\"")
            }
            var every = 1
            if let given = context.params.field("checkpointEvery") {
                let most = ScriptRecording.maximumCheckpointFrames
                guard case .number(let n) = given, n.isFinite, n == n.rounded(), n >= 1, n <= Double(most) else {
                    throw .invalidParams("params.checkpointEvery: expected a whole number of frames from 1 to \(most) (60 a second), found \(JSONWriter.string(given))")
                }
                guard mode == .frames else {
                    throw .invalidParams("params.checkpointEvery: goes with checkpoints \"frames\" only (it spaces those checkpoints), not \"\(mode.rawValue)\"")
                }
                every = Int(n)
            }
            guard let directory = server.configuration.stateDirectory else {
                throw .domain("invalid_state", "recording needs the server's state directory (it writes STATE/recordings/); this server runs without one (--no-persistence, or in process): start trellisd with --state-dir DIR")
            }
            // The header is the session's whole lasting state, as a snapshot holds it.
            var state = ByteBuffer()
            do throws(PersistenceError) { state = try StateSnapshot.encode(try SessionState(session)) } catch {
                throw .domain("invalid_state", "session '\(session.name)' cannot be recorded: \(error.description)")
            }
            let recording: ScriptRecording
            do throws(PersistenceError) {
                recording = try ScriptRecording.create(in: directory, session: session, destination: destination, checkpoints: mode,
                                                       checkpointEvery: every, historyBytes: server.configuration.maximumHistoryBytes)
            } catch {
                throw .domain("persistence_failed", "cannot start recording '\(session.name)': \(error.description)")
            }
            var lines = ByteBuffer(capacity: state.count + 512)
            RecordedScriptLines.header(session, state: state, into: &lines)
            RecordedScriptLines.checkpoint(session, into: &lines)
            // The first lines are written now: a disk that refuses them refuses the start.
            guard recording.append(lines, now: server.nowMilliseconds), recording.flush() else {
                recording.close()
                throw .domain("persistence_failed", "cannot start recording '\(session.name)': \(recording.ended ?? "the first lines were not written")")
            }
            server.armFlushes(recording)
            server.recordings[session.name] = recording
            session.recording = recording
            var result: [String: JSONValue] = ["session": .string(session.name), "path": .string(recording.path),
                                               "checkpoints": .string(mode.rawValue), "maximumBytes": .number(Double(ScriptRecording.maximumBytes))]
            if mode == .frames { result["checkpointEvery"] = .number(Double(every)) }
            return .object(result)
        },
        Method("recording.mark", .changesServer) { context throws(RPCError) in
            try context.allow(["session", "label"])
            let label = try context.optionalString("label") ?? ""
            guard label.utf8.count <= maximumLabelBytes, !label.hasControlCharacters else {
                throw .invalidParams("params.label: expected at most \(maximumLabelBytes) bytes on one line (no control characters)")
            }
            let session = try context.sessionBroughtToNow()
            let recording = try context.server.markRecording(of: session, label: label)
            return .object(["session": .string(session.name), "bytes": .number(Double(recording.bytes))])
        },
        Method("recording.stop", .changesServer) { context throws(RPCError) in
            try context.allow(["session"])
            let name = try context.string("session")
            // A destroyed session's recording is still collected here: it is looked up by name.
            guard let recording = context.server.recordings[name] else { throw Server.notRecording(name) }
            // Changes after the last checkpoint (`frames`) are pinned as the session is now.
            if recording.checkpoints == .frames, recording.unpinnedChanges, recording.isWriting, let session = recording.session, context.server.sessions[name] === session {
                context.server.closeCheckpoints(recording, session: try context.sessionBroughtToNow())
            }
            let bytes: [UInt8]
            do throws(PersistenceError) { bytes = try recording.contents() } catch {
                throw .domain("persistence_failed", "cannot read the recording of '\(name)' back: \(error.description); the recording goes on")
            }
            context.server.recordings[name] = nil
            if let session = recording.session, session.recording === recording { session.recording = nil }
            recording.close()
            var result: [String: JSONValue] = [
                "session": .string(name), "path": .string(recording.path), "bytes": .number(Double(bytes.count)),
                "changes": .number(Double(recording.changes)), "script": .string(String(decoding: bytes, as: UTF8.self)),
            ]
            if let destination = recording.destination { result["destination"] = .string(destination) }
            if let ended = recording.ended { result["ended"] = .string(ended) }
            return .object(result)
        },
        Method("recording.info", .reads) { context throws(RPCError) in
            try context.allow(["session"])
            let server = context.server
            let recording = try server.recording(&context)
            let history = recording.history
            let name = try context.string("session")
            let (end, lastFrame) = server.seekRange(history, session: name, context: context)
            func milliseconds(_ time: Double) -> JSONValue { .number(WireEncoding.milliseconds(time - history.startTime)) }
            let marks: [JSONValue] = history.marks.map { mark in
                .object(["label": .string(mark.label), "at": milliseconds(mark.time), "frame": .number(Double(history.frame(at: mark.time)))])
            }
            var result: [String: JSONValue] = [
                "session": .string(name), "path": .string(recording.path), "checkpoints": .string(recording.checkpoints.rawValue),
                "writing": .bool(recording.isWriting), "changes": .number(Double(history.changes.count)),
                "at": milliseconds(end), "lastFrame": .number(Double(lastFrame)), "marks": .array(marks),
            ]
            if let ended = recording.ended { result["ended"] = .string(ended) }
            if let stopped = history.stopped { result["historyEnded"] = .string(stopped.reason) }
            return .object(result)
        },
        Method("session.seek", .reads) { context throws(RPCError) in
            try context.allow(["session", "at", "atFrame"])
            let server = context.server
            let history = try server.recording(&context).history
            let name = try context.string("session")
            let moment = try server.seekMoment(context, history: history, required: true)!
            // A long replay goes on over later loop turns (SessionSeek), the loop serving others.
            return try server.seek(history, name: name, at: moment.time, &context) { (session: Session) throws(RPCError) -> DeferredOutcome in
                var b = ByteBuffer(capacity: 4096)
                var o = JSONObjectWriter(into: &b)
                o.field("at", moment.at, into: &b)
                if let frame = moment.frame { o.field("frame", frame, into: &b) }
                o.key("scene", into: &b)
                WireEncoding.writeScene(session.collectionView.scene, into: &b)
                o.field("session", name, into: &b)
                o.field("time", WireEncoding.milliseconds(session.collectionView.time), into: &b)
                o.end(into: &b)
                return .encoded(b)
            }
        },
    ]
}

extension String {
    /// Whether a control character (a line end among them) is in the text.
    var hasControlCharacters: Bool { unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f } }
}
