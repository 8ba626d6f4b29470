#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol
import TrellisTransport

/// One session's flight recording: a `trellis run` script the server appends to as changes
/// are accepted, in `STATE/recordings/` (made 0700; the file created new, O_EXCL and
/// O_NOFOLLOW, 0600: nothing planted there is ever written through). It holds at most
/// `maximumBytes`; past that, or when a write fails or the file vanishes, it ends with a reason
/// and keeps what was written (read back through the open descriptor even if the name is gone).
/// Lines are gathered and written together (`flushBytes`, or `flushMilliseconds` after the
/// first, by the server's timer), not one write per change: a system call per change was a
/// tenth of a recorded request's time.
final class ScriptRecording {
    /// Gathered lines are written once they hold this many bytes…
    static let flushBytes = 64 << 10
    /// …or this long after the first of them (ms), or before the file is read back or ended.
    static let flushMilliseconds: UInt64 = 50

    /// The most a recording holds (8 MiB): the stop's reply carries the whole script.
    static let maximumBytes = 8 << 20
    /// Kept free for the line that says why a recording ended.
    private static let closingRoom = 256

    /// When checkpoints (`expect` lines) are written (besides the one at the start).
    enum Checkpoints: String, Sendable {
        /// At most one a frame (the default): after a change made a frame (1/60 s of session
        /// time) or more after the last checkpoint, at each mark, and at the stop when changes
        /// came after the last one. A burst of changes in one frame is pinned once, by the next
        /// checkpoint, so a script's expectations track what viewers saw frame by frame and
        /// their cost does not grow with the request rate: one after every change was most of
        /// what a recording cost a scroll.to (tools/bench rpc recording).
        case frames
        /// After every change (and at each mark).
        case changes
        /// Only at marks (`recording.mark`).
        case marks
    }

    /// The length of a frame for `Checkpoints.frames` (seconds of session time), less what the
    /// wire rounds away (a tick of 16.666666666666668 ms is a frame).
    /// The most frames `checkpointEvery` may ask between checkpoints (ten minutes at 60 a second).
    static let maximumCheckpointFrames = 36_000

    let sessionName: String
    /// The name as a script word (`RecordedScriptLines.word`), made once.
    let sessionWord: String
    /// The buffer a change's lines are made in, lent out and back (`takeLines`, `giveBack`) so
    /// that a recorded request allocates none.
    private var lineBuffer = ByteBuffer(capacity: 1024)
    /// The session recorded; a new session of the same name is another one.
    private(set) weak var session: Session?
    let path: String
    /// What the client asked the script be copied to (its own path, given back at the stop).
    let destination: String?
    let checkpoints: Checkpoints
    /// With `.frames`: at most one checkpoint every this many frames (1 to `maximumCheckpointFrames`).
    let checkpointEvery: Int
    private var fd: Int32
    /// What the script holds: written to the file, and gathered (`pending`).
    private(set) var bytes = 0
    /// Bytes in the file.
    private var written = 0
    private var pending = ByteBuffer()
    /// Called when lines start gathering (the server arms its flush timer).
    var onPending: () -> Void = {}
    /// The timer that writes gathered lines (`flushMilliseconds`); nil in a server without a loop.
    var flushTimer: LoopTimer?
    private(set) var changes = 0
    /// The engine time (seconds) of the last checkpoint written, and whether changes were written
    /// after it (which a closing checkpoint then pins).
    private(set) var checkpointTime: Double
    private(set) var unpinnedChanges = false
    /// The engine time (seconds) the script has brought the session to so far.
    var scriptTime: Double
    /// Why nothing more is written, once that is so. The history stops there too: it grows only
    /// beside the file, so the file's limit bounds it as well.
    private(set) var ended: String? {
        didSet {
            guard oldValue == nil, let ended else { return }
            history.stop(at: session?.collectionView.time ?? scriptTime, "the recording stopped (\(ended))")
        }
    }
    /// The session's past since the start, for seeks; it stops when the file ends, and stays
    /// (seeks reach up to its end) until the recording is collected.
    let history: SessionHistory

    private init(session: Session, path: String, fd: Int32, destination: String?, checkpoints: Checkpoints,
                 checkpointEvery: Int, historyBytes: Int) {
        self.checkpointEvery = checkpointEvery
        sessionName = session.name
        sessionWord = RecordedScriptLines.word(session.name)
        self.session = session
        self.path = path
        self.fd = fd
        self.destination = destination
        self.checkpoints = checkpoints
        scriptTime = session.collectionView.time
        checkpointTime = scriptTime
        history = SessionHistory(session: session, changeBytesLimit: historyBytes)
    }

    deinit { close() }

