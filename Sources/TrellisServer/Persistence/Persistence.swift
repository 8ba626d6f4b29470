// Sessions survive restarts: a journal of accepted mutations, compacted into a snapshot.
//
// The invariant (DESIGN.md): a mutation that was acknowledged survives a crash of the server.
// Journal first, acknowledge second, as Redis's append-only file does.
//
// Files, in the state directory (`--state-dir`; by default `$XDG_STATE_HOME/trellis/<key>`,
// else `~/.local/state/trellis/<key>`, the key naming the socket path, e.g.
// `default-3f09c1d2a4b5e6f7`: a server's state belongs to its socket):
//   journal.ndjson  one line per accepted mutating request, in the order applied:
//                   {"seq":7,"method":"batch","session":"demo","time":1.25,"params":{…}}
//   snapshot.json   every session's lasting state and the last seq it covers (StateSnapshot)
// The journal is held under an exclusive flock: a second server on the same state refuses to start.
//
// Journal. The requests themselves are the record: the methods whose table entry says they
// change a session (`MethodEffect.changesSession`) are checked durable before they run
// (`ensureWritable`), and after the handler succeeded and before its reply is written, the
// dispatcher calls `record`, which appends the method and params (`write(2)`, synchronous and
// ordered; lines are small and the loop does nothing else meanwhile). Refused requests changed
// nothing and are not written; nor are reads (queries, attach/detach, stats, hello) or shutdown. For a live session the line also carries the engine time the
// request applied at, so a replay runs it at the same moment of the same animations; a
// manual session's time moves only by clock.advance, which is journaled like the rest.
//
// fsync (`--fsync`, Redis's appendfsync): `always` fsyncs before each reply (nothing
// acknowledged is lost even on power failure); `everysec` (default) arms a one-shot one-second
// libuv timer at the first unsynced write, so at most a second is lost on power failure and
// nothing ticks when idle; `no` leaves it to the kernel. A crash of the process alone loses
// nothing under any policy: written lines are in the kernel's cache.
//
// Compaction (Redis's background rewrite). When the journal passes `compactionBytes` (4 MiB),
// every session's state is taken on the loop (a reference: the data is copy-on-write) and
// written off it, on libuv's thread pool, to `snapshot.json.next`, fsynced; back on the loop it
// is renamed over `snapshot.json`, the directory fsynced, and only then does the journal lose
// the lines the snapshot holds. Lines journaled while it was written stay: they go to
// `journal.ndjson.tmp`, fsynced and locked, renamed over the journal (a cut to zero when there
// are none). A crash between the rename and the cut leaves lines the snapshot already holds:
// their seq is at most the snapshot's, and they are skipped. Where memory is ahead of the files
// (a failed write), the snapshot is written on the loop instead, before anything is
// acknowledged. Motion in flight is state like any other (StateSnapshot's `motion`: running
// animations, an animated scroll, an interactive transition and its progress), so compaction
// never waits for stillness and drops nothing.
//
// Restore, when the server starts (before it serves anyone): the snapshot's sessions are
// rebuilt (with what was in flight), then the journal's later lines are replayed through the
// same method table. A last line without its line end (a write cut short by a crash) is
// dropped with a warning and cut from the file; a damaged line anywhere else (the file itself
// is not what we wrote) stops the start with an error naming the file and line. A session
// whose state cannot be read or whose line fails to replay is set aside, not the server: it is
// logged with why, its later lines are skipped, the snapshot and journal as they were are
// copied into `failed/` beside them, `session.list` and `stats` show it as failed, and every
// other session starts; a snapshot is then taken at once, so the next start is clean. Live
// sessions then land their animations (their clock resumes from there); manual sessions stay
// exactly where their clock was, mid-motion included.
//
// Not kept across a restart: frame numbers and viewers (they attach again and get a keyframe).
// View ids and reuse counters come back only when the journal alone rebuilds a manual session;
// a snapshot or a live session's landing gives fresh ones.
//
// If a journal write fails (disk full), the change is already applied in memory, so the reply
// is an error saying it is not saved, and until a snapshot succeeds every later mutation
// retries one (the snapshot then holds everything) rather than journal lines after a gap.

