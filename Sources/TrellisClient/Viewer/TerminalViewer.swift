#if canImport(Glibc)
import Glibc
#endif
import CLibUV
import TrellisCore
import TrellisProtocol

/// `trellis attach`: a live view of one session in the terminal, on one libuv loop that reads
/// the server's socket, the keyboard (a tty in raw mode) and signals. It attaches, mirrors the
/// scene from the keyframe and the `frame` deltas (`ViewerMirror`), draws it (`SceneRasterizer`,
/// `TerminalScreen`) with a status line, scrolls the session on arrow keys, and gives the
/// terminal back as it found it however it ends (q, Ctrl-C, SIGINT/SIGTERM/SIGHUP, the
/// session closing, the server going away). Confined to the thread that calls `run`.
public final class TerminalViewer {
    /// What to watch and how to show it.
    public struct Configuration: Sendable {
        /// Where the frames go.
        public enum Output: Hashable, Sendable {
            /// The terminal on stdin/stdout: alternate screen, raw keys, live redraws.
            case terminal
            /// Plain text on stdout, one block per frame drawn (no terminal needed; with `frameLimit`).
            case text(columns: Int, rows: Int)
        }

        public var socketPath: String
        public var session: String
        /// Attach read-only: scrolling keys are ignored.
        public var readOnly = false
        /// Stop after drawing this many frames.
        public var frameLimit: Int?
        public var output: Output = .terminal
        /// Decides colours (`TERM`, `COLORTERM`, `NO_COLOR`) and box characters (the locale).
        public var environment: [String: String] = [:]

        public init(socketPath: String, session: String) {
            self.socketPath = socketPath
            self.session = session
        }
    }

    /// Why the viewer stopped.
    public enum Exit: Sendable {
        /// q or Ctrl-C.
        case quit
        /// `frameLimit` frames were drawn.
        case frameLimit
        /// The session was destroyed or the server is shutting down (`session.closed`'s reason).
        case sessionClosed(reason: String)
        /// SIGINT, SIGTERM or SIGHUP.
        case signal(Int32)
        /// Attaching failed, or the connection broke.
        case failed(ClientError)
    }

    public let configuration: Configuration
    private let loop: UnsafeMutablePointer<uv_loop_t>
    private let connection: LoopConnection
    private let rasterizer: SceneRasterizer
    private var stdinTTY: UnsafeMutablePointer<uv_tty_t>?
    private var stdoutTTY: UnsafeMutablePointer<uv_tty_t>?
    private var handles: [UnsafeMutablePointer<uv_handle_t>] = []
    private var timers: [(seconds: Double, action: (TerminalViewer) -> Void)] = []
    private var timerActions: [UnsafeMutableRawPointer: (TerminalViewer) -> Void] = [:]

    private var mirror: ViewerMirror?
    private var awaitingKeyframe = true
    /// Nothing is drawn before the first `stats` reply, so the first frame already has the
    /// reuse figures (matters for `--frames 1`).
    private var ready = false
    private var terminalTaken = false
    private var screen = TerminalScreen()
    private var status: ViewerStatus
    private var meter = FrameRateMeter()
    private var framesDrawn = 0
    private var size = (columns: 80, rows: 24)
    private var sceneChanged = false
    private var statsWanted = true
    private var statsInFlight = false
    /// The offset last asked for with `scroll.to`, until a frame shows it: keys pressed in the
    /// meantime scroll on from there, not from the stale mirror.
    private var scrollTarget: Point?
    private var exitReason: Exit?

    public init(_ configuration: Configuration) throws(ClientError) {
        self.configuration = configuration
        loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        let status = uv_loop_init(loop)
        guard status == 0 else {
            loop.deallocate()
            throw .launch("cannot start the viewer's event loop: \(String(cString: uv_strerror(status)))")
        }
        connection = LoopConnection(loop: loop, path: configuration.socketPath)
        rasterizer = SceneRasterizer(colorDepth: ColorDepth.detect(configuration.environment),
                                     unicode: BoxGlyphs.terminalSpeaksUTF8(configuration.environment))
        self.status = ViewerStatus(session: configuration.session)
        self.status.readOnly = configuration.readOnly
        if case .text(let columns, let rows) = configuration.output { size = (max(1, columns), max(2, rows)) }
    }

