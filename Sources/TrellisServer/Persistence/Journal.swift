#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol

/// Why the server's state could not be read or written, naming the file (and line) concerned.
public struct PersistenceError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }

    /// `what` failed on `path` with the current errno.
    static func system(_ what: String, _ path: String) -> PersistenceError {
        PersistenceError("\(what) \(path): \(String(cString: strerror(errno)))")
    }

    /// A NaN or an infinity reached what would be written to `path` (a bug): refused, so a
    /// snapshot or journal never holds `null` where a number belongs and the next start works.
    static func nonFinite(_ path: String) -> PersistenceError {
        PersistenceError("refused to write \(path): it would hold a non-finite number (NaN or infinity), which JSON cannot carry and the next start could not read. This is a server bug; please report it with the requests that led here")
    }
}

/// One accepted mutation as the journal keeps it: the request's method and params, and for a
/// live session the engine time it applied at, so a replay puts it at the same moment of the
/// same animations. One NDJSON line:
/// `{"seq":7,"method":"batch","session":"demo","time":1.25,"params":{…}}`.
struct JournalEntry: Equatable {
    /// Increases by one per line over the server's whole history; a snapshot records the last
    /// seq it covers, so lines it already holds are skipped even if the journal was not cut yet.
    var seq: Int
    var method: String
    var params: JSONValue
    /// The live session the request touched, and its engine time (seconds) when it applied.
    var session: String?
    var time: Double?

    /// The line, with its line end.
    var line: ByteBuffer {
        Self.line(seq: seq, method: method, session: session, time: time) { JSONWriter.write(params, into: &$0) }
    }

    /// A line whose params `writeParams` writes as JSON straight into it: a request whose params
    /// were never a JSON tree (a chunked reload's million items) is journaled without one.
    static func line(seq: Int, method: String, session: String?, time: Double?,
                     capacity: Int = 128, writeParams: (inout ByteBuffer) -> Void) -> ByteBuffer {
        var b = ByteBuffer(capacity: capacity)
        var o = JSONObjectWriter(into: &b)
        o.field("seq", seq, into: &b)
        o.field("method", method, into: &b)
        if let session { o.field("session", session, into: &b) }
        if let time { o.field("time", time, into: &b) }
        o.key("params", into: &b)
        writeParams(&b)
        o.end(into: &b)
        b.append(10)
        return b
    }

    /// Reads a parsed line; the error says what is wrong with it.
    init(_ value: JSONValue) throws(ParamError) {
        try value.rejectUnknownKeys(allowed: ["seq", "method", "session", "time", "params"], path: "line")
        seq = try value.requireInt("seq", in: "line")
        method = try value.requireString("method", in: "line")
        params = try value.requireObject("params", in: "line")
        session = try value.optionalString("session", in: "line")
        time = try value.optionalNumber("time", in: "line")
    }

    /// The session the request acted on: `params.session`, or the one `session.create` made.
    var sessionName: String? {
        params.field("session")?.stringValue ?? (method == "session.create" ? params.field("name")?.stringValue : nil)
    }

    init(seq: Int, method: String, params: JSONValue, session: String? = nil, time: Double? = nil) {
        self.seq = seq; self.method = method; self.params = params; self.session = session; self.time = time
    }
}

/// What a journal file holds: its whole lines, and a torn last line if a crash cut a write short.
struct JournalContents: Equatable {
    /// Each entry with its 1-based line number (for messages).
    var entries: [(line: Int, entry: JournalEntry)]
    /// Bytes up to the end of the last whole line: the file is cut back to this.
    var validLength: Int
    /// Bytes after the last line end (0 when the file ends with a whole line).
    var tornTailBytes: Int

    static func == (a: JournalContents, b: JournalContents) -> Bool {
        a.validLength == b.validLength && a.tornTailBytes == b.tornTailBytes
            && a.entries.map(\.line) == b.entries.map(\.line) && a.entries.map(\.entry) == b.entries.map(\.entry)
    }
}

enum JournalParser {
    /// Journal lines may be one level deeper than the request they hold and as large; they
    /// come from our own disk, so the limits only keep a damaged file from exhausting memory.
    static let limits = JSONLimits(maximumDepth: 128, maximumStringBytes: 1 << 30, maximumElements: 1 << 30)

    /// Splits `bytes` into lines and reads each. Only the last line may be incomplete (no line
    /// end: a write cut short by a crash); it is reported, not read. Any other line that does
    /// not read stops everything with an error naming `file` and the line, since skipping it
    /// would replay the rest onto the wrong state. Empty lines are skipped.
    static func parse(_ bytes: [UInt8], file: String) throws(PersistenceError) -> JournalContents {
        var entries: [(line: Int, entry: JournalEntry)] = []
        var start = 0, lineNumber = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: 10) else {
                return JournalContents(entries: entries, validLength: start, tornTailBytes: bytes.count - start)
            }
            lineNumber += 1
            defer { start = end + 1 }
            if end == start { continue }
            let value: JSONValue
            do { value = try JSONParser.parse(bytes[start..<end], limits: limits) } catch {
                throw PersistenceError("\(file):\(lineNumber): not a journal line (\(error.message)); the journal is damaged before its end, so the sessions cannot be restored exactly. Move the file aside (or start with --no-persistence) to start anyway")
            }
            do { entries.append((lineNumber, try JournalEntry(value))) } catch {
                throw PersistenceError("\(file):\(lineNumber): not a journal line (\(error.message)); move the file aside (or start with --no-persistence) to start anyway")
            }
        }
        return JournalContents(entries: entries, validLength: bytes.count, tornTailBytes: 0)
    }
}