import Logging
import TrellisCore
import TrellisProtocol
import TrellisTransport
#if canImport(Glibc)
import Glibc
#endif

/// When journal writes are forced to disk, as Redis's appendfsync.
public enum FsyncPolicy: String, Sendable, CaseIterable {
    /// Before each reply.
    case always
    /// At most a second after a write.
    case everysec
    /// When the kernel decides (and at shutdown and compaction).
    case no
}

/// Where a server keeps its sessions when `--state-dir` is not given.
public enum StatePaths {
    /// `$XDG_STATE_HOME/trellis/<key>` (an absolute XDG_STATE_HOME only, as the XDG spec says),
    /// else `$HOME/.local/state/trellis/<key>`, the key naming the socket (`key(forSocket:)`).
    public static func defaultDirectory(environment: [String: String], socketPath: String) -> String {
        let key = key(forSocket: socketPath)
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return "\(state)/trellis/\(key)" }
        var home = environment["HOME"] ?? ""
        if home.isEmpty, let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { home = String(cString: dir) }
        return "\(home.isEmpty ? "/tmp" : home)/.local/state/trellis/\(key)"
    }

    /// `<socket file name without .sock>-<FNV-1a 64 of the absolute socket path, in hex>`: a
    /// server is found by its socket path, so that is what its state belongs to. The name alone
    /// would let servers on `/a/s.sock` and `/b/s.sock` collide, and a server on a fresh
    /// temporary socket pick up another one's sessions.
    public static func key(forSocket socketPath: String) -> String {
        var path = socketPath
        if !path.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            path = String(cString: cwd) + "/" + path
            free(cwd)
        }
        var name = String(path.split(separator: "/").last ?? "")
        if name.hasSuffix(".sock") { name.removeLast(5) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return (name.isEmpty ? "trellis" : name) + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// One server's journal and snapshot: records accepted mutations, compacts them, and rebuilds
/// the sessions at start. Confined to the loop's thread, like the server.
final class Persistence {
    unowned let server: Server
    let directory: String
    let journalPath: String
    let snapshotPath: String
    let policy: FsyncPolicy
    let compactionBytes: Int
    private let journal: JournalFile
    private var nextSeq = 1
    private var syncTimer: LoopTimer?
    private var syncArmed = false
    /// A write failed: memory is ahead of the files until a snapshot succeeds.
    private var needsSnapshot = false
    /// The journal size at which compaction is tried next (raised after a failed attempt).
    private var nextCompactionAt: Int
    private var closed = false

    private(set) var compactions = 0
    /// The snapshot being written off the loop, if any (one at a time).
    private var snapshotInFlight: SnapshotJob?
    /// True while a snapshot is being written off the loop.
    var isCompacting: Bool { snapshotInFlight != nil }
    /// Counts snapshots started; one that finishes after a newer one started is dropped.
    private var snapshotGeneration = 0
    /// Changes made durable by the snapshot in flight instead of a journal line (`snapshotInstead`),
    /// told when it is in place or why not; and those that came while it was already under way,
    /// whose state it does not hold, for the one started after it.
    private var durabilityWaiters: [DurabilityWaiter] = []
    private var nextDurabilityWaiters: [DurabilityWaiter] = []

    /// A change waiting for a snapshot to make it durable: its session (a pending request until
    /// told) and what to tell.
    private struct DurabilityWaiter {
        var session: String
        var done: (PersistenceError?) -> Void
    }
    /// Where a snapshot written off the loop goes first (not `snapshot.json.tmp`, which the
    /// loop's own `compact()` may be writing at the same time).
    private var backgroundSnapshotPath: String { snapshotPath + ".next" }
    /// What the journaled requests since the last snapshot took to run (ms): about what a
    /// restart takes to replay them. Past `compactionWorkMilliseconds` a snapshot is taken, so a
    /// restart never replays more (long `clock.advance`s over restless physics, mostly).
    private var workSinceSnapshot = 0.0
    static let compactionWorkMilliseconds = 2000.0
    private var compactionWorkMilliseconds: Double { Self.compactionWorkMilliseconds }
    /// Live sessions replay at most this many physics steps in all at start (4 s of simulation),
    /// the journal's gaps and the catch-up after it together: the rest is dropped, as a live
    /// clock drops what it cannot afford. A restart then takes a bounded time whatever the
    /// sessions hold, and their physics goes on from where that leaves it.
    static let restoreStepsPerLiveSession = 240
    private var restoreStepsLeft: [String: Int] = [:]
    /// Sessions set aside at start because their state could not be restored.
    var failedSessions: [FailedSession] = []

    /// What `stats` shows of the journal: where it is, how it syncs, how big it is, whether
    /// memory is ahead of the files after a failed write.
    var stats: JSONValue {
        .object(["directory": .string(directory), "fsync": .string(policy.rawValue),
                 "journalBytes": .number(Double(journal.size)), "lastSeq": .number(Double(nextSeq - 1)),
                 "compactions": .number(Double(compactions)), "behind": .bool(needsSnapshot),
                 "compacting": .bool(isCompacting),
                 "failedSessions": .number(Double(failedSessions.count))])
    }


    /// Opens (and locks) the state in `directory` and restores its sessions into `server`.
    init(server: Server, directory: String, policy: FsyncPolicy, compactionBytes: Int) throws(PersistenceError) {
        self.server = server
        self.directory = directory
        self.policy = policy
        self.compactionBytes = max(1, compactionBytes)
        nextCompactionAt = self.compactionBytes
        journalPath = directory + "/journal.ndjson"
        snapshotPath = directory + "/snapshot.json"
        try FileIO.makeDirectories(directory)
        journal = try JournalFile(path: journalPath)
        // A compaction that a crash interrupted; the old snapshot and journal stand.
        for leftover in [snapshotPath + ".tmp", backgroundSnapshotPath, journalPath + ".tmp"] { unlink(leftover) }
        try restore()
        if policy == .everysec {
            let timer = LoopTimer(loop: server.loop)
            timer.onFire = { [unowned self] in
                self.syncArmed = false
                self.sync()
            }
            syncTimer = timer
        }
    }

    // MARK: Recording

    /// Called before a mutation runs: makes sure what it changes can be made durable. A state
    /// directory deleted under the running server (or its journal removed) would leave us
    /// appending to a file no restart reads, acknowledging changes that are already lost: the
    /// directory is made again and everything in memory written as a snapshot beside a new
    /// journal. When that fails, or another file was put where the journal was, the mutation
    /// is refused before it changes anything.
    func ensureWritable() throws(RPCError) {
        guard !closed, !journal.isInPlace else { return }
        do throws(PersistenceError) {
            guard journal.isGone else {
                throw PersistenceError("\(journalPath) is no longer the journal this server opened (another file was put in its place); nothing is written over it: restart trellisd to take the state up again")
            }
            server.logger.warning("the state in \(directory) is gone (deleted while running?): making it again and saving every session")
            try FileIO.makeDirectories(directory)
            try journal.reopen()
            try compact()
        } catch {
            server.logger.error("\(error.description)")
            throw .domain("persistence_failed", "this change was refused, nothing changed: it could not be made durable in \(directory) (\(error.description))",
                          details: ["directory": .string(directory)])
        }
    }

    /// Journals an accepted mutation (called after its handler succeeded, before its reply).
    /// Throws when the change could not be made durable: the reply must not say it was.
    /// `cost` is what running it took (ms): a restart replays it, so the work since the last
    /// snapshot is bounded too (`compactionWorkMilliseconds`).
    func record(method: String, params: JSONValue, touched: Session?, cost: Double = 0) throws(RPCError) {
        try record(method: method, touched: touched, cost: cost) { JSONWriter.write(params, into: &$0) }
    }

    /// `record` with params that `writeParams` writes straight into the line (`capacity`: about
    /// how many bytes they take).
    func record(method: String, touched: Session?, cost: Double = 0, capacity: Int = 128,
                writeParams: (inout ByteBuffer) -> Void) throws(RPCError) {
        workSinceSnapshot += cost
        guard !closed else { throw .domain("shutting_down", "the server is shutting down; this change was not saved") }
        let live = touched.flatMap { $0.clock == .live ? $0 : nil }
        let line = JournalEntry.line(seq: nextSeq, method: method, session: live?.name, time: live?.collectionView.time,
                                     capacity: capacity, writeParams: writeParams)
        do throws(PersistenceError) {
            if !needsSnapshot {
                do throws(PersistenceError) {
                    try journal.append(line)
                    nextSeq += 1
                } catch {
                    server.logger.error("\(error.description); taking a snapshot instead")
                    needsSnapshot = true
                }
            }
            if needsSnapshot {
                // The snapshot holds the memory state, this change included.
                try compact()
                server.logger.notice("state saved as a snapshot after a failed journal write")
            } else {
                switch policy {
                case .always: try journal.sync()
                case .everysec: armSyncTimer()
                case .no: break
                }
            }
        } catch {
            server.logger.error("\(error.description)")
            throw .domain("persistence_failed", "the change was applied but could not be saved in \(directory) (\(error.description)); it will not survive a restart until the disk accepts writes again",
                          details: ["directory": .string(directory)])
        }
        compactIfDue()
    }

    private func armSyncTimer() {
        guard let timer = syncTimer, !syncArmed else { return }
        syncArmed = true
        timer.start(after: 1000)
    }

    /// fsyncs what was written; a failure is logged and retried at the next write.
    func sync() {
        do { try journal.sync() } catch { server.logger.error("\(error.description)") }
    }

    // MARK: Compaction

    /// Writes every session to the snapshot (durably) on the loop, then cuts the journal: for
    /// when memory is ahead of the files (a failed journal write, a state directory made again),
    /// where nothing may be acknowledged before the snapshot holds it. Routine compaction goes
    /// off the loop instead (`startCompaction`). Refused while a
    /// session is in the middle of a long advance (`PendingRequest`). Each session is
    /// written on its own first: one whose state cannot be written (a layout the file cannot
    /// hold; a non-finite number, which the engine's invariant should make impossible) is set
    /// aside with its files kept, as a session that cannot be restored is, and the others are
    /// compacted all the same, so one session never stops the journal from being cut.
    func compact() throws(PersistenceError) {
        // Everything in memory goes into this snapshot, so it makes every waiting change durable
        // (each was applied before it began to wait); a failure is theirs too.
        do throws(PersistenceError) {
            try compactEverything()
        } catch {
            tellDurabilityWaiters(error, includingNext: true)
            throw error
        }
        tellDurabilityWaiters(nil, includingNext: true)
    }

    private func compactEverything() throws(PersistenceError) {
        if let busy = server.pendingRequests.keys.sorted().first {
            throw PersistenceError("session '\(busy)' is in the middle of a long clock.advance; a snapshot is taken once it is done")
        }
        var encoded: [ByteBuffer] = []
        var unwritable: [(name: String, reason: String)] = []
        for name in server.sessions.keys.sorted() {
            do throws(PersistenceError) {
                encoded.append(try StateSnapshot.encode(SessionState(server.sessions[name]!)))
            } catch {
                unwritable.append((name, error.description))
            }
        }
        if !unwritable.isEmpty { try setAsideUnwritable(unwritable) }
        // A snapshot being written off the loop is older than this one: it must not land.
        snapshotGeneration += 1
        let bytes = StateSnapshot.bytes(seq: nextSeq - 1, encodedSessions: encoded)
        let before = journal.size
        try FileIO.replace(snapshotPath, with: bytes)
        try journal.truncate(to: 0)
        needsSnapshot = false
        workSinceSnapshot = 0
        compactions += 1
        server.memoryTrim.afterChurn(now: server.nowMilliseconds)
        server.logger.info("compacted the journal (\(before) bytes) into \(snapshotPath) (\(bytes.count) bytes, \(encoded.count) session\(encoded.count == 1 ? "" : "s"))")
    }

    /// Makes a change already applied in memory durable by a snapshot written off the loop
    /// instead of its journal line, and calls `done` once that snapshot is in place (nil) or
    /// with why it could not be (the caller then journals the change after all). For a change
    /// whose line alone is past the compaction threshold (a chunked commit of a million items:
    /// a 47 MB line written on the loop, then the same data again in the snapshot it made due).
    /// False when no snapshot may start for it now (another session is in the middle of a long
    /// advance, or memory is already ahead of the files): then `done` is never called.
    /// `session` is the change's own session, which waits (as a pending request) for `done`.
    func snapshotInstead(of session: String, _ done: @escaping (PersistenceError?) -> Void) -> Bool {
        guard !closed, !needsSnapshot, server.pendingRequests.keys.allSatisfy({ $0 == session }) else { return false }
        if snapshotInFlight != nil {
            nextDurabilityWaiters.append(DurabilityWaiter(session: session, done: done))
            return true
        }
        durabilityWaiters.append(DurabilityWaiter(session: session, done: done))
        startCompaction()
        return true
    }

    /// Tells the changes waiting for a snapshot how it went.
    private func tellDurabilityWaiters(_ error: PersistenceError?, includingNext: Bool) {
        var told = durabilityWaiters
        durabilityWaiters = []
        if includingNext {
            told += nextDurabilityWaiters
            nextDurabilityWaiters = []
        }
        for waiter in told { waiter.done(error) }
    }

    /// After a snapshot ended: the changes that came while it was being written get one of their own.
    private func startSnapshotForNextWaiters() {
        guard !nextDurabilityWaiters.isEmpty, snapshotInFlight == nil else { return }
        durabilityWaiters = nextDurabilityWaiters
        nextDurabilityWaiters = []
        let waiting = Set(durabilityWaiters.map(\.session))
        guard !closed, !needsSnapshot, server.pendingRequests.keys.allSatisfy(waiting.contains) else {
            return tellDurabilityWaiters(PersistenceError("no snapshot could start: another session is in the middle of a long clock.advance"), includingNext: false)
        }
        startCompaction()
    }

    /// Starts a compaction when the journal or the work since the snapshot is due for one.
    /// Called after each journaled change, and when a request's deferred work is done (its
    /// change was journaled while it still counted as pending, when no snapshot may start).
    func compactIfDue() {
        guard snapshotInFlight == nil,
              journal.size >= nextCompactionAt || workSinceSnapshot >= compactionWorkMilliseconds else { return }
        // A session in the middle of a long advance is not in a state a snapshot can hold: the
        // next request after it is done tries again.
        guard server.pendingRequests.isEmpty else { return }
        startCompaction()
    }

    /// Takes every session's state on the loop (cheap: the data is copy-on-write, so this is a
    /// reference to it) and writes the snapshot off the loop (`BackgroundWork`): a million items
    /// take a second to write and fsync, which no request may wait for. The loop goes on serving
    /// meanwhile; what it journals then lies past `journalSize` and stays when the journal is cut.
    func startCompaction() {
        var states: [SessionState] = []
        for name in server.sessions.keys.sorted() {
            do throws(PersistenceError) { states.append(try SessionState(server.sessions[name]!)) } catch {
                // A session the file cannot hold (a bug): the synchronous path sets it aside.
                return compactOnTheLoop()
            }
        }
        snapshotGeneration += 1
        let job = SnapshotJob(generation: snapshotGeneration, seq: nextSeq - 1, journalSize: journal.size,
                              workBefore: workSinceSnapshot, started: server.nowMilliseconds)
        let temporary = backgroundSnapshotPath, taken = states
        snapshotInFlight = job
        workSinceSnapshot = 0
        let queued = BackgroundWork.run(on: server.loop, { SnapshotWrite(taken, seq: job.seq, to: temporary) },
                                        completion: { [weak self] written in self?.finish(job, written) })
        if !queued {
            snapshotInFlight = nil
            workSinceSnapshot += job.workBefore
            compactOnTheLoop()
        }
    }

    /// The snapshot `job` wrote is on disk: it becomes the snapshot and the journal loses the
    /// lines it holds, unless a snapshot taken since (on the loop, after a failed write) or a
    /// shutdown made it stale.
    private func finish(_ job: SnapshotJob, _ written: SnapshotWrite) {
        snapshotInFlight = nil
        let temporary = backgroundSnapshotPath
        guard !closed else {
            unlink(temporary)
            return tellDurabilityWaiters(PersistenceError("the server shut down before the snapshot was in place"), includingNext: true)
        }
        // A snapshot taken since on the loop (`compact`) told this one's waiters already.
        guard job.generation == snapshotGeneration else {
            unlink(temporary)
            return startSnapshotForNextWaiters()
        }
        defer { startSnapshotForNextWaiters() }
        do throws(PersistenceError) {
            if let error = written.error { throw error }
            if !written.unwritable.isEmpty { try setAsideUnwritable(written.unwritable) }
            try FileIO.install(temporary, over: snapshotPath)
            let before = job.journalSize
            try journal.dropFirst(job.journalSize)
            nextCompactionAt = compactionBytes
            compactions += 1
            server.memoryTrim.afterChurn(now: server.nowMilliseconds)
            let took = Int(server.nowMilliseconds - job.started)
            server.logger.info("compacted the journal (\(before) bytes) into \(snapshotPath) (\(written.bytes) bytes, \(written.sessions) session\(written.sessions == 1 ? "" : "s"), written off the loop in \(took) ms)")
            tellDurabilityWaiters(nil, includingNext: false)
        } catch {
            tellDurabilityWaiters(error, includingNext: false)
            unlink(temporary)
            workSinceSnapshot += job.workBefore
            nextCompactionAt = journal.size + max(1, compactionBytes / 4)
            server.logger.warning("journal compaction failed, the journal keeps growing (next try at \(nextCompactionAt) bytes): \(error.description)")
        }
    }

    /// `compact()` where a background write cannot be had; a failure postpones the next try.
    private func compactOnTheLoop() {
        do {
            try compact()
            nextCompactionAt = compactionBytes
        } catch {
            nextCompactionAt = journal.size + max(1, compactionBytes / 4)
            server.logger.warning("journal compaction failed, the journal keeps growing (next try at \(nextCompactionAt) bytes): \(error.description)")
        }
    }

    // MARK: Restore

    private func restore() throws(PersistenceError) {
        var covered = 0, fromSnapshot = 0
        var failed: [(name: String, reason: String)] = []
        if let bytes = try FileIO.read(snapshotPath) {
            let snapshot = try StateSnapshot(bytes: bytes, file: snapshotPath)
            covered = snapshot.seq
            failed = snapshot.unreadable
            for state in snapshot.sessions {
                do throws(ParamError) {
                    server.sessions[state.name] = Session(name: state.name, collectionView: try state.makeView(), clock: state.clock,
                                                          epochMilliseconds: .infinity,
                                                          contactLimit: server.configuration.maximumContacts)
                    fromSnapshot += 1
                } catch {
                    failed.append((state.name, "\(snapshotPath): \(error.message)"))
                }
            }
        }
        let contents = try JournalParser.parse(try journal.readAll(), file: journalPath)
        if contents.tornTailBytes > 0 {
            server.logger.warning("\(journalPath): dropped an incomplete last line (\(contents.tornTailBytes) bytes, line \(contents.entries.count + 1)): a write the crash cut short, never acknowledged")
            try journal.truncate(to: contents.validLength)
        }
        let client = Client(connection: nil)
        var replayed = 0, skipped = 0
        for (line, entry) in contents.entries where entry.seq > covered {
            let name = entry.sessionName
            if let name, failed.contains(where: { $0.name == name }) {
                skipped += 1
                continue
            }
            do throws(PersistenceError) {
                try replay(entry, client: client, at: "\(journalPath):\(line)")
                replayed += 1
            } catch {
                // A line that names no session cannot be pinned on one: the state as a whole is not ours.
                guard let name else { throw error }
                failed.append((name, error.description))
                server.sessions[name] = nil
            }
        }
        nextSeq = max(covered, contents.entries.map(\.entry.seq).max() ?? 0) + 1
        settle()
        if !failed.isEmpty { try setAside(failed, skippedLines: skipped) }
        if fromSnapshot > 0 || replayed > 0 {
            let count = server.sessions.count
            server.logger.info("restored \(count) session\(count == 1 ? "" : "s") from \(directory) (\(fromSnapshot) from the snapshot, \(replayed) journal lines replayed)")
        }
    }

    /// Runs one journaled request through the method table, as the dispatcher did.
    private func replay(_ entry: JournalEntry, client: Client, at location: String) throws(PersistenceError) {
        guard let method = MethodTable.byName[entry.method], method.isJournaled else {
            throw PersistenceError("\(location): '\(entry.method)' is not a method this trellisd can replay; the journal was written by another version")
        }
        if let name = entry.session, let time = entry.time, let session = server.sessions[name], session.clock == .live {
            restoreAdvance(&session.collectionView, of: name, to: time)
        }
        // Replayed requests run to their end (a long clock.advance is not split across turns here).
        server.requestDeadline = .infinity
        var context = MethodContext(server: server, client: client, params: entry.params, effect: method.effect)
        do { _ = try method.handler(&context) } catch {
            throw PersistenceError("\(location): replaying '\(entry.method)' failed: \(error.message). Move the state aside (or start with --no-persistence) to start anyway")
        }
        stopClocks()
    }

    /// Sessions created by a replayed request get a clock that never catches up with real
    /// time (their epoch is infinitely late), so only the journaled times move them.
    private func stopClocks() {
        for (name, session) in server.sessions where session.epochMilliseconds != .infinity {
            server.sessions[name] = Session(name: name, collectionView: session.collectionView, clock: session.clock,
                                            epochMilliseconds: .infinity, contactLimit: server.configuration.maximumContacts)
        }
    }

    /// After the replay: live sessions land what was animating and their clock resumes from
    /// there; events nobody can receive any more are dropped.
    private func settle() {
        let now = server.nowMilliseconds
        for (name, session) in server.sessions {
            var view = session.collectionView
            if session.clock == .live {
                // Animations land (an interactive transition waits: it needs no ticks); physics
                // takes what is left of its restore steps, and goes on live from there.
                var seconds = 0
                while view.needsTicksBesidesDynamics && seconds < 3600 {
                    restoreAdvance(&view, of: name, to: view.time + 1)
                    seconds += 1
                }
                if view.needsTicks && !view.needsTicksBesidesDynamics {
                    restoreAdvance(&view, of: name, to: view.time + Double(Self.restoreStepsPerLiveSession) / Double(view.dynamicsStepRate))
                }
            }
            _ = view.drainEvents()
            server.sessions[name] = Session(name: name, collectionView: view, clock: session.clock,
                                            epochMilliseconds: session.clock == .live ? now - view.time * 1000 : now,
                                            contactLimit: server.configuration.maximumContacts)
        }
    }

    /// Advances a live session being restored, its physics taking what is left of its
    /// `restoreStepsPerLiveSession` (none once they are spent: the rest is dropped).
    private func restoreAdvance(_ view: inout CollectionView, of name: String, to time: Double) {
        let left = restoreStepsLeft[name, default: Self.restoreStepsPerLiveSession]
        let before = view.dynamicsStepsTaken
        view.dynamicsCatchUpLimit = left
        view.advance(to: time)
        view.dynamicsCatchUpLimit = Session.liveCatchUpLimit
        restoreStepsLeft[name] = max(0, left - (view.dynamicsStepsTaken - before))
    }

    // MARK: Shutdown

    /// Makes everything written durable (whatever the policy) and releases the state.
    func close() {
        guard !closed else { return }
        closed = true
        sync()
        if let timer = syncTimer {
            syncTimer = nil
            timer.close()
        }
        journal.close()
    }
}
