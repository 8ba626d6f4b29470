import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix

/// The browser viewer's HTTP server: the page at `/`, and at `/ws?session=NAME` a WebSocket
/// bridged to its own read-only attach on trellisd (`SessionBridge`).
public struct WebViewer: Sendable {
    public let options: WebViewerOptions
    public let logger: Logger

    public init(options: WebViewerOptions, logger: Logger = Logger(label: "trellis-web")) {
        self.options = options
        self.logger = logger
    }

    /// The application to run (`runService()` from a command line, `run()` in a task a test
    /// cancels); `onListening` gets the bound port once the server accepts connections.
    public func application(
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get("/") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            // The page is the program: a new trellis-web must never meet an old script.
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: ViewerPage.html)))
        }

        let connection = TrellisdConnection(path: options.socketPath, group: MultiThreadedEventLoopGroup.singleton)
        let bridge = SessionBridge(connection: connection, logger: logger)
        let defaultSession = options.defaultSession
        let webSockets = Router(context: BasicWebSocketRequestContext.self)
        webSockets.ws("/ws") { request, _ in
            // HTTP/1's Host header is the request's authority once parsed.
            SameOrigin.allows(origin: request.headers[.origin], host: request.head.authority) ? .upgrade() : .dontUpgrade
        } onUpgrade: { inbound, outbound, context in
            let named = context.request.uri.queryParameters.get("session")
            let session = (named?.isEmpty == false) ? named : defaultSession
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    try? await bridge.run(session: session) { text in try await outbound.writeTextMessage(text) }
                }
                // Read-only: what the page sends is ignored, but the stream ends when the page
                // goes away, and that ends the bridge (which closes trellisd's connection).
                group.addTask {
                    do { for try await _ in inbound {} } catch {}
                }
                await group.next()
                group.cancelAll()
            }
        }

        return Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: webSockets,
                // Keyframes of large scenes are big: fewer, larger WebSocket frames.
                configuration: .init(ws: .init(maxFrameSize: 1 << 20))
            ),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }
}
