import Foundation
import TrellisProtocol
import TrellisTestSupport

/// trellis-web as a user runs it: the built binary in a process of its own on a free loopback
/// port, until `stop()`. A process, not the library in the test's process: the tests' own
/// blocking work (other suites run beside these) cannot then starve the server they talk to.
struct RunningWebViewer: Sendable {
    let port: Int
    /// Its process id, to read what other users could see of it (its arguments).
    var pid: Int32 { service.process.processIdentifier }
    /// The token of the URL it printed (its own random one unless `token` was given); nil with
    /// `--no-token`.
    let token: String?
    private let service: ServiceProcess

    /// `port` 0 asks for a free one; `noToken` is `--no-token` (the same-user check instead);
    /// `environment` is added to this process's.
    static func start(
        socketPath: String, defaultSession: String? = nil, control: Bool = false, token: AccessToken? = nil,
        noToken: Bool = false, port: Int = 0, environment: [String: String] = [:]
    ) async throws -> RunningWebViewer {
        var arguments = ["--socket", socketPath, "--port", String(port), "--log-level", "error"]
        if control { arguments.append("--control") }
        if let token { arguments += ["--token", token.value] }
        if noToken { arguments.append("--no-token") }
        if let defaultSession { arguments.append(defaultSession) }
        let service = try ServiceProcess("trellis-web", arguments, environment: environment)
        // It prints `trellis-web: http://127.0.0.1:PORT/?token=TOKEN (…` once it accepts connections.
        let line = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: service.line(startingWith: "trellis-web: http://")) }.start()
        }
        guard let line, let port = Self.port(in: line) else {
            service.stop()
            throw WebTestFailure("trellis-web did not say where it listens: \(line ?? "nothing printed")")
        }
        return RunningWebViewer(port: port, token: Self.token(in: line), service: service)
    }

    /// PORT in `trellis-web: http://HOST:PORT/…`.
    static func port(in line: String) -> Int? {
        guard let afterScheme = line.split(separator: "://").dropFirst().first,
              let authority = afterScheme.split(separator: "/").first,
              let port = authority.split(separator: ":").last else { return nil }
        return Int(port)
    }

    /// TOKEN in `trellis-web: http://HOST:PORT/?token=TOKEN (…`; nil when the URL has none.
    static func token(in line: String) -> String? {
        guard let url = line.split(separator: " ").dropFirst().first,
              let value = url.split(separator: "?token=", omittingEmptySubsequences: false).dropFirst().first else { return nil }
        return String(value)
    }

    /// `path` (with or without a query) with `token=` added as the printed URL carries it; as
    /// it is with `--no-token`.
    func authorized(_ path: String) -> String {
        guard let token else { return path }
        return path + (path.contains("?") ? "&" : "?") + "token=" + token
    }

    /// Stops it as a service manager would (SIGTERM: a graceful shutdown) and waits for it.
    func stop() async {
        let service = service
        await withCheckedContinuation { continuation in
            Thread { service.stop(); continuation.resume() }.start()
        }
    }
}
