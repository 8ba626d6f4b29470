import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1

/// What the access check reads of one request, taken alike from Hummingbird's request (the
/// page, the list) and from NIO's head before a WebSocket upgrade (`UpgradeGate`), so that both
/// are judged by the same facts.
struct AccessRequest: Sendable {
    /// Every `Host` value, in order: HTTP/1.1 allows exactly one.
    var hosts: [String]
    /// The `Origin` a browser sends with a WebSocket handshake or a cross-origin request.
    var origin: String?
    /// The URL's `?token=`.
    var queryToken: String?
    /// The values of this bridge's token cookie, from every `Cookie` header.
    var cookieTokens: [String]
    /// The connection's far end (the client's socket) and near end (the port it reached).
    var peer: SocketAddress?
    var local: SocketAddress?

    init(hosts: [String], origin: String?, queryToken: String?, cookieTokens: [String], peer: SocketAddress?, local: SocketAddress?) {
        self.hosts = hosts
        self.origin = origin
        self.queryToken = queryToken
        self.cookieTokens = cookieTokens
        self.peer = peer
        self.local = local
    }

    /// A request as Hummingbird hands it to a route: the first `Host` became its authority, any
    /// further ones stay among its fields.
    init(_ request: Request, peer: SocketAddress?, local: SocketAddress?) {
        let cookieName = TokenCookie.name(port: local?.port)
        self.init(
            hosts: [request.head.authority].compactMap { $0 } + request.headers.filter { $0.name.canonicalName == "host" }.map(\.value),
            origin: request.headers[.origin], queryToken: request.uri.queryParameters.get("token"),
            cookieTokens: TokenCookie.values(named: cookieName, in: request.headers[values: .cookie]),
            peer: peer, local: local)
    }

    /// A request head as NIO's HTTP/1 decoder gives it, on the connection `channel`.
    init(_ head: HTTPRequestHead, channel: any Channel) {
        let local = channel.localAddress
        self.init(
            hosts: head.headers["Host"], origin: head.headers.first(name: "Origin"),
            queryToken: URI(head.uri).queryParameters.get("token"),
            cookieTokens: TokenCookie.values(named: TokenCookie.name(port: local?.port), in: head.headers["Cookie"]),
            peer: channel.remoteAddress, local: local)
    }
}