    deinit {
        // `run` has closed the loop already; a viewer that never ran still has to.
        closeEverything()
        loop.deallocate()
    }

    /// Calls `action` every `seconds` once attached (the demo's driver); call before `run`.
    public func repeatEvery(_ seconds: Double, _ action: @escaping (TerminalViewer) -> Void) {
        timers.append((seconds, action))
    }

    /// Sends a request on the viewer's connection (refused with `read_only` when attached read-only).
    public func call(_ method: String, _ params: [String: JSONValue],
                     reply: ((Result<JSONValue, ClientError>) -> Void)? = nil) {
        connection.call(method, params, reply: reply)
    }

    /// Stops the viewer as q does.
    public func stop() { finish(.quit) }

    /// The size of the terminal on stdout (columns, rows), nil when stdout is not a terminal.
    /// Asked on a copy of the descriptor: libuv reopens the tty it is given.
    public static func terminalSize() -> (columns: Int, rows: Int)? {
        guard isatty(1) == 1 else { return nil }
        let fd = dup(1)
        guard fd >= 0 else { return nil }
        var loop = uv_loop_t()
        guard uv_loop_init(&loop) == 0 else { close(fd); return nil }
        var tty = uv_tty_t()
        var width: Int32 = 0, height: Int32 = 0
        var found = false
        if uv_tty_init(&loop, &tty, fd, 0) == 0 {
            found = uv_tty_get_winsize(&tty, &width, &height) == 0 && width > 0 && height > 1
            withUnsafeMutablePointer(to: &tty) { uv_close(UnsafeMutableRawPointer($0).assumingMemoryBound(to: uv_handle_t.self), nil) }
            uv_run(&loop, UV_RUN_DEFAULT)
        }
        // uv_close leaves stdio descriptors open, and this one is a copy above them.
        close(fd)
        uv_loop_close(&loop)
        return found ? (Int(width), Int(height)) : nil
    }

    /// A short message at the end of the status line.
    public func setNote(_ note: String) {
        status.note = note
        if case .terminal = configuration.output { render(countsAsFrame: false) }
    }

    /// Runs until the viewer stops; the terminal is restored before it returns.
    public func run() -> Exit {
        // A server that vanishes mid-write must be an error to report, not a silent death.
        signal(SIGPIPE, SIG_IGN)
        if case .terminal = configuration.output { openTerminal() }
        for signal in [SIGINT, SIGTERM, SIGHUP] { watch(signal) }
        if stdoutTTY != nil { watch(SIGWINCH) }
        startTimer(0.25) { $0.statusTick() }
        connection.onConnect = { [unowned self] error in
            if let error { self.finish(.failed(error)) } else { self.attach() }
        }
        connection.onNotification = { [unowned self] in self.handleNotification($0) }
        connection.onReadHandled = { [unowned self] in
            if self.sceneChanged { self.render(countsAsFrame: true) }
        }
        connection.onClose = { [unowned self] reason in
            self.finish(.failed(.disconnected(path: self.configuration.socketPath, reason: reason)))
        }
        connection.connect()
        uv_run(loop, UV_RUN_DEFAULT)
        restoreTerminal()
        closeEverything()
        return exitReason ?? .failed(.disconnected(path: configuration.socketPath, reason: "the viewer's loop ended"))
    }

    // MARK: Session

    private func attach() {
        awaitingKeyframe = true
        var params: [String: JSONValue] = ["session": .string(configuration.session)]
        if configuration.readOnly { params["readOnly"] = .bool(true) }
        connection.call("session.attach", params) { [unowned self] result in
            switch result {
            case .failure(let error): self.finish(.failed(error))
            case .success(let reply):
                guard let keyframe = reply["keyframe"], let scene = try? WireScene.scene(keyframe),
                      let seq = reply["seq"]?.numberValue else {
                    self.finish(.failed(.badReply("session.attach: \(JSONWriter.string(reply).prefix(200))")))
                    return
                }
                let firstTime = self.mirror == nil
                self.mirror = ViewerMirror(keyframe: scene, seq: Int(seq))
                self.awaitingKeyframe = false
                self.scrollTarget = nil
                self.statsWanted = true
                if firstTime {
                    self.takeTerminal()
                    for (seconds, action) in self.timers { self.startTimer(seconds, action) }
                }
                self.sceneChanged = true
                self.requestStats()
            }
        }
    }

