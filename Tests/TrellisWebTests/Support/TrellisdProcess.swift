import Foundation
import TrellisClient

/// A real `trellisd` from the build directory on a private temporary socket, without
/// persistence, stopped (SIGTERM, then SIGKILL) by `stop()`.
final class TrellisdProcess: @unchecked Sendable {
    let directory: String
    let socketPath: String
    private let process = Process()

    init() throws {
        directory = NSTemporaryDirectory() + "trellis-web-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // trellisd makes the socket's directory itself, 0700.
        socketPath = directory + "/run/s.sock"
        process.executableURL = Self.executable("trellisd")
        process.arguments = ["--socket", socketPath, "--no-persistence"]
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
    func client() throws -> RPCClient { try RPCClient(path: socketPath, timeout: 10) }

    func stop() {
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

    /// An executable built next to the test bundle.
    static func executable(_ name: String) -> URL {
        var url = Bundle.main.bundleURL
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path) {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent(name)
    }
}
