import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import TrellisProtocol

/// The browser viewer's HTTP server: the page at `/`, the session list at `/sessions`, and at
/// `/ws?session=NAME` a WebSocket bridged to its own attach on trellisd (`SessionBridge`),
/// read-only unless `--control`. Every request passes `AccessCheck` first (the token, or the
/// same user with `--no-token`).
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

        let access = options.access
        // Put together once, here: a viewer.html that lost a marker stops trellis-web at start.
        let page = ViewerPage.html
        let router = Router(context: WebRequestContext.self)
        router.add(middleware: AccessCheck(access: access))
        router.get("/") { _, _ in
            Self.response(page, contentType: "text/html; charset=utf-8")
        }
        router.get("/sessions") { _, _ in
            Self.response(await bridge.sessionList(), contentType: "application/json")
        }
        // /ws over plain HTTP: what the page asks when its WebSocket fails, since a browser
        // hides why a handshake was refused. Past AccessCheck there was no refusal to tell.
        router.get("/ws") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.upgrade] = "websocket"
            return Response(status: .upgradeRequired, headers: headers, body: .init(byteBuffer: ByteBuffer(
                string: "426: /ws is trellis-web's WebSocket (the page opens it): connect with Upgrade: websocket\n")))
        }

        let webSockets = Router(context: WebRequestContext.self)
        webSockets.ws("/ws") { request, context in
            // UpgradeGate has sent refused handshakes to the router, which says why; this is
            // the same check again, where the upgrade is decided.
            let facts = AccessRequest(request, peer: context.peer, local: context.local)
            return AccessPolicy.refusal(of: facts, access: access) == nil ? .upgrade() : .dontUpgrade
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

        let webSocketResponder = webSockets.buildResponder()
        let server = HTTPServerBuilder { responder in
            AccessGatedChannel(
                upgradeChannel: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    // Keyframes of large scenes are big: fewer, larger WebSocket frames.
                    configuration: .init(ws: .init(maxFrameSize: 1 << 20))),
                refuses: { AccessPolicy.refusal(of: $0, access: access) != nil })
        }
        return Application(
            router: router,
            server: server,
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
