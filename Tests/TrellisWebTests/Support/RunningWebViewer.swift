import Foundation
import TrellisProtocol
import TrellisTestSupport

/// trellis-web as a user runs it: the built binary in a process of its own on a free loopback
/// port, until `stop()`. A process, not the library in the test's process: the tests' own
/// blocking work (other suites run beside these) cannot then starve the server they talk to.
struct RunningWebViewer: Sendable {
    let port: Int
    private let service: ServiceProcess

    static func start(
        socketPath: String, defaultSession: String? = nil, control: Bool = false, token: AccessToken? = nil
    ) async throws -> RunningWebViewer {
        var arguments = ["--socket", socketPath, "--port", "0", "--log-level", "error"]
        if control { arguments.append("--control") }
        if let token { arguments += ["--token", token.value] }
        if let defaultSession { arguments.append(defaultSession) }
        let service = try ServiceProcess("trellis-web", arguments)
        // It prints `trellis-web: http://127.0.0.1:PORT/… once it accepts connections.
        let line = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: service.line(startingWith: "trellis-web: http://")) }.start()
        }
        guard let line, let port = Self.port(in: line) else {
            service.stop()
            throw WebTestFailure("trellis-web did not say where it listens: \(line ?? "nothing printed")")
        }
        return RunningWebViewer(port: port, service: service)
    }

    /// PORT in `trellis-web: http://HOST:PORT/…`.
    static func port(in line: String) -> Int? {
        guard let afterScheme = line.split(separator: "://").dropFirst().first,
              let authority = afterScheme.split(separator: "/").first,
              let port = authority.split(separator: ":").last else { return nil }
        return Int(port)
    }

    /// Stops it as a service manager would (SIGTERM: a graceful shutdown) and waits for it.
    func stop() async {
        let service = service
        await withCheckedContinuation { continuation in
            Thread { service.stop(); continuation.resume() }.start()
        }
    }
}
