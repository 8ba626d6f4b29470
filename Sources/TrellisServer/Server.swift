import Logging
import TrellisCore
import TrellisProtocol
import TrellisTransport
#if canImport(Glibc)
import Glibc
#endif

/// The Trellis server: one libuv loop owns every session and connection. Requests are read as
/// NDJSON JSON-RPC, dispatched through the method table, answered, and every session a request
/// touched publishes its frame to its viewers before the loop sleeps again. A live session that
/// animates keeps a frame timer running at `framesPerSecond`; nothing ticks when idle.
/// Confined to the loop's thread: the properties every request reads skip Swift's dynamic
/// exclusivity checks (`@exclusivity(unchecked)`), about a tenth of a pipelined request's time.
public final class Server {
    public let configuration: ServerConfiguration
    let loop: EventLoop
    var logger: Logger
    private(set) var listener: UnixSocketListener?
    /// The journal and snapshot, when `configuration.stateDirectory` is set.
    @exclusivity(unchecked) var persistence: Persistence?
    @exclusivity(unchecked) var clients: [Int: Client] = [:]
    @exclusivity(unchecked) var sessions: [String: Session] = [:]
    /// The live frame timer: runs while a live session moves or a viewer lags.
    private(set) lazy var frameClock: FrameClock = {
        let clock = FrameClock(loop: loop, framesPerSecond: configuration.framesPerSecond) { [unowned self] in self.nowMilliseconds }
        clock.onTick = { [unowned self] in
            let more = self.tickLiveSessions()
            if !self.recordings.isEmpty { self.keyframeRecordedSessions() }
            return more
        }
        return clock
    }()
    /// SIGINT/SIGTERM handles (Signals.swift).
    var signals: [SignalWatcher] = []
    private(set) var isShuttingDown = false
    /// Set by the `shutdown` method: stop once its reply is written.
    @exclusivity(unchecked) var shutdownRequested = false
    let startedAt: Double
    @exclusivity(unchecked) var requestsHandled = 0
    /// Set in process: sessions ignore `clock: "live"` (no loop runs to move them) and are manual.
    private(set) var manualClocksOnly = false
    var viewersDisconnected = 0
    /// Clients cut for not reading their replies (past the client hard limit).
    var clientsCutForOutput = 0
    /// Where handlers encode results (`MethodContext.encoded`), given back after each reply.
    @exclusivity(unchecked) var resultBuffer = ByteBuffer(capacity: 1024)
    /// Replies and frames refused because a NaN or an infinity reached them (a bug if ever > 0).
    var nonFiniteRefusals = 0
    /// Until when (loop ms) the request being run may simulate physics (`requestBudgetMilliseconds`).
    @exclusivity(unchecked) var requestDeadline = Double.infinity
    /// How long each request held the loop (a pending request's every turn counts as one), for `stats`.
    @exclusivity(unchecked) var requestTimings = FrameTimings()
    /// When the last request ended, and on which connection's delivery: the next request of the
    /// same delivery starts then (one clock read per request instead of two; the loop did
    /// nothing else between them).
    @exclusivity(unchecked) var lastRequestEnd: (connection: Int, delivery: UInt64, at: Double)?
    /// Free heap memory handed back after clients close (`MemoryTrim`).
    var memoryTrim = MemoryTrim()
    /// Chunked reloads being staged, one per client at most (data.reload.begin … commit).
    lazy var reloadUploads = ReloadUploads(maximumItems: configuration.maximumUploadItems,
                                           maximumBytes: configuration.maximumUploadBytes)
    /// Requests whose work goes on over later loop turns, by the session they work on.
    @exclusivity(unchecked) var pendingRequests: [String: PendingRequest] = [:]
    /// Flight recordings by session name (FlightRecorder), until `recording.stop` collects them.
    @exclusivity(unchecked) var recordings: [String: ScriptRecording] = [:]
    /// Runs their work once per loop turn while any is pending.
    private(set) lazy var pendingRunner: Idle = {
        let idle = Idle(loop: loop)
        idle.onIdle = { [unowned self] in self.runPendingRequests() }
        return idle
    }()
    /// Shares each frame's bytes among its viewers by page reference; nil where the pipes it
    /// needs could not be made (then every viewer gets its own write).
    private(set) lazy var fanout: FrameFanout? = {
        let fanout = FrameFanout()
        if fanout == nil { logger.info("frames are written to each viewer (no pipes for splicing)") }
        return fanout
    }()

    public init(configuration: ServerConfiguration, logger: Logger) throws(ListenerError) {
        self.configuration = configuration
        self.logger = logger
        do { loop = try EventLoop() } catch { throw .transport(error) }
        startedAt = Double(EventLoop.monotonicNanoseconds) / 1e6
        let listener = try UnixSocketListener(loop: loop, path: configuration.socketPath,
                                              maximumMessageBytes: configuration.maximumMessageBytes)
        self.listener = listener
        listener.onConnection = { [unowned self] connection in self.accept(connection) }
        listener.onRefusedPeer = { [unowned self] uid in
            self.logger.warning("refused a connection from uid \(uid.map(String.init) ?? "unknown"): only the owner and root may connect")
        }
        listener.onAcceptError = { [unowned self] message in self.logger.error("\(message)") }
        // Persistence: restore the sessions of the last run before the loop serves anyone (after
        // the listener, so a second server on a live socket is refused for that reason first).
        if let directory = configuration.stateDirectory {
            do {
                persistence = try Persistence(server: self, directory: directory, policy: configuration.fsyncPolicy,
                                              compactionBytes: configuration.journalCompactionBytes)
            } catch {
                listener.close()
                throw .directory(error.description)
            }
        }
    }

    /// The in-process server (InProcessServer): the same sessions and method table with no
    /// socket, no journal and no frame timer; every session gets a manual clock.
    /// `recordingDirectory`: where flight recordings go (as a state directory; no journal).
    init(inProcessWith logger: Logger, recordingDirectory: String? = nil) throws(TransportError) {
        var configuration = ServerConfiguration(socketPath: "")
        configuration.stateDirectory = recordingDirectory
        self.configuration = configuration
        self.logger = logger
        loop = try EventLoop()
        startedAt = Double(EventLoop.monotonicNanoseconds) / 1e6
        manualClocksOnly = true
    }

    /// Loop time in milliseconds (monotonic, sub-millisecond).
    var nowMilliseconds: Double { Double(EventLoop.monotonicNanoseconds) / 1e6 - startedAt }

    /// Runs until `shutdown` or SIGINT/SIGTERM; then the socket file is gone and viewers were told.
    public func run() {
        watchSignals()
        logger.info("listening on \(configuration.socketPath)")
        loop.run()
        loop.close()
    }

    /// Stops gracefully: viewers get `session.closed`, the listener closes (removing the
    /// socket), connections close after their queued output, the loop ends.
    public func shutdown() {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        for session in sessions.values { close(session, reason: "server shutting down") }
        listener?.close()
        listener = nil
        for client in clients.values { client.connection.close(reason: "server shutting down") }
        frameClock.stop()
        // Requests still at work are not answered (their connections close): like a request the
        // server never read, nothing of them was journaled.
        pendingRequests.removeAll()
        pendingRunner.close()
        persistence?.close()   // Persistence: everything journaled reaches the disk
        closeRecordings()
        unwatchSignals()
    }

    /// Starts the live frame timer if it is not running.
    func startFrameTimer() {
        guard !isShuttingDown else { return }
        frameClock.start()
    }

    /// True while the frame timer runs (for stats and tests of "no ticks when idle").
    var isTicking: Bool { frameClock.isRunning }
}
