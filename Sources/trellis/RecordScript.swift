import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis record-script NAME --out FILE` … `trellis record-script NAME --stop`: the flight
/// recorder. The server writes every accepted change to the session as a `trellis run` script
/// under its state directory; the stop hands the script over and this command copies it to FILE.
struct RecordScript: ParsableCommand, OptionChecks {
    static let configuration = CommandConfiguration(
        commandName: "record-script",
        abstract: "Record a session as a trellis run script (start with --out FILE, end with --stop).",
        discussion: """
            From the start on, every change the server accepts for the session, from any client \
            (the CLI, a browser with --control, raw rpc requests), becomes a script line: the \
            readable command where one says exactly the same (advance, scroll --to, kill), else \
            `rpc METHOD '{params}'` with the request as it came (a gesture keeps its samples). \
            The ticks between changes become `advance` lines, so replaying the script with \
            `trellis run` (sessions on a manual clock) reproduces every frame bit for bit. Its \
            first line makes the session as it was at the start (its whole state, as a snapshot \
            holds it). At checkpoints `expect` lines pin the scene: time, views on screen, \
            offset, content size, the scroll's state, the animator's, and the frames of the \
            first and last cells on screen (tolerance 0.5). --checkpoints frames (the default): \
            after a change at most once a frame (1/60 s of session time; changes in one frame \
            are pinned together by the next checkpoint), at each `trellis mark NAME LABEL`, and \
            at --stop when changes came after the last one (--checkpoint-every N: at most \
            one every N frames); changes: after every change; marks: only at marks.

            The server writes the file under its state directory (STATE/recordings/, created \
            new, never through a link), at most 8 MiB; a server with --no-persistence cannot \
            record. A recording that reaches the limit, whose file fails or vanishes, stops and \
            sends recording.stopped to the session's viewers; what was written is kept. --stop \
            collects the script and writes it to FILE (the --out given at the start, or a new \
            --out), or prints it when there is none. Exit 73 when FILE cannot be written (at \
            the start, nothing is recorded; at the stop, the script stays on the server).
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String
    @Option(help: ArgumentHelp("Where the script goes (at the start; or at --stop, instead of the start's).", valueName: "file"))
    var out: String?
    @Flag(help: "End the recording and write the script.") var stop = false
    @Option(help: ArgumentHelp("When expect lines are written: frames (at most once a frame, and at the stop), changes (after each) or marks (only at trellis mark).", valueName: "when"))
    var checkpoints: String = "frames"
    @Option(help: ArgumentHelp("With --checkpoints frames: at most one checkpoint every N frames (60 a second), 1 to 36000.", valueName: "n"))
    var checkpointEvery: Int?

    func checkOptions() throws {
        guard stop || out != nil else { throw optionError("give --out FILE to start recording, or --stop to end it") }
        guard ["frames", "changes", "marks"].contains(checkpoints) else {
            throw optionError("--checkpoints: expected frames, changes or marks, found '\(checkpoints)'")
        }
        if let every = checkpointEvery {
            guard (1...36_000).contains(every) else { throw optionError("--checkpoint-every: expected a whole number of frames from 1 to 36000 (60 a second), found \(every)") }
            guard checkpoints == "frames" else { throw optionError("--checkpoint-every goes with --checkpoints frames only, not \(checkpoints)") }
        }
    }

    func run() throws {
        try checkOptions()
        if stop { return try finish() }
        let destination = Self.absolute(out!)
        // A destination that cannot be written is found now, before anything is recorded.
        if let problem = Self.writability(destination) {
            printError("trellis: cannot write \(destination): \(problem); the recording did not start")
            throw ExitCode(cannotCreateExit)
        }
        try withServer(global, session: name) { c in
            var params: [String: JSONValue] = ["session": .string(name), "destination": .string(destination), "checkpoints": .string(checkpoints)]
            if let every = checkpointEvery { params["checkpointEvery"] = .number(Double(every)) }
            let started = try c.call("recording.start", params)
            c.emit(started) { r in
                ["recording \(name) (server file \(r["path"]?.stringValue ?? "?")); end with: trellis record-script \(name) --stop"]
            }
        }
    }

    private func finish() throws {
        try withServer(global, session: name) { c in
            let stopped = try c.call("recording.stop", ["session": .string(name)])
            let script = stopped["script"]?.stringValue ?? ""
            let target = out.map(Self.absolute) ?? stopped["destination"]?.stringValue
            var summary = "\(Human.number(stopped["changes"])) changes, \(Human.number(stopped["bytes"])) bytes"
            if let ended = stopped["ended"]?.stringValue { summary += "; it had stopped: \(ended)" }
            guard let target else {
                printOutput(script)
                return
            }
            if let problem = Self.write(script, to: target) {
                printError("trellis: cannot write \(target): \(problem); the script is kept on the server at \(stopped["path"]?.stringValue ?? "?")")
                throw ExitCode(cannotCreateExit)
            }
            c.emit(stopped.removing("script")) { _ in ["wrote \(target): \(summary)"] }
        }
    }

    /// `path` from the current directory (the server keeps it for the stop, run from anywhere).
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Why `path` cannot be written, or nil: an existing file must be writable, a new one's
    /// directory must let us create it (tried, and the trial file removed).
    static func writability(_ path: String) -> String? {
        if access(path, F_OK) == 0 {
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return "it is a directory" }
            return access(path, W_OK) == 0 ? nil : String(cString: strerror(errno))
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        close(fd)
        unlink(path)
        return nil
    }

    /// Writes `text` to `path` (replacing it); nil, or why it failed.
    static func write(_ text: String, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return String(cString: strerror(errno)) }
            done += n
        }
        return nil
    }
}

/// `trellis mark NAME LABEL`: a labelled checkpoint in the session's recording.
struct Mark: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write '# mark: LABEL' and a checkpoint (expect lines) into a session's recording.")

    @OptionGroup var session: SessionArguments
    @Argument(help: "The label (one line, at most 200 bytes).") var label: String = ""

    func run() throws {
        try session.call("recording.mark", ["label": .string(label)]) { r in ["marked (\(Human.number(r["bytes"])) bytes recorded)"] }
    }
}

extension JSONValue {
    /// The object without `key`.
    fileprivate func removing(_ key: String) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = nil
        return .object(members)
    }
}
