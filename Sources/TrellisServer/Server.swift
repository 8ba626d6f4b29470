import CLibUV
import Logging
import TrellisCore
import TrellisProtocol
#if canImport(Glibc)
import Glibc
#endif

/// How the server runs; every value has a default, so it starts with no configuration.
public struct ServerConfiguration: Sendable {
    public var socketPath: String
    public var framesPerSecond: Double = 60
    public var maximumMessageBytes = 1 << 20
    public var maximumClients = 1024
    /// Above this many queued bytes a viewer skips frames (it later gets one delta against
    /// what it last received).
    public var viewerSoftLimitBytes = 256 * 1024
    /// Above this, or above the soft limit for `viewerSoftLimitSeconds`, a viewer is disconnected.
    public var viewerHardLimitBytes = 8 * 1024 * 1024
    public var viewerSoftLimitSeconds = 10.0
    /// Persistence (Persistence/Persistence.swift): where sessions are journaled and restored
    /// from at start; nil keeps them in memory only.
    public var stateDirectory: String?
    public var fsyncPolicy = FsyncPolicy.everysec
    /// The journal size that triggers compaction into a snapshot.
    public var journalCompactionBytes = 4 << 20

    public init(socketPath: String) { self.socketPath = socketPath }
}

/// A connected client: its connection and the session it watches, if any.
final class Client {
    /// Nil only for the client that replays the journal at start (Persistence), which never
    /// calls a method that uses its connection.
    let connection: Connection!
    var viewing: Session?
    init(connection: Connection!) { self.connection = connection }
}

/// The Trellis server: one libuv loop owns every session and connection. Requests are read as
/// NDJSON JSON-RPC, dispatched through the method table, answered, and every session a request
/// touched publishes its frame to its viewers before the loop sleeps again. A live session that
/// animates keeps a frame timer running at `framesPerSecond`; nothing ticks when idle.
public final class Server {
    public let configuration: ServerConfiguration
    let loop: EventLoop
    var logger: Logger
    private(set) var listener: UnixSocketListener?
    /// The journal and snapshot, when `configuration.stateDirectory` is set.
    var persistence: Persistence?
    var clients: [Int: Client] = [:]
    var sessions: [String: Session] = [:]
    private var frameTimer: UnsafeMutablePointer<uv_timer_t>?
    private var frameSchedule = FrameSchedule(interval: 1000 / 60, now: 0)
    /// How long ticks take (stats' frameTimeMs), and how much of that the thread was on a CPU
    /// (frameCpuMs): the gap is time the CPU was taken away (other processes, a hypervisor).
    private(set) var frameTimings = FrameTimings()
    private(set) var frameCPUTimings = FrameTimings()
    private var signals: [UnsafeMutablePointer<uv_signal_t>] = []
    private(set) var isShuttingDown = false
    /// Set by the `shutdown` method: stop once its reply is written.
    var shutdownRequested = false
    let startedAt: Double
    var requestsHandled = 0
    /// Set in process: sessions ignore `clock: "live"` (no loop runs to move them) and are manual.
    private(set) var manualClocksOnly = false
    var viewersDisconnected = 0
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
        startedAt = Double(uv_hrtime()) / 1e6
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
    init(inProcessWith logger: Logger) throws(TransportError) {
        configuration = ServerConfiguration(socketPath: "")
        self.logger = logger
        loop = try EventLoop()
        startedAt = Double(uv_hrtime()) / 1e6
        manualClocksOnly = true
    }

    /// Loop time in milliseconds (monotonic, sub-millisecond).
    var nowMilliseconds: Double { Double(uv_hrtime()) / 1e6 - startedAt }

