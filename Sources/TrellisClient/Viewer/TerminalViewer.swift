#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol
import TrellisTransport

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
            /// One JSON object per frame on stdout, `{"seq": N, "scene": SCENE}` with the mirrored
            /// scene as `query.scene` writes it (`trellis --json attach`).
            case json
        }

        public var socketPath: String
        public var session: String
        /// Attach read-only: scrolling keys are ignored.
        public var readOnly = false
        /// Stop after drawing this many frames.
        public var frameLimit: Int?
        /// Start with the debug layer shown (the `d` key toggles it).
        public var debug = false
        public var output: Output = .terminal
        /// Show this past moment of the session's recording instead of the live session
        /// (`session.seek`; read-only, moved through with timeline keys).
        public var past: PastMoment?
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
    let loop: EventLoop
    let connection: LoopConnection
    let rasterizer: SceneRasterizer
    /// Each view's label and colour, kept between frames.
    var appearances = ViewAppearances()
    var stdinTTY: TTY?
    var stdoutTTY: TTY?
    /// The loop's other handles (TerminalViewer+Handles.swift), closed together when the viewer stops.
    var signalWatchers: [SignalWatcher] = []
    var runningTimers: [LoopTimer] = []
    var timers: [(seconds: Double, action: (TerminalViewer) -> Void)] = []

    var mirror: ViewerMirror?
    var awaitingKeyframe = true
    /// Nothing is drawn before the first `stats` reply, so the first frame already has the
    /// reuse figures (matters for `--frames 1`).
    var ready = false
    var terminalTaken = false
    var screen = TerminalScreen()
    var status: ViewerStatus
    var meter = FrameRateMeter()
    var framesDrawn = 0
    var size = (columns: 80, rows: 24)
    var sceneChanged = false
    var statsWanted = true
    var statsInFlight = false
    /// A line above the scene (the demo's step), nil for none.
    var caption: String?
    /// The offset last asked for with `scroll.to`, until a frame shows it: keys pressed in the
    /// meantime scroll on from there, not from the stale mirror.
    var scrollTarget: Point?
    var exitReason: Exit?
    /// The debug layer is shown (asked for on attach), and what the session sent of it.
    var showsDebug = false
    var debugLayer = DebugLayerState()
    /// `closeEverything` ran (it runs once, from `run` or `deinit`).
    var loopClosed = false
    /// The past moment shown instead of the live session (TerminalViewer+Past.swift).
    var past: PastView?

    public init(_ configuration: Configuration) throws(ClientError) {
        self.configuration = configuration
        showsDebug = configuration.debug
        // SIGPIPE is ignored by `run`, not before.
        do { loop = try EventLoop(ignoringBrokenPipes: false) } catch {
            throw .launch("cannot start the viewer's event loop: \(error.reason)")
        }
        connection = LoopConnection(loop: loop, path: configuration.socketPath)
        rasterizer = SceneRasterizer(colorDepth: ColorDepth.detect(configuration.environment),
                                     unicode: BoxGlyphs.terminalSpeaksUTF8(configuration.environment))
        self.status = ViewerStatus(session: configuration.session)
        self.status.readOnly = configuration.readOnly || configuration.past != nil
        past = configuration.past.map(PastView.init)
        if case .text(let columns, let rows) = configuration.output { size = (max(1, columns), max(2, rows)) }
    }

    deinit {
        // `run` has closed the loop already; a viewer that never ran still has to.
        closeEverything()
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

    /// A line above the scene, nil for none: the demo names what each step shows there. The
    /// scene gets one row less.
    public func setCaption(_ caption: String?) {
        let rowsChange = (caption == nil) != (self.caption == nil)
        self.caption = caption
        if rowsChange { screen.invalidate() }
        if case .terminal = configuration.output { render(countsAsFrame: false) }
    }

    /// Stops the viewer as q does.
    public func stop() { finish(.quit) }

    /// The size of the terminal on stdout (columns, rows), nil when stdout is not a terminal.
    public static func terminalSize() -> (columns: Int, rows: Int)? {
        guard isatty(1) == 1, let size = TTY.windowSize(ofDescriptor: 1), size.columns > 0, size.rows > 1 else { return nil }
        return size
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
        if past == nil { startTimer(0.25) { $0.statusTick() } }
        connection.onConnect = { [unowned self] error in
            if let error { self.finish(.failed(error)) } else if self.past != nil { self.startPast() } else { self.attach() }
        }
        connection.onNotification = { [unowned self] in self.handleNotification($0) }
        connection.onReadHandled = { [unowned self] in
            if self.sceneChanged { self.render(countsAsFrame: true) }
        }
        connection.onClose = { [unowned self] reason in
            self.finish(.failed(.disconnected(path: self.configuration.socketPath, reason: reason)))
        }
        connection.connect()
        loop.run()
        restoreTerminal()
        closeEverything()
        return exitReason ?? .failed(.disconnected(path: configuration.socketPath, reason: "the viewer's loop ended"))
    }
}
