import Foundation

/// A long-running program of the build (a server) started with its standard output read on a
/// thread of its own, line by line, for as long as it runs (so it can never block on a full
/// pipe); a test waits for the line that says it is ready. Stopped with SIGTERM, as a service
/// manager stops it, then SIGKILL after a grace period.
public final class ServiceProcess: @unchecked Sendable {
    public let process = Process()
    private let output = Pipe()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false

    /// Starts `name` (an executable built beside the tests) with `arguments`, in this process's
    /// environment plus `environment`; its standard error is dropped, or read as output too
    /// (`readingErrors`: a server's log).
    public init(_ name: String, _ arguments: [String], environment: [String: String] = [:], readingErrors: Bool = false) throws {
        process.executableURL = builtExecutable(name)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = output
        process.standardError = readingErrors ? output : FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        Thread { [self] in
            var pending = ""
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                pending += String(decoding: data, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<newline])
                    pending = String(pending[pending.index(after: newline)...])
                    condition.withLock { lines.append(line) }
                    condition.broadcast()
                }
            }
            condition.withLock { ended = true }
            condition.broadcast()
        }.start()
    }

    /// The first line of output that starts with `prefix`, waiting at most `seconds`; nil when
    /// the program ended or the time ran out first.
    public func line(startingWith prefix: String, seconds: Double = 30) -> String? {
        firstLine(seconds: seconds) { $0.hasPrefix(prefix) }
    }

    /// The first line of output that contains `text`, waiting at most `seconds`.
    public func line(containing text: String, seconds: Double = 30) -> String? {
        firstLine(seconds: seconds) { $0.contains(text) }
    }

    private func firstLine(seconds: Double, where matches: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = lines.first(where: matches) { return line }
            if ended || !condition.wait(until: deadline) { return lines.first(where: matches) }
        }
    }

    /// SIGTERM, up to `grace` seconds for the program to finish, then SIGKILL.
    public func stop(grace: Double = 10) {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