    /// CPU time this thread has run, in ms (excludes time it waited for a CPU, stolen time too).
    private var threadCPUMilliseconds: Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
    }

    /// Runs until `shutdown` or SIGINT/SIGTERM; then the socket file is gone and viewers were told.
    public func run() {
        // A parent may have started us with these blocked (the mask is inherited); unblock them
        // so SIGINT/SIGTERM always mean a graceful stop.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signum in [SIGINT, SIGTERM] {
            let handle = UnsafeMutablePointer<uv_signal_t>.allocate(capacity: 1)
            uv_signal_init(loop.loop, handle)
            handle.pointee.data = Unmanaged.passUnretained(self).toOpaque()
            uv_signal_start(handle, { handle, signum in
                let server = Unmanaged<Server>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
                server.logger.info("signal \(signum): shutting down")
                server.shutdown()
            }, signum)
            signals.append(handle)
        }
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
        stopFrameTimer()
        persistence?.close()   // Persistence: everything journaled reaches the disk
        for handle in signals {
            uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) { $0?.deallocate() }
        }
        signals.removeAll()
    }

    // MARK: Connections

    private func accept(_ connection: Connection) {
        if isShuttingDown || clients.count >= configuration.maximumClients {
            let error = RPCError.domain("limit_exceeded", isShuttingDown ? "the server is shutting down"
                : "too many clients (the limit is \(configuration.maximumClients), set with --max-clients)")
            send(["jsonrpc": .string("2.0"), "id": .null, "error": error.json], to: connection)
            connection.close(reason: "client limit")
            return
        }
        let client = Client(connection: connection)
        clients[connection.id] = client
        connection.onMessage = { [unowned self] c, bytes in self.handle(bytes, from: c) }
        connection.onOversized = { [unowned self] c, count in
            let error = RPCError.domain("limit_exceeded", "message of \(count) bytes is over the limit of \(self.configuration.maximumMessageBytes) bytes (--max-message-bytes); it was dropped")
            self.send(["jsonrpc": .string("2.0"), "id": .null, "error": error.json], to: c)
        }
        connection.onClose = { [unowned self] c in
            if let client = self.clients.removeValue(forKey: c.id), let session = client.viewing {
                session.viewers[c.id] = nil
            }
            self.logger.debug("client \(c.id) closed: \(c.closeReason ?? "")")
        }
    }

    // MARK: Requests

    private func handle(_ bytes: [UInt8], from connection: Connection) {
        guard let client = clients[connection.id] else { return }
        requestsHandled += 1
        let request: JSONValue
        do {
            request = try JSONParser.parse(bytes)
        } catch {
            reply(id: .null, error: .parse("parse error: \(error.message)"), to: connection)
            return
        }
        guard case .object(let envelope) = request else {
            reply(id: .null, error: .invalidRequest("a request must be a JSON object {jsonrpc, id, method, params}"), to: connection)
            return
        }
        let id = envelope["id"]
        if let id, !isValidID(id) {
            reply(id: .null, error: .invalidRequest("id must be a string, a number or null"), to: connection)
            return
        }
        guard envelope["jsonrpc"] == .string("2.0") else {
            reply(id: id ?? .null, error: .invalidRequest("jsonrpc must be \"2.0\""), to: connection)
            return
        }
        guard case .string(let name)? = envelope["method"] else {
            reply(id: id ?? .null, error: .invalidRequest("method must be a string"), to: connection)
            return
        }
        let params = envelope["params"] ?? .object([:])
        guard case .object = params else {
            // A notification (no id) is never answered, not even with an error (JSON-RPC 2.0 §4.1).
            if let id { reply(id: id, error: .invalidParams("params must be an object (by-name parameters)"), to: connection) }
            return
        }
        let (outcome, touched, encoded) = execute(name, params: params, client: client)
        if let id {
            switch outcome {
            case .success(let result): reply(id: id, result: encoded.map(Reply.encoded) ?? .value(result), to: connection)
            case .failure(let error): reply(id: id, error: error, to: connection)
            }
        }
        finishRequest(touched: touched, client: client)
    }

    /// Runs one method for `client` the way every request runs (the socket's and the in-process
    /// ones alike): the read-only check, the handler, and the journal before any acknowledgement.
    /// Returns the outcome and the session the method touched (published by `finishRequest`).
    /// A result the handler encoded itself comes back as the third value.
    func execute(_ name: String, params: JSONValue, client: Client) -> (Result<JSONValue, RPCError>, Session?, ByteBuffer?) {
        guard let method = MethodTable.byName[name] else {
            return (.failure(.unknownMethod(name, known: MethodTable.names)), nil, nil)
        }
        if method.mutates, let session = client.viewing, client.isReadOnly(for: session) {
            return (.failure(.domain("read_only", "this connection is attached read-only to '\(session.name)'; '\(name)' changes a session: use another connection, or attach without readOnly")), nil, nil)
        }
        var context = MethodContext(server: self, client: client, params: params, mutates: method.mutates, touched: nil)
        let outcome: Result<JSONValue, RPCError>
        do {
            // Persistence: a change that could not be made durable is refused before it is made.
            if method.mutates, !Persistence.unrecorded.contains(name), let persistence { try persistence.ensureWritable() }
            let result = try method.handler(&context)
            // Persistence: journal an accepted mutation before acknowledging it.
            if method.mutates, let persistence { try persistence.record(method: name, params: params, touched: context.touched) }
            outcome = .success(result)
        } catch {
            outcome = .failure(error)
        }
        return (outcome, context.touched, context.encodedResult)
    }

    /// After the reply: the touched session publishes its frame and events, lagging viewers
    /// catch up, and a requested shutdown begins.
    func finishRequest(touched: Session?, client: Client) {
        if let session = touched, sessions[session.name] === session {
            publish(session)
        }
        if let session = client.viewing, let connection = client.connection, session.viewers[connection.id]?.lagging != nil {
            _ = catchUpLaggingViewers()
        }
        if hasLaggingViewers { startFrameTimer() }
        if shutdownRequested { shutdown() }
    }

    private func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string, .number, .null: return true
        default: return false
        }
    }

    /// A reply's result: a value to encode, or bytes a handler encoded itself.
    enum Reply {
        case value(JSONValue)
        case encoded(ByteBuffer)
    }

    func reply(id: JSONValue, result: Reply, to connection: Connection) {
        var buffer = ByteBuffer(capacity: 256)
        var o = JSONObjectWriter(into: &buffer)
        o.field("jsonrpc", "2.0", into: &buffer)
        o.field("id", id, into: &buffer)
        switch result {
        case .value(let value):
            o.field("result", value, into: &buffer)
        case .encoded(let bytes):
            o.key("result", into: &buffer)
            bytes.withUnsafeBytes { buffer.append(contentsOf: $0) }
        }
        o.end(into: &buffer)
        buffer.append(10)
        buffer.withUnsafeBytes { connection.write($0) }
    }

    func reply(id: JSONValue, error: RPCError, to connection: Connection) {
        send(["jsonrpc": .string("2.0"), "id": id, "error": error.json], to: connection)
    }

    func send(_ message: [String: JSONValue], to connection: Connection) {
        var buffer = ByteBuffer(capacity: 256)
        JSONWriter.write(.object(message), into: &buffer)
        buffer.append(10)
        buffer.withUnsafeBytes { connection.write($0) }
    }

    /// A notification (no id) to one connection.
    func notify(_ method: String, _ params: JSONValue, to connection: Connection) {
        send(["jsonrpc": .string("2.0"), "method": .string(method), "params": params], to: connection)
    }

    // MARK: Sessions and frames

    func close(_ session: Session, reason: String) {
        for viewer in session.viewers.values {
            notify("session.closed", .object(["session": .string(session.name), "reason": .string(reason)]), to: viewer.connection)
            clients[viewer.connection.id]?.viewing = nil
        }
        session.viewers.removeAll()
        sessions[session.name] = nil
    }

    /// Sends the session's new frame and events to its viewers: one encoded delta shared by
    /// every caught-up viewer; a viewer above the soft output limit skips it and later gets one
    /// delta against what it last received; one above the hard limit is disconnected.
    func publish(_ session: Session) {
        session.movedSincePublished = false
        let events = session.collectionView.drainEvents()
        if session.clock == .live && session.collectionView.needsTicks { startFrameTimer() }
        guard !session.viewers.isEmpty else {
            return
        }
        // Who is cut, who skips this frame and who gets it, decided before the published state
        // moves on: a viewer that starts lagging keeps the state it holds (a copy-on-write
        // reference; with no such viewer, nothing is copied).
        let now = nowMilliseconds
        var receivers: [Viewer] = [], skipping: [Viewer] = []
        for viewer in session.viewers.values.sorted(by: { $0.connection.id < $1.connection.id }) {
            let queued = viewer.connection.queuedBytes
            if queued > configuration.viewerHardLimitBytes
                || (viewer.overSoftLimitSince.map { now - $0 > configuration.viewerSoftLimitSeconds * 1000 } ?? false) {
                disconnectSlowViewer(viewer, session: session, queued: queued)
            } else if queued > configuration.viewerSoftLimitBytes {
                if viewer.overSoftLimitSince == nil { viewer.overSoftLimitSince = now }
                if viewer.lagging == nil { viewer.lagging = session.published }
                skipping.append(viewer)
            } else {
                viewer.overSoftLimitSince = nil
                receivers.append(viewer)
            }
        }
        let pooled = session.collectionView.reusePool.pooledViewIDs
        session.published.publish(session.collectionView, pooled: pooled, writing: &session.frame)
        let changed = !session.frame.isEmpty
        if changed {
            session.seq += 1
            session.framesPublished += 1
        }
        for viewer in skipping {
            if changed { viewer.framesSkipped += 1 }
            // Frames may be skipped, events not: they follow the catch-up delta.
            viewer.missedEvents += events
        }
        // Caught-up viewers share one encoded frame; each viewer's events follow its frame.
        var sharing: [Connection] = []
        for viewer in receivers {
            if viewer.lagging != nil {
                sendCatchUp(viewer, session: session, scene: session.published.scene, pooled: pooled)
            } else if changed {
                sharing.append(viewer.connection)
                viewer.framesSent += 1
            }
        }
        if !sharing.isEmpty {
            let bytes = encodeFrame(session.frame, session: session)
            bytes.withUnsafeBytes { raw in
                if let fanout {
                    fanout.send(raw, to: sharing)
                } else {
                    for connection in sharing { connection.write(raw) }
                }
            }
        }
        for viewer in receivers {
            for event in events { sendEvent(event, session: session, to: viewer.connection) }
        }
    }

    /// One delta from what a lagging viewer last received to `scene`: it lost frames, not state.
    private func sendCatchUp(_ viewer: Viewer, session: Session, scene: Scene, pooled: Set<ViewID>) {
        guard var state = viewer.lagging else { return }
        viewer.lagging = nil
        var frame = FrameWriter()
        state.publish(scene, pooled: pooled, writing: &frame)
        let bytes = encodeFrame(frame, session: session)
        bytes.withUnsafeBytes { viewer.connection.write($0) }
        viewer.framesSent += 1
        for event in viewer.missedEvents { sendEvent(event, session: session, to: viewer.connection) }
        viewer.missedEvents.removeAll()
    }

    /// Catches up lagging viewers whose output has drained below the soft limit (called every
    /// tick while any viewer lags, and after a lagging viewer's own requests).
    func catchUpLaggingViewers() -> Bool {
        var anyLagging = false
        for session in sessions.values {
            for viewer in session.viewers.values where viewer.lagging != nil {
                if viewer.connection.queuedBytes <= configuration.viewerSoftLimitBytes {
                    sendCatchUp(viewer, session: session, scene: session.collectionView.scene, pooled: session.collectionView.reusePool.pooledViewIDs)
                    viewer.overSoftLimitSince = nil
                } else if nowMilliseconds - (viewer.overSoftLimitSince ?? nowMilliseconds) > configuration.viewerSoftLimitSeconds * 1000 {
                    disconnectSlowViewer(viewer, session: session, queued: viewer.connection.queuedBytes)
                } else {
                    anyLagging = true
                }
            }
        }
        return anyLagging
    }

    private func disconnectSlowViewer(_ viewer: Viewer, session: Session, queued: Int) {
        viewersDisconnected += 1
        logger.warning("disconnecting viewer \(viewer.connection.id) of '\(session.name)': \(queued) bytes unread (hard limit \(configuration.viewerHardLimitBytes), soft \(configuration.viewerSoftLimitBytes) for \(configuration.viewerSoftLimitSeconds) s)")
        session.viewers[viewer.connection.id] = nil
        viewer.connection.close(reason: "output buffer over the limit")
    }

    private func encodeFrame(_ frame: FrameWriter, session: Session) -> ByteBuffer {
        // Frames of an animation are alike in size: start at the last one's, not at 1 KB and
        // six doublings (and copies) later.
        var b = ByteBuffer(capacity: max(1024, session.lastFrameBytes))
        var envelope = JSONObjectWriter(into: &b)
        envelope.field("jsonrpc", "2.0", into: &b)
        envelope.field("method", "frame", into: &b)
        envelope.key("params", into: &b)
        var o = JSONObjectWriter(into: &b)
        o.field("session", session.name, into: &b)
        o.field("seq", session.seq, into: &b)
        frame.write(&o, into: &b)
        o.end(into: &b)
        envelope.end(into: &b)
        b.append(10)
        session.lastFrameBytes = b.count
        return b
    }

    private func sendEvent(_ event: EngineEvent, session: Session, to connection: Connection) {
        let name: JSONValue = .string(session.name)
        switch event {
        case .selection: break   // the caller of gesture.tap gets these in its reply
        case .selectionChanged(let selected):
            notify("selection.changed", .object(["session": name, "selected": .array(selected.map { .string($0.rawValue) })]), to: connection)
        case .updateCompleted(let update, let finished):
            notify("update.completed", .object(["session": name, "update": .number(Double(update)), "finished": .bool(finished)]), to: connection)
        case .transitionCompleted(let transition, let finished, let installed):
            notify("transition.completed", .object(["session": name, "transition": .number(Double(transition)),
                                                    "finished": .bool(finished), "installed": .bool(installed)]), to: connection)
        case .scrollCompleted(let scroll, let finished):
            notify("scroll.completed", .object(["session": name, "scroll": .number(Double(scroll)), "finished": .bool(finished)]), to: connection)
        }
    }

    // MARK: Frame clock

    func startFrameTimer() {
        guard frameTimer == nil, !isShuttingDown else { return }
        let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
        uv_timer_init(loop.loop, timer)
        timer.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        let schedule = FrameSchedule(interval: 1000 / configuration.framesPerSecond, now: nowMilliseconds)
        frameSchedule = schedule
        frameTimer = timer
        armFrameTimer(delay: schedule.delay(now: nowMilliseconds))
    }

    /// One-shot timers, each armed for the next deadline of `frameSchedule`.
    private func armFrameTimer(delay: UInt64) {
        guard let timer = frameTimer else { return }
        // libuv counts from the loop's cached time, which is as old as this iteration.
        uv_update_time(loop.loop)
        uv_timer_start(timer, { timer in
            Unmanaged<Server>.fromOpaque(timer!.pointee.data).takeUnretainedValue().tick()
        }, delay, 0)
    }

    private func stopFrameTimer() {
        guard let timer = frameTimer else { return }
        frameTimer = nil
        uv_timer_stop(timer)
        uv_close(UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self)) { $0?.deallocate() }
    }

    /// One display tick: advance every animating live session to now and publish its frame;
    /// stop ticking when nothing moves.
    private func tick() {
        var anyAnimating = false
        let now = nowMilliseconds
        let cpuStart = threadCPUMilliseconds
        // A session whose clock a query moved (landing its last animation) publishes that too.
        for session in sessions.values where session.clock == .live
            && (session.collectionView.needsTicks || session.movedSincePublished) {
            session.syncClock(toLoopMilliseconds: now)
            publish(session)
            anyAnimating = anyAnimating || session.collectionView.needsTicks
        }
        let anyLagging = catchUpLaggingViewers()
        let end = nowMilliseconds
        frameTimings.record(end - now)
        frameCPUTimings.record(threadCPUMilliseconds - cpuStart)
        if !anyAnimating && !anyLagging {
            stopFrameTimer()
        } else {
            armFrameTimer(delay: frameSchedule.nextDelay(after: end))
        }
    }

    private var hasLaggingViewers: Bool {
        sessions.values.contains { $0.viewers.values.contains { $0.lagging != nil } }
    }

    /// True while the frame timer runs (for stats and tests of "no ticks when idle").
    var isTicking: Bool { frameTimer != nil }
}

extension Client {
    func isReadOnly(for session: Session) -> Bool { session.viewers[connection.id]?.readOnly ?? false }
}
