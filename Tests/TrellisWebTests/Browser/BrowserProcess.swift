import Foundation
import Synchronization

/// Which headless Chromium the browser tests run: `TRELLIS_CHROMIUM` when set, else
/// `chromium-headless-shell` on PATH (Debian's package of the same name).
enum BrowserExecutable: Sendable {
    case found(String)
    /// No browser on this machine: the browser tests are skipped, saying so.
    case missing
    /// `TRELLIS_CHROMIUM` names something that cannot run: the tests fail rather than skip,
    /// since someone asked for that browser.
    case unusable(String)

    static let current: BrowserExecutable = {
        let environment = ProcessInfo.processInfo.environment
        if let named = environment["TRELLIS_CHROMIUM"], !named.isEmpty {
            if let path = resolve(named, environment: environment) { return .found(path) }
            return .unusable("TRELLIS_CHROMIUM=\(named) is not an executable file (nor a command on PATH)")
        }
        if let path = resolve("chromium-headless-shell", environment: environment) { return .found(path) }
        return .missing
    }()

    /// Whether the browser tests can run here (a bad TRELLIS_CHROMIUM counts: they then fail).
    static var isAvailable: Bool {
        if case .missing = current { return false }
        return true
    }

    /// The path to run, or the reason there is none.
    static func path() throws -> String {
        switch current {
        case .found(let path): return path
        case .missing: throw WebTestFailure("no chromium-headless-shell on PATH and TRELLIS_CHROMIUM is not set")
        case .unusable(let reason): throw WebTestFailure(reason)
        }
    }

