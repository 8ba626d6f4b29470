#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import TrellisCore
import TrellisProtocol

/// Finds the server on a socket or, like tmux, starts `trellisd` in the background when
/// nothing listens there, then waits until it answers `hello`.
public struct ServerLauncher: Sendable {
    public var socketPath: String
    /// The server binary; nil finds `trellisd` next to the running executable, else on PATH.
    public var executable: String?
    /// How long a started server may take to answer `hello`.
    public var startupTimeout: Double = 5
    /// Seconds each call may wait for its reply.
    public var callTimeout: Double = 30

    public init(socketPath: String, executable: String? = nil) {
        self.socketPath = socketPath
        self.executable = executable
    }

    /// A connection to the server, starting one first when nothing listens and `autoStart` is set.
    public func connect(autoStart: Bool = true) throws(ClientError) -> RPCClient {
        do {
            return try RPCClient(path: socketPath, timeout: callTimeout)
        } catch where error.nothingListens && autoStart {
            _ = try start()
            return try RPCClient(path: socketPath, timeout: callTimeout)
        }
    }

    /// Starts `trellisd --socket PATH` detached (own session, stdio on /dev/null) and waits
    /// until it answers `hello`; returns its pid.
    @discardableResult
    public func start() throws(ClientError) -> Int32 {
        guard let binary = executable ?? Self.locateServer() else {
            throw .launch("no server on \(socketPath), and trellisd was found neither next to \(Self.currentExecutable() ?? "trellis") nor on PATH; start one with: trellisd --socket \(socketPath)")
        }
        let pid = try Self.spawnDetached(binary, arguments: ["--socket", socketPath])
        let deadline = RPCClient.now() + startupTimeout
        var lastError = "it did not answer"
        while RPCClient.now() < deadline {
            if let exited = Self.exitStatus(pid) {
                // Another client may have started a server at the same moment: this one then
                // refuses the live socket and exits, and the other one is the answer.
                if (try? hello()) != nil { return pid }
                throw .launch("trellisd (\(binary)) exited with status \(exited) before listening on \(socketPath); run it in the foreground to see why: \(binary) --socket \(socketPath)")
            }
            do { try hello(); return pid } catch { lastError = error.description }
            usleep(20_000)
        }
        throw .launch("trellisd (\(binary), pid \(pid)) did not answer hello on \(socketPath) within \(JSONNumberText.format(startupTimeout)) s (\(lastError))")
    }

    private func hello() throws(ClientError) {
        let client = try RPCClient(path: socketPath, timeout: 1)
        defer { client.close() }
        try client.call("hello", ["client": .string("trellis")])
    }

    /// `trellisd` in the running executable's directory, else the first one on PATH.
    public static func locateServer(environment path: String? = getenv("PATH").map { String(cString: $0) }) -> String? {
        if let exe = currentExecutable(), let slash = exe.lastIndex(of: "/") {
            let candidate = String(exe[..<slash]) + "/trellisd"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        for directory in (path ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/trellisd"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The absolute path of the running executable (Linux: /proc/self/exe).
    public static func currentExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// posix_spawn with a new session and stdio on /dev/null, so the server outlives the
    /// terminal and the CLI (and holds no pipe a caller waits on).
    static func spawnDetached(_ binary: String, arguments: [String]) throws(ClientError) -> Int32 {
        markInheritedDescriptorsCloseOnExec()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        var result: Int32 = -1
        // POSIX_SPAWN_SETSID (glibc ≥ 2.26) is hidden behind _GNU_SOURCE in Swift's Glibc
        // module, hence the literal; without it the server would still run, only in our session.
        for flags: Int32 in [0x80, 0] {
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            posix_spawnattr_setflags(&attributes, Int16(flags))
            result = posix_spawn(&pid, binary, &actions, &attributes, argv, environ)
            posix_spawnattr_destroy(&attributes)
            if result != EINVAL { break }
        }
        guard result == 0 else {
            throw .launch("cannot start \(binary): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Every descriptor above stderr we inherited (a caller's pipes, Foundation's process
    /// monitoring socket) would otherwise live on in the server and keep whoever waits on them
    /// (a shell's `$(trellis …)`, a test harness) waiting until the server exits.
    static func markInheritedDescriptorsCloseOnExec() {
        var descriptors: [Int32] = []
        if let dir = opendir("/proc/self/fd") {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if let fd = Int32(name), fd > 2 { descriptors.append(fd) }
            }
            closedir(dir)
        } else {
            descriptors = Array(3..<1024)
        }
        for fd in descriptors {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// The exit status of a child that has ended (reaping it), or nil while it runs.
    static func exitStatus(_ pid: Int32) -> Int32? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        guard r == pid else { return nil }
        // WIFEXITED/WEXITSTATUS are macros Swift does not import.
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
