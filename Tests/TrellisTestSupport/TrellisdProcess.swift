import Foundation
import TrellisClient

/// A real `trellisd` from the build directory on a private temporary socket, without
/// persistence, stopped (SIGTERM, then SIGKILL) by `stop()` or when let go: the server the
/// client and web integration tests talk to.
public final class TrellisdProcess: @unchecked Sendable {
    /// A private directory for this server (its socket under `run/`), removed by `stop()`.
    public let directory: String
    public let socketPath: String
    private let process = Process()

    /// A fresh path under the temporary directory, unique to this process and call.
    public static func temporaryDirectory() -> String {
        NSTemporaryDirectory() + "trellis-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// `arguments` are trellisd options beyond the socket (e.g. its viewer limits);
    /// `keepsState`: a state directory of its own under `directory` instead of none.
    public init(arguments: [String] = [], keepsState: Bool = false) throws {
        directory = Self.temporaryDirectory()
        // trellisd makes the socket's directory itself, 0700.
        socketPath = directory + "/run/s.sock"
        process.executableURL = builtExecutable("trellisd")
        let state = keepsState ? ["--state-dir", directory + "/state"] : ["--no-persistence"]
        process.arguments = ["--socket", socketPath] + state + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready means a request is answered; a bounded wait for a process to start listening.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let client = try? RPCClient(path: socketPath, timeout: 2), (try? client.call("hello")) != nil { return }
            if !process.isRunning { break }
            usleep(10_000)
        }
        stop()
        throw ClientError.launch("trellisd did not start on \(socketPath)")
    }

    /// A new blocking client of this server.
    public func client() throws -> RPCClient { try RPCClient(path: socketPath, timeout: 10) }

    public func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }
}

/// The built executable `name` next to the test bundle (.build/debug).
public func builtExecutable(_ name: String) -> URL {
    var url = Bundle.main.bundleURL
    for _ in 0..<4 where !FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path) {
        url.deleteLastPathComponent()
    }
    return url.appendingPathComponent(name)
}

/// Runs the built `trellis` with `arguments` to its end: its exit status and its stdout and
/// stderr together.
public func trellisCombinedOutput(_ arguments: [String]) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = builtExecutable("trellis")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do { try process.run() } catch { return (-1, "\(error)") }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
