import Logging
import ServiceLifecycle
import TrellisProtocol
import TrellisWeb

/// The web viewer served in process on a free loopback port until `stop()`.
struct RunningWebViewer: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    static func start(
        socketPath: String, defaultSession: String? = nil, control: Bool = false, token: AccessToken? = nil
    ) async throws -> RunningWebViewer {
        var logger = Logger(label: "trellis-web-test")
        logger.logLevel = .error
        let viewer = WebViewer(
            options: WebViewerOptions(socketPath: socketPath, defaultSession: defaultSession, host: "127.0.0.1", port: 0,
                                      control: control, token: token),
            logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = viewer.application { port in
            continuation.yield(port)
            continuation.finish()
        }
        // In a service group of its own, so the test can stop it as a signal would: gracefully.
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            // A server that fails to start ends the stream, so the wait below ends too.
            defer { continuation.finish() }
            try await group.run()
        }
        // The port the kernel chose, once the server accepts connections; nil if it never did.
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            task.cancel()
            throw WebTestFailure("the web viewer did not start: \(await task.result)")
        }
        return RunningWebViewer(port: port, group: group, task: task)
    }

    /// Shuts the server down gracefully and waits for it.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