    private func handleNotification(_ message: JSONValue) {
        let params = message["params"] ?? .null
        guard params["session"]?.stringValue == configuration.session else { return }
        switch message["method"]?.stringValue {
        case "frame":
            // Frames between a re-attach and its reply are deltas against the old state: the
            // keyframe replaces them.
            guard !awaitingKeyframe, var held = mirror, let seq = params["seq"]?.numberValue else { return }
            guard let delta = try? WireScene.delta(params) else {
                resynchronize("a frame that does not parse")
                return
            }
            switch held.apply(delta, seq: Int(seq)) {
            case .applied:
                mirror = held
                meter.record(at: Self.now())
                sceneChanged = true
                if !(delta.created.isEmpty && delta.bound.isEmpty && delta.unbound.isEmpty && delta.destroyed.isEmpty) {
                    statsWanted = true
                }
                if let target = scrollTarget, delta.contentOffset == target { scrollTarget = nil }
            case .stale:
                break
            case .needsKeyframe(let reason):
                resynchronize(reason)
            }
        case "session.closed":
            finish(.sessionClosed(reason: params["reason"]?.stringValue ?? "closed"))
        default:
            break   // events the viewer does not show (update.completed, selection.changed, …)
        }
    }

    /// Asks for the whole state again: attaching anew resets what the server holds for this
    /// viewer to the keyframe it sends, so the deltas that follow fit again.
    private func resynchronize(_ reason: String) {
        status.note = "resynchronised (\(reason))"
        attach()
    }

    private func requestStats() {
        guard !statsInFlight else { return }
        statsInFlight = true
        statsWanted = false
        connection.call("stats", ["session": .string(configuration.session)]) { [unowned self] result in
            self.statsInFlight = false
            if case .success(let stats) = result, case .object(let pools)? = stats["pool"] {
                var pooled = 0, created = 0, reused = 0
                for (_, pool) in pools {
                    pooled += Int(pool["pooled"]?.numberValue ?? 0)
                    created += Int(pool["created"]?.numberValue ?? 0)
                    reused += Int(pool["reused"]?.numberValue ?? 0)
                }
                (self.status.pooled, self.status.created, self.status.reused) = (pooled, created, reused)
            }
            if !self.ready {
                self.ready = true
                self.render(countsAsFrame: true)
            } else if case .terminal = self.configuration.output {
                self.render(countsAsFrame: false)
            }
        }
    }

    private func statusTick() {
        guard ready else { return }
        if statsWanted { requestStats() }
        // Redrawn only when the rate shown changes: an idle viewer costs nothing.
        if case .terminal = configuration.output, meter.rate(now: Self.now()) != status.framesPerSecond {
            render(countsAsFrame: false)
        }
    }

    // MARK: Keys and scrolling

    private func handleKeys(_ bytes: [UInt8]) {
        for key in TerminalKey.decode(bytes) {
            switch key {
            case .character("q"), .character("Q"), .interrupt:
                finish(.quit)
                return
            case .up, .character("k"): scroll(dy: -3)
            case .down, .character("j"): scroll(dy: 3)
            case .left, .character("h"): scroll(dx: -6)
            case .right, .character("l"): scroll(dx: 6)
            case .pageUp: scroll(pages: -1)
            case .pageDown, .character(" "): scroll(pages: 1)
            case .home, .character("g"): scroll(to: .top)
            case .end, .character("G"): scroll(to: .bottom)
            default: break
            }
        }
    }

    private enum Edge { case top, bottom }

    /// Scrolls by whole cells (`dx` columns, `dy` rows) as drawn now, or by pages of the bounds.
    private func scroll(dx: Int = 0, dy: Int = 0, pages: Double = 0, to edge: Edge? = nil) {
        guard let scene = mirror?.scene else { return }
        guard !configuration.readOnly else {
            setNote("scroll keys off")
            return
        }
        let mapping = currentMapping(scene)
        let base = scrollTarget ?? scene.contentOffset
        var target = Point(base.x + Double(dx) * mapping.pointsPerColumn,
                           base.y + Double(dy) * mapping.pointsPerRow + pages * scene.boundsSize.height * 0.9)
        switch edge {
        case .top: target.y = 0
        case .bottom: target.y = .infinity
        case nil: break
        }
        // scroll.to is unclamped (as setContentOffset); keys stay inside the content.
        let maxX = max(0, scene.contentSize.width - scene.boundsSize.width)
        let maxY = max(0, scene.contentSize.height - scene.boundsSize.height)
        target = Point(min(max(target.x, 0), maxX), min(max(target.y, 0), maxY))
        guard target != base else { return }
        scrollTarget = target
        connection.call("scroll.to", ["session": .string(configuration.session),
                                      "offset": .array([.number(target.x), .number(target.y)])]) { [unowned self] result in
            if case .failure(let error) = result {
                self.scrollTarget = nil
                self.setNote("scroll refused: \(error)")
            }
        }
    }