/// The open journal: appended with plain `write(2)` (synchronous and ordered; lines are small
/// and the loop does nothing else meanwhile), fsynced when the policy says, and held under an
/// exclusive `flock` so a second server cannot interleave its lines with ours.
final class JournalFile {
    let path: String
    private(set) var fd: Int32
    /// Bytes in the file: where the next line starts.
    private(set) var size: Int
    /// Bytes written since the last fsync.
    private(set) var isDirty = false

    /// Opens (creating it 0600) and locks the journal; fails when another process holds it or
    /// when the path is a symbolic link (never followed: a planted link must not make the
    /// server write into someone else's file).
    init(path: String) throws(PersistenceError) {
        self.path = path
        fd = -1
        size = 0
        try open()
    }

    private func open() throws(PersistenceError) {
        var existed = stat()
        let isNew = lstat(path, &existed) != 0
        fd = Glibc.open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP {
                throw PersistenceError("\(path) is a symbolic link; the journal is never opened through one (something planted it?): remove it, or choose another --state-dir")
            }
            throw .system("cannot open the journal", path)
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let busy = errno == EWOULDBLOCK
            Glibc.close(fd)
            fd = -1
            if busy {
                throw PersistenceError("another trellisd is using the state in \(FileIO.directory(of: path)) (its journal is locked); give each server its own --state-dir")
            }
            throw .system("cannot lock", path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system("cannot inspect", path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close()
            throw PersistenceError("\(path) is not a regular file; remove it, or choose another --state-dir")
        }
        size = Int(info.st_size)
        isDirty = false
        // A new file's name must reach the disk too, or a crash could lose the whole journal.
        if isNew { try FileIO.syncDirectory(of: path) }
    }

    /// True while the path still names the file we write: a state directory deleted (or a
    /// journal removed or replaced) under a running server leaves it appending to a file no
    /// restart would ever read.
    var isInPlace: Bool {
        var atPath = stat(), open = stat()
        guard fd >= 0, lstat(path, &atPath) == 0, fstat(fd, &open) == 0 else { return false }
        return atPath.st_dev == open.st_dev && atPath.st_ino == open.st_ino
    }

    /// True when nothing is at the path any more (as opposed to another file put there).
    var isGone: Bool {
        var atPath = stat()
        return lstat(path, &atPath) != 0 && (errno == ENOENT || errno == ENOTDIR)
    }

    /// Opens a new, empty journal at the path after the old one vanished.
    func reopen() throws(PersistenceError) {
        close()
        try open()
    }

    deinit { close() }

    /// The whole file.
    func readAll() throws(PersistenceError) -> [UInt8] { try read(from: 0) }

    /// The file from byte `offset` to its end.
    private func read(from offset: Int) throws(PersistenceError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, size - offset))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .system("cannot read", path) }
            done += n
        }
        return bytes
    }

    /// Appends whole lines. On failure the file is cut back to where it was, so a half-written
    /// line can never sit in front of later ones.
    func append(_ buffer: ByteBuffer) throws(PersistenceError) {
        guard !buffer.holdsNonFiniteNumber else { throw .nonFinite(path) }
        let written: Bool = buffer.withUnsafeBytes { raw in FileIO.writeAll(fd, raw) }
        guard written else {
            let failure = PersistenceError.system("cannot append to", path)
            _ = ftruncate(fd, off_t(size))
            throw failure
        }
        size += buffer.count
        isDirty = true
    }

    func sync() throws(PersistenceError) {
        guard isDirty else { return }
        guard fsync(fd) == 0 else { throw .system("cannot fsync", path) }
        isDirty = false
    }

    /// Cuts the file to `length` bytes and makes that durable.
    func truncate(to length: Int) throws(PersistenceError) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw .system("cannot truncate", path) }
        size = length
        isDirty = true
        try sync()
    }

    /// Keeps only what lies past the first `length` bytes (lines a snapshot now holds). Lines
    /// written after that point (requests served while the snapshot was written off the loop)
    /// go to a new file, fsynced and locked before it is renamed over the journal: a crash leaves
    /// one whole journal or the other, and no second server can take the new one in between.
    func dropFirst(_ length: Int) throws(PersistenceError) {
        guard length < size else { return try truncate(to: 0) }
        let tail = try read(from: length)
        let temporary = path + ".tmp"
        let next = try FileIO.createTemporary(temporary, flags: O_RDWR | O_APPEND)
        guard flock(next, LOCK_EX | LOCK_NB) == 0 else {
            let failure = PersistenceError.system("cannot lock", temporary)
            Glibc.close(next)
            unlink(temporary)
            throw failure
        }
        try FileIO.writeDurably(ByteBuffer(tail), to: next, temporary: temporary)
        guard rename(temporary, path) == 0 else {
            let failure = PersistenceError.system("cannot rename \(temporary) over", path)
            Glibc.close(next)
            unlink(temporary)
            throw failure
        }
        // The path names the new file from here on, whatever the directory's fsync says.
        Glibc.close(fd)
        fd = next
        size = tail.count
        isDirty = false
        try FileIO.syncDirectory(of: path)
    }

    /// Closes the file, which releases the lock.
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }
}