    private static func resolve(_ name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return directories.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A headless Chromium started for one test: its own temporary profile, a DevTools endpoint on
/// a port the kernel chose, and a process group of its own so `stop()` ends its helpers too.
final class BrowserProcess: Sendable {
    /// The browser-wide DevTools WebSocket, from the `DevTools listening on ws://…` line.
    let devToolsURL: String
    let pid: pid_t
    private let profile: String
    private let log: BrowserLog
    private let stopped = Atomic<Bool>(false)

    /// Starts the browser and waits (at most `timeout` seconds) for its DevTools endpoint.
    static func launch(windowSize: (width: Int, height: Int) = (800, 1000), timeout: Double = 30) async throws -> BrowserProcess {
        let executable = try BrowserExecutable.path()
        // The wait reads a pipe with blocking calls: on a thread of its own, not Swift's
        // cooperative pool, where the in-process web viewer under test runs.
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    try BrowserProcess(executable: executable, windowSize: windowSize, timeout: timeout)
                })
            }.start()
        }
    }

    private init(executable: String, windowSize: (width: Int, height: Int), timeout: Double) throws {
        profile = NSTemporaryDirectory() + "trellis-chromium-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let arguments = [
            executable,
            // A no-op for chromium-headless-shell; makes Debian's full `chromium` headless.
            "--headless",
            "--remote-debugging-port=0",
            // hummingbird-websocket's client sends `Origin: ws://127.0.0.1`, and Chromium refuses
            // a DevTools WebSocket with an Origin it was not told to allow. No web page has this
            // origin, so pages the browser loads still cannot reach its DevTools.
            "--remote-allow-origins=ws://127.0.0.1",
            "--user-data-dir=\(profile)",
            // The tests run as root, where Chromium's sandbox refuses to start.
            "--no-sandbox",
            "--window-size=\(windowSize.width),\(windowSize.height)",
            "--force-device-scale-factor=1",
            "--hide-scrollbars",
            "--disable-gpu",
            // Containers often have a tiny /dev/shm, where Chromium would crash its renderers.
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--mute-audio",
            "about:blank",
        ]
        var pipeEnds: [Int32] = [0, 0]
        // pipe2 is not visible from Swift here; both ends get FD_CLOEXEC right after, so only
        // the browser (through its dup2 to fd 2) keeps the write end.
        guard pipe(&pipeEnds) == 0 else {
            try? FileManager.default.removeItem(atPath: profile)
            throw WebTestFailure("pipe: \(String(cString: strerror(errno)))")
        }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (pgid = its pid), so its renderer and GPU helpers can be ended
        // with it; and no signal mask inherited from the test runner's threads.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))

        var child: pid_t = 0
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let spawned = posix_spawn(&child, executable, &actions, &attributes, cArguments, environ)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            try? FileManager.default.removeItem(atPath: profile)
            throw WebTestFailure("posix_spawn \(executable): \(String(cString: strerror(spawned)))")
        }
        pid = child
        log = BrowserLog(readEnd: readEnd)

        guard let url = log.waitForDevToolsURL(timeout: timeout) else {
            let tail = log.text
            Self.end(group: child)
            try? FileManager.default.removeItem(atPath: profile)
            throw WebTestFailure("\(executable) printed no DevTools endpoint within \(timeout) s; its stderr:\n\(tail.suffix(4000))")
        }
        devToolsURL = url
    }

    /// What the browser wrote to stderr so far (its last 64 KB), for failure messages.
    var stderrText: String { log.text }

    /// Ends the browser (SIGTERM, then SIGKILL after 5 s) and removes its profile. Idempotent.
    func stop() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        Self.end(group: pid)
        try? FileManager.default.removeItem(atPath: profile)
    }

    deinit { stop() }

    /// Ends the group led by `leader`: SIGTERM to all of it, up to 5 s for the leader to exit,
    /// then SIGKILL to whatever of the group is left, and the leader is reaped. Helpers left
    /// after the leader (zygotes linger about 2 s) hold nothing the tests need, so they are not
    /// waited for. (With Debian's /usr/bin/chromium-headless-shell the leader is a shell script
    /// running the browser as its child.) The leader stays a zombie until the group has had
    /// SIGKILL, so its pid, the group's id, cannot have been reused by then.
    private static func end(group leader: pid_t) {
        kill(-leader, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while !hasExited(leader) && Date() < deadline { usleep(10_000) }
        kill(-leader, SIGKILL)
        var status: Int32 = 0
        while waitpid(leader, &status, 0) < 0 && errno == EINTR {}
    }

    /// Whether `pid` has exited, without reaping it.
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        // With WNOHANG a child still running leaves si_pid 0; an error means it is gone.
        return result != 0 || info._sifields._sigchld.si_pid == pid
    }
}

/// The browser's stderr, read on a thread of its own until it closes: the pipe must be drained
/// or Chromium blocks once it fills, and the first lines carry the DevTools endpoint.
final class BrowserLog: Sendable {
    private struct State {
        var text = ""
        var url: String?
        var closed = false
    }
    private let state = Mutex(State())
    private let changed = DispatchSemaphore(value: 0)

    init(readEnd: Int32) {
        Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let n = read(readEnd, &chunk, chunk.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                let piece = String(decoding: chunk[0..<n], as: UTF8.self)
                state.withLock { s in
                    s.text += piece
                    if s.text.utf8.count > 65_536 { s.text = String(s.text.suffix(32_768)) }
                    if s.url == nil, let line = s.text.split(separator: "\n").first(where: { $0.contains("DevTools listening on ws://") }),
                       let start = line.range(of: "ws://") {
                        s.url = String(line[start.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
                    }
                }
                changed.signal()
            }
            close(readEnd)
            state.withLock { $0.closed = true }
            changed.signal()
        }.start()
    }

    var text: String { state.withLock { $0.text } }

    /// Blocks until the endpoint line came, stderr closed (the browser died) or `timeout` passed.
    func waitForDevToolsURL(timeout: Double) -> String? {
        let deadline = DispatchTime.now() + timeout
        while true {
            let (url, closed) = state.withLock { ($0.url, $0.closed) }
            if let url { return url }
            if closed { return nil }
            if changed.wait(timeout: deadline) == .timedOut { return state.withLock { $0.url } }
        }
    }
}
