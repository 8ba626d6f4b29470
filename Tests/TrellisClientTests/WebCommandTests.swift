import Foundation
import Testing
import TrellisTestSupport
import TrellisClient
import TrellisCore

/// `trellis web`: it makes sure the server (and with `--demo` the demo session) is there, then
/// becomes trellis-web, which prints the URL to open.
@Suite struct WebCommandTests {
    /// `trellis --socket S arguments…` running in the background until `stop()`; `firstLine()`
    /// waits (at most 30 s) for its first line of standard output.
    final class Running: @unchecked Sendable {
        let process = Process()
        private let out = Pipe()

        init(socket: String, _ arguments: [String]) throws {
            process.executableURL = builtExecutable("trellis")
            process.arguments = ["--socket", socket] + arguments
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// The first line that starts with `prefix`, read on a thread of its own so that a
        /// process that never prints cannot hold the test beyond the deadline.
        func line(startingWith prefix: String) -> String? {
            let found = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var result: String?
            let handle = out.fileHandleForReading
            Thread {
                var buffer = ""
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    buffer += String(decoding: data, as: UTF8.self)
                    if let line = buffer.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                        result = String(line)
                        break
                    }
                }
                found.signal()
            }.start()
            _ = found.wait(timeout: .now() + 30)
            return result
        }

        func stop() {
            if process.isRunning { process.terminate() }
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    @Test func theDemoIsMadeAndServedWithControls() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let web = try Running(socket: server.socketPath, ["web", "--demo", "--control", "--port", "0"])
        defer { web.stop() }
        let line = web.line(startingWith: "trellis-web: ")
        #expect(line?.hasPrefix("trellis-web: http://127.0.0.1:") == true, "\(line ?? "nothing printed")")
        #expect(line?.contains("(watch and drive) → trellisd at \(server.socketPath)") == true)
        // exec: the process that printed is trellis-web itself, so signals reach it directly.
        let image = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(web.process.processIdentifier)/exe")
        #expect(image?.hasSuffix("/trellis-web") == true)
        let info = server.trellis("info", "demo")
        #expect(info.status == 0 && info.stdout.contains("clock: live") && info.stdout.contains("items: 24"), "\(info.stdout)")
    }

    @Test func anyOtherAddressGetsARandomToken() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let web = try Running(socket: server.socketPath, ["web", "--bind", "0.0.0.0", "--port", "0"])
        defer { web.stop() }
        let line = try #require(web.line(startingWith: "trellis-web: "))
        let token = line.split(separator: "?token=").dropFirst().first?.prefix(while: { $0.isHexDigit })
        #expect(token?.count == 32, "\(line)")
        #expect(line.contains("(watch)"))
    }

    @Test func mistakesAreSaidBeforeAnythingIsServed() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let unknown = server.trellis("web", "nosuch")
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("no session named 'nosuch'"))
        let both = server.trellis("web", "other", "--demo")
        #expect(both.status == 64)
        #expect(both.stderr.contains("--demo shows the session 'demo'"))
        let token = server.trellis("web", "--token", "short")
        #expect(token.status != 0)
        #expect(token.stderr.contains("--token takes 16 to 256 characters"))
    }
}