    // MARK: Drawing

    private func currentMapping(_ scene: Scene) -> ViewportMapping {
        ViewportMapping(visible: Rect(origin: scene.contentOffset, size: scene.boundsSize),
                        columns: size.columns, rows: max(1, size.rows - 1))
    }

    private func render(countsAsFrame: Bool) {
        guard ready, exitReason == nil, let mirror else { return }
        if countsAsFrame { sceneChanged = false }
        let scene = mirror.scene
        var canvas = TerminalCanvas(columns: size.columns, rows: size.rows)
        let mapping = currentMapping(scene)
        rasterizer.draw(scene, mapping: mapping, into: &canvas)
        drawEdges(of: mapping, into: &canvas)
        status.seq = mirror.seq
        status.bound = mirror.boundCount
        status.skippedFrames = mirror.skippedFrames
        status.framesPerSecond = meter.rate(now: Self.now())
        canvas.write(status.line(width: size.columns), column: 0, row: size.rows - 1, style: CellStyle(inverse: true))
        switch configuration.output {
        case .terminal:
            writeOut(screen.update(to: canvas))
        case .text:
            guard countsAsFrame else { return }
            writeOut(canvas.lines.joined(separator: "\n") + "\n\n")
        }
        guard countsAsFrame else { return }
        framesDrawn += 1
        if let limit = configuration.frameLimit, framesDrawn >= limit { finish(.frameLimit) }
    }

    /// Faint lines either side of the visible rect when the terminal is wider than the view, so
    /// the session's bounds show.
    private func drawEdges(of mapping: ViewportMapping, into canvas: inout TerminalCanvas) {
        let glyph: Unicode.Scalar = rasterizer.unicode ? "┊" : ":"
        let style = CellStyle(intensity: .dim)
        for column in [mapping.columnOffset - 1, mapping.columnOffset + mapping.visibleColumns] where column >= 0 && column < canvas.columns {
            for row in mapping.rowOffset..<(mapping.rowOffset + mapping.visibleRows) {
                canvas[column, row] = TerminalCell(glyph, style: style)
            }
        }
    }

    // MARK: Terminal

    private func openTerminal() {
        if isatty(1) == 1 {
            let tty = allocateHandle(UV_TTY, as: uv_tty_t.self)
            if uv_tty_init(loop, tty, 1, 0) == 0 {
                // Output is written synchronously: a slow terminal then slows our reading of the
                // socket, and the server skips frames for us instead of queueing them.
                uv_stream_set_blocking(UnsafeMutableRawPointer(tty).assumingMemoryBound(to: uv_stream_t.self), 1)
                stdoutTTY = tty
                register(tty)
                readWindowSize()
            } else {
                UnsafeMutableRawPointer(tty).deallocate()
            }
        }
        if isatty(0) == 1 {
            let tty = allocateHandle(UV_TTY, as: uv_tty_t.self)
            if uv_tty_init(loop, tty, 0, 1) == 0 {
                stdinTTY = tty
                register(tty)
            } else {
                UnsafeMutableRawPointer(tty).deallocate()
            }
        }
    }

