import Foundation
import TrellisCore
import TrellisProtocol

/// A real `trellisd` process on a temporary socket, for integration tests: started from the
/// build directory, stopped (SIGTERM, then SIGKILL) when the test is done.
final class ServerProcess: @unchecked Sendable {
    /// The server's socket, log and state, removed once no server process uses it any more.
    let scratch: ScratchDirectory
    var directory: String { scratch.path }
    let socketPath: String
    let process = Process()
    /// The server's log: a file, never a pipe nobody reads (a full pipe would block the server).
    let logPath: String

    /// The built `trellisd` next to the test bundle.
    static var executable: URL {
        var url = Bundle.main.bundleURL
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: url.appendingPathComponent("trellisd").path) {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("trellisd")
    }

    /// A server in a new scratch directory, or in `directory` (a restart on another server's
    /// state), answering within `startSeconds` (a debug build replaying a large journal on a
    /// loaded machine needs more than the default).
    init(arguments: [String] = [], directory: ScratchDirectory? = nil, startSeconds: Double = 10) throws {
        scratch = directory ?? ScratchDirectory(prefix: "trellis-it")
        socketPath = scratch.path + "/s.sock"
        process.executableURL = Self.executable
        // Each test's state stays in its own directory (never in ~/.local/state), and a restart
        // on the same directory finds it again.
        let state = arguments.contains("--state-dir") || arguments.contains("--no-persistence")
            ? [] : ["--state-dir", scratch.path + "/state"]
        process.arguments = ["--socket", socketPath, "--log-level", "debug"] + state + arguments
        logPath = scratch.path + "/trellisd.log"
        FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(startSeconds)
        while Date() < deadline {
            // Ready means a request is answered: the socket listens before the journal is read, so
            // a connect alone can succeed on a server that is about to exit on a damaged state.
            if let c = try? RPCConnection(path: socketPath), (try? c.call("hello"))?["result"] != nil {
                c.close()
                return
            }
            if !process.isRunning { break }
            usleep(10_000)
        }
        throw TestFailure("trellisd did not start listening on \(socketPath): \(stderrText)")
    }

    var stderrText: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// A connection whose reads give up after `seconds` (a safety net, not a measure: a reply
    /// that waits for a long advance needs more on a loaded machine).
    func connect(seconds: Int = 10) throws -> RPCConnection { try RPCConnection(path: socketPath, seconds: seconds) }

    /// SIGTERM and wait (graceful); SIGKILL after 5 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    /// kill -9: no cleanup at all.
    func crash() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// A private temporary directory (0700), removed with everything in it when the last owner
/// lets go: test runs used to leave thousands of them behind.
final class ScratchDirectory: @unchecked Sendable {
    let path: String

    init(prefix: String) {
        path = NSTemporaryDirectory() + "\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(path, 0o700)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A blocking NDJSON JSON-RPC client over a Unix socket, for tests: requests, their replies,
/// and the notifications that arrive in between (kept in `notifications`).
final class RPCConnection: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1
    var notifications: [JSONValue] = []
    /// Every message line as it arrived, when set (to compare frames byte for byte).
    var keepsRawLines = false
    var rawLines: [[UInt8]] = []

    init(path: String, seconds: Int = 10) throws {
        // Close-on-exec: servers other tests start in parallel must not inherit this socket.
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else { close(); throw TestFailure("connect \(path): \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private var isClosed = false
    /// Closes once: a second close(2) of the same number could close another test's socket,
    /// since tests run in parallel and descriptor numbers are reused at once.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }
    deinit { close() }

    func sendRaw(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads one message line; nil at EOF or timeout.
    func readMessage() -> JSONValue? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if keepsRawLines { rawLines.append(line) }
                return try? JSONParser.parse(line)
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            // Other tests' children exiting deliver SIGCHLD here: an interrupted read is retried.
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// Sends a request and returns its whole reply (`result` or `error`), collecting notifications.
    @discardableResult
    func call(_ method: String, _ params: [String: JSONValue] = [:]) throws -> JSONValue {
        let id = nextID
        nextID += 1
        var request = ByteBuffer()
        JSONWriter.write(.object(["jsonrpc": .string("2.0"), "id": .number(Double(id)), "method": .string(method),
                                  "params": .object(params)]), into: &request)
        request.append(10)
        sendRaw(String(decoding: request.bytes, as: UTF8.self))
        while let message = readMessage() {
            if message["id"] == .number(Double(id)) { return message }
            notifications.append(message)
        }
        throw TestFailure("no reply to \(method)")
    }

    /// The `result` of a call that must succeed.
    func result(_ method: String, _ params: [String: JSONValue] = [:]) throws -> JSONValue {
        let reply = try call(method, params)
        guard let result = reply["result"] else { throw TestFailure("\(method) failed: \(JSONWriter.string(reply))") }
        return result
    }
}
