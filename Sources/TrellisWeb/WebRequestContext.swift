import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of both routers (HTTP and the WebSocket upgrade): Hummingbird's own
/// storage, the WebSocket handler slot, and the connection's two ends, which `--no-token`
/// needs to find the user behind a request.
struct WebRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<WebRequestContext>
    /// The client's socket address.
    let peer: SocketAddress?
    /// The address and port the client reached.
    let local: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        peer = source.channel.remoteAddress
        local = source.channel.localAddress
    }
}
