import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import TrellisCore
import TrellisProtocol

/// The browser viewer's HTTP server: the page at `/`, the session list at `/sessions`, and at
/// `/ws?session=NAME` a WebSocket bridged to its own attach on trellisd (`SessionBridge`),
/// read-only unless `--control`. With a token, every request must carry it.
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
        let connection = TrellisdConnection(path: options.socketPath, group: MultiThreadedEventLoopGroup.singleton)
        let bridge = SessionBridge(connection: connection, logger: logger)
        let options = options

        let router = Router()
        router.add(middleware: AccessCheck(token: options.token))
        router.get("/") { _, _ in
            Self.response(ViewerPage.html, contentType: "text/html; charset=utf-8")
        }
        router.get("/sessions") { _, _ in
            Self.response(await bridge.sessionList(), contentType: "application/json")
        }

        let webSockets = Router(context: BasicWebSocketRequestContext.self)
        webSockets.ws("/ws") { request, _ in
            // HTTP/1's Host header is the request's authority once parsed. A refused request is
            // not upgraded, and the HTTP router's AccessCheck then answers it with the reason.
            let host = request.head.authority
            guard SameOrigin.allows(origin: request.headers[.origin], host: host),
                  AccessCheck<BasicRequestContext>.refusal(
                      token: options.token, host: host, presented: request.uri.queryParameters.get("token")) == nil
            else { return .dontUpgrade }
            return .upgrade()
        } onUpgrade: { inbound, outbound, context in
            let named = context.request.uri.queryParameters.get("session")
            let session = (named?.isEmpty == false) ? named : options.defaultSession
            let relay = session.map { PageRelay(session: $0, control: options.control) }
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    try? await bridge.run(session: session, relay: relay) { text in
                        try await outbound.writeTextMessage(text)
                    }
                }
                // What the page sends goes through its relay; when the page goes away the
                // stream ends, and that ends the bridge (which closes trellisd's connection).
                group.addTask {
                    defer { relay?.finish() }
                    do {
                        for try await message in inbound.messages(maxSize: PageRequest.maximumBytes) {
                            guard let relay else { continue }
                            guard case .text(let text) = message else {
                                try await outbound.writeTextMessage(PageRequest.refusal(
                                    id: .null, code: -32600, dataCode: nil, "a request is a JSON text message, not binary"))
                                continue
                            }
                            if let refusal = relay.forward(text) { try await outbound.writeTextMessage(refusal) }
                        }
                    } catch {}
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

    /// A 200 response of `text`; never cached, since the page is the program and the list is live.
    static func response(_ text: String, contentType: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