    /// Raw keys and the alternate screen, once the session is attached (an attach that fails
    /// leaves the terminal untouched and its message readable).
    private func takeTerminal() {
        guard case .terminal = configuration.output, !terminalTaken else { return }
        terminalTaken = true
        if let tty = stdinTTY {
            uv_tty_set_mode(tty, UV_TTY_MODE_RAW)
            uv_read_start(UnsafeMutableRawPointer(tty).assumingMemoryBound(to: uv_stream_t.self), { _, suggested, buf in
                let size = min(suggested, 4096)
                buf!.pointee = uv_buf_init(UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1).assumingMemoryBound(to: CChar.self), UInt32(size))
            }, { stream, nread, buf in
                defer { if let base = buf?.pointee.base { UnsafeMutableRawPointer(base).deallocate() } }
                let viewer = Unmanaged<TerminalViewer>.fromOpaque(stream!.pointee.data).takeUnretainedValue()
                if nread > 0, let base = buf?.pointee.base {
                    viewer.handleKeys(Array(UnsafeRawBufferPointer(start: base, count: nread)))
                } else if nread < 0 {
                    // The terminal went away: nothing left to draw on.
                    viewer.finish(.quit)
                }
            })
        }
        writeOut(TerminalScreen.enter)
    }

    private func readWindowSize() {
        guard let tty = stdoutTTY else { return }
        var width: Int32 = 0, height: Int32 = 0
        if uv_tty_get_winsize(tty, &width, &height) == 0, width > 0, height > 1 {
            size = (Int(width), Int(height))
        }
    }

    private func restoreTerminal() {
        guard terminalTaken else { return }
        terminalTaken = false
        writeOut(TerminalScreen.leave)
        uv_tty_reset_mode()
    }

    /// Writes everything, waiting for the terminal when it pushes back.
    private func writeOut(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n; continue }
            if n < 0 && (errno == EINTR) { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var descriptor = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 1000)
                continue
            }
            return   // stdout is gone; nothing to show anything on
        }
        bytes.removeAll()
    }

    // MARK: Signals, timers, handles

    private func watch(_ signal: Int32) {
        let handle = allocateHandle(UV_SIGNAL, as: uv_signal_t.self)
        uv_signal_init(loop, handle)
        register(handle)
        uv_signal_start(handle, { handle, signal in
            let viewer = Unmanaged<TerminalViewer>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            if signal == SIGWINCH {
                viewer.readWindowSize()
                viewer.screen.invalidate()
                viewer.render(countsAsFrame: false)
            } else {
                viewer.finish(.signal(signal))
            }
        }, signal)
    }

    private func startTimer(_ seconds: Double, _ action: @escaping (TerminalViewer) -> Void) {
        let handle = allocateHandle(UV_TIMER, as: uv_timer_t.self)
        uv_timer_init(loop, handle)
        register(handle)
        timerActions[UnsafeMutableRawPointer(handle)] = action
        let ms = UInt64(max(1, (seconds * 1000).rounded()))
        uv_timer_start(handle, { handle in
            let viewer = Unmanaged<TerminalViewer>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            guard viewer.exitReason == nil else { return }
            viewer.timerActions[UnsafeMutableRawPointer(handle!)]?(viewer)
        }, ms, ms)
    }

    private func allocateHandle<T>(_ type: uv_handle_type, as: T.Type) -> UnsafeMutablePointer<T> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: uv_handle_size(type), alignment: 16)
        return raw.bindMemory(to: T.self, capacity: 1)
    }

    /// Every handle's `data` is this viewer, which outlives them: `run` closes them all before
    /// it returns.
    private func register<T>(_ handle: UnsafeMutablePointer<T>) {
        let generic = UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)
        generic.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        handles.append(generic)
    }

    /// Stops the viewer: the terminal is given back at once (a signal may be followed by worse),
    /// then the loop winds down.
    private func finish(_ reason: Exit) {
        guard exitReason == nil else { return }
        exitReason = reason
        restoreTerminal()
        for handle in handles where uv_is_closing(handle) == 0 { uv_close(handle, nil) }
        if !connection.isClosed { connection.close(reason: "viewer stopped") }
        uv_stop(loop)
    }

    private var loopClosed = false

    /// Closes every handle, lets their callbacks run, frees them and closes the loop.
    private func closeEverything() {
        guard !loopClosed else { return }
        loopClosed = true
        for handle in handles where uv_is_closing(handle) == 0 { uv_close(handle, nil) }
        if !connection.isClosed { connection.close(reason: "viewer stopped") }
        uv_run(loop, UV_RUN_DEFAULT)
        for handle in handles { UnsafeMutableRawPointer(handle).deallocate() }
        handles.removeAll()
        uv_loop_close(loop)
    }

    static func now() -> Double { Double(uv_hrtime()) / 1e9 }
}