    /// A new recording file in `STATE/recordings/`, named after the time (Unix seconds) and a counter.
    /// `historyBytes`: the most bytes of changes its history keeps (`SessionHistory.maximumChangeBytes`).
    static func create(in stateDirectory: String, session: Session, destination: String?, checkpoints: Checkpoints,
                       checkpointEvery: Int = 1, historyBytes: Int = SessionHistory.maximumChangeBytes) throws(PersistenceError) -> ScriptRecording {
        let stamp = Int(time(nil))
        let directory = stateDirectory + "/recordings"
        if mkdir(directory, 0o700) != 0 && errno != EEXIST { throw .system("cannot create", directory) }
        var info = stat()
        guard lstat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw PersistenceError("\(directory) is not a directory (a link or a file was put there?); remove it to record")
        }
        guard info.st_uid == geteuid(), info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw PersistenceError("\(directory) is not this server's own directory (owner or mode); run chmod 700 on it, or remove it")
        }
        for attempt in 0..<100 {
            let path = "\(directory)/\(stamp)-\(attempt).trellis"
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd >= 0 { return ScriptRecording(session: session, path: path, fd: fd, destination: destination, checkpoints: checkpoints,
                                                 checkpointEvery: checkpointEvery, historyBytes: historyBytes) }
            if errno != EEXIST { throw .system("cannot create", path) }
        }
        throw PersistenceError("cannot create a recording in \(directory): 100 names taken; remove old recordings")
    }

    var isWriting: Bool { ended == nil }

    /// The empty line buffer, to make a change's lines in; `giveBack` returns it.
    func takeLines() -> ByteBuffer {
        var lines = ByteBuffer()
        swap(&lines, &lineBuffer)
        lines.clear()
        return lines
    }

    /// Takes back the buffer `takeLines` lent (kept unless one line made it large).
    func giveBack(_ lines: ByteBuffer) {
        if lines.capacity <= 64 << 10 { lineBuffer = lines }
    }

    /// Counts one change written; `pinned`: a checkpoint was written after it.
    func noteChange(pinned: Bool) {
        changes += 1
        unpinnedChanges = !pinned
    }

    /// Whether a change made at `time` gets a checkpoint after it.
    func checkpointDue(at time: Double) -> Bool {
        switch checkpoints {
        case .changes: return true
        case .frames: return time - checkpointTime >= Double(checkpointEvery) / SessionHistory.framesPerSecond - SessionHistory.sameMoment
        case .marks: return false
        }
    }

    /// Notes a checkpoint written at `time`.
    func noteCheckpoint(at time: Double) {
        checkpointTime = time
        unpinnedChanges = false
    }

    /// Appends `line` (whole lines). Returns false when the recording ended here (limit, failed
    /// write, file gone); `ended` says why.
    /// How often (ms of loop time) a write checks that the file is still in place.
    static let placeCheckInterval = 100.0
    private var lastPlaceCheck = -Double.infinity

    /// `now`: the loop's time in ms (for the check above).
    @discardableResult
    func append(_ line: ByteBuffer, now: Double) -> Bool {
        guard ended == nil else { return false }
        guard !line.holdsNonFiniteNumber else {
            end("a non-finite number (NaN or infinity) reached a line, which no script can carry (a server bug)")
            return false
        }
        // Whether the file is still where it was, checked at most every `placeCheckInterval`:
        // two system calls a change otherwise. Lines written meanwhile into a removed file are
        // still read back through the descriptor, so nothing is lost, only noticed late.
        if now - lastPlaceCheck >= Self.placeCheckInterval || now < lastPlaceCheck {
            lastPlaceCheck = now
            guard isInPlace else {
                flush()
                if ended == nil {
                    ended = "the recording file \(path) was removed or replaced (its directory deleted?); what was written before is kept"
                }
                return false
            }
        }
        guard bytes + line.count <= Self.maximumBytes - Self.closingRoom else {
            end("it reached its limit of \(Self.maximumBytes) bytes")
            return false
        }
        let wasEmpty = pending.count == 0
        if wasEmpty && pending.capacity < 4096 { pending.reserveCapacity(Self.flushBytes + 4096) }
        pending.append(line)
        bytes += line.count
        if pending.count >= Self.flushBytes { return flush() }
        if wasEmpty { onPending() }
        return true
    }

    /// Writes the gathered lines. False when the write failed: the recording then ended there
    /// (`ended` says why), the file holding the lines written before.
    @discardableResult
    func flush() -> Bool {
        guard pending.count > 0 else { return true }
        let done = write(pending)
        pending.clear()
        bytes = written
        if !done && ended == nil {
            ended = "writing \(path) failed (\(String(cString: strerror(errno)))); what was written before is kept"
        }
        return done
    }

    /// Ends the recording with a closing comment saying why (after the lines gathered so far).
    func end(_ reason: String) {
        guard ended == nil else { return }
        let inPlace = isInPlace
        // Gathered lines go to the file even when its name is gone: they are read back through it.
        flush()
        guard ended == nil else { return }
        ended = reason
        var line = ByteBuffer(capacity: 128)
        line.append(utf8: "# recording ended: \(reason.prefix(Self.closingRoom - 24))\n")
        if inPlace, write(line) { bytes = written }
    }

    private func write(_ lines: ByteBuffer) -> Bool {
        guard fd >= 0 else { return false }
        let done: Bool = lines.withUnsafeBytes { raw in FileIO.writeAll(fd, raw) }
        if done {
            written += lines.count
        } else {
            _ = ftruncate(fd, off_t(written))   // no half line at the end
        }
        return done
    }

    /// True while the path still names the file we write.
    private var isInPlace: Bool {
        var atPath = stat(), open = stat()
        guard fd >= 0, lstat(path, &atPath) == 0, fstat(fd, &open) == 0 else { return false }
        return atPath.st_dev == open.st_dev && atPath.st_ino == open.st_ino
    }

    /// What was written, read through the open descriptor (so even a removed file gives it).
    func contents() throws(PersistenceError) -> [UInt8] {
        flush()
        var result = [UInt8](repeating: 0, count: written)
        var done = 0
        while done < result.count {
            let n = result.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .system("cannot read back", path) }
            done += n
        }
        return result
    }

    func close() {
        flushTimer?.stop()
        guard fd >= 0 else { return }
        flush()
        Glibc.close(fd)
        fd = -1
    }
}