/// The few file operations persistence needs, with errno turned into messages.
enum FileIO {
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// write(2) until everything is written; false on error (errno says why).
    static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < raw.count {
            let n = write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// The whole file, or nil when it does not exist.
    static func read(_ path: String) throws(PersistenceError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw PersistenceError("\(path) is a symbolic link; state files are never read through one: remove it") }
            throw .system("cannot open", path)
        }
        defer { Glibc.close(fd) }
        // Read straight into an array of the file's size (a snapshot can be tens of megabytes);
        // it still grows if the file does meanwhile.
        var info = stat()
        var bytes = [UInt8](repeating: 0, count: fstat(fd, &info) == 0 ? max(Int(info.st_size), 0) : 0)
        var done = 0
        while true {
            if done == bytes.count { bytes += [UInt8](repeating: 0, count: max(1 << 16, bytes.count / 2)) }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .system("cannot read", path) }
            if n == 0 {
                bytes.removeLast(bytes.count - done)
                return bytes
            }
            done += n
        }
    }

    /// Replaces `path` atomically and durably: a temporary file written and fsynced, renamed
    /// over `path`, then the directory fsynced so the rename itself survives a crash. The
    /// temporary file is always a new one (O_EXCL, no link followed): whatever sits at its name
    /// (a crash's leftover, a planted link) is removed, never written through.
    static func replace(_ path: String, with bytes: ByteBuffer) throws(PersistenceError) {
        guard !bytes.holdsNonFiniteNumber else { throw .nonFinite(path) }
        let temporary = path + ".tmp"
        let fd = try createTemporary(temporary)
        try writeDurably(bytes, to: fd, temporary: temporary)
        Glibc.close(fd)
        try install(temporary, over: path)
    }

    /// Creates `temporary` afresh (O_EXCL, no link followed, mode 0600) for `flags`' access:
    /// whatever sits at its name (a crash's leftover, a planted link) is removed, never written through.
    static func createTemporary(_ temporary: String, flags access: Int32 = O_WRONLY) throws(PersistenceError) -> Int32 {
        let flags = access | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        var fd = open(temporary, flags, 0o600)
        if fd < 0 && errno == EEXIST {
            unlink(temporary)   // removes a link itself, not what it points to
            fd = open(temporary, flags, 0o600)
        }
        guard fd >= 0 else { throw .system("cannot create", temporary) }
        return fd
    }

    /// Writes all of `bytes` to `fd` and fsyncs it; on failure the file is closed and removed.
    static func writeDurably(_ bytes: ByteBuffer, to fd: Int32, temporary: String) throws(PersistenceError) {
        let written: Bool = bytes.withUnsafeBytes { raw in writeAll(fd, raw) }
        guard written, fsync(fd) == 0 else {
            let failure = PersistenceError.system("cannot write", temporary)
            Glibc.close(fd)
            unlink(temporary)
            throw failure
        }
    }

    /// Renames a written and fsynced `temporary` over `path`, then fsyncs the directory so the
    /// rename itself survives a crash.
    static func install(_ temporary: String, over path: String) throws(PersistenceError) {
        guard rename(temporary, path) == 0 else {
            let failure = PersistenceError.system("cannot rename \(temporary) over", path)
            unlink(temporary)
            throw failure
        }
        try syncDirectory(of: path)
    }

    static func syncDirectory(of path: String) throws(PersistenceError) {
        let directory = directory(of: path)
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .system("cannot open", directory) }
        defer { Glibc.close(fd) }
        guard fsync(fd) == 0 else { throw .system("cannot fsync", directory) }
    }

    /// mkdir -p; what it creates gets mode 0700 (the state holds the users' data). The state
    /// directory itself must then be ours and writable by no one else, as tmux checks its socket
    /// directory and ssh's StrictModes a home: otherwise anyone could plant files (or links) in it.
    static func makeDirectories(_ directory: String) throws(PersistenceError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .system("cannot create", prefix)
            }
        }
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw PersistenceError("\(directory) is not a directory; choose another --state-dir")
        }
        guard info.st_uid == geteuid() else {
            throw PersistenceError("the state directory \(directory) belongs to uid \(info.st_uid), not to this server's uid \(geteuid()); choose a directory of your own with --state-dir")
        }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw PersistenceError("the state directory \(directory) is writable by its group or by others (mode \(String(info.st_mode & 0o7777, radix: 8))), so anyone could plant files in it; run chmod 700 \(directory), or choose another --state-dir")
        }
    }
}
