import NIOCore
import NIOHTTP1

/// Between NIO's HTTP/1 decoder and the WebSocket upgrader, for a connection's first request
/// (the only one that may upgrade): a handshake that the access check refuses goes on as a
/// plain request (no `Upgrade`, `Connection: close`), so the router's `AccessCheck` answers it
/// with its reason and the connection closes. Left to hummingbird-websocket, a refused upgrade
/// is an empty 400 that says nothing.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let refuses: @Sendable (AccessRequest) -> Bool

    init(refuses: @escaping @Sendable (AccessRequest) -> Bool) {
        self.refuses = refuses
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.headers.contains(name: "Upgrade"), refuses(AccessRequest(head, channel: context.channel)) {
            head.headers.remove(name: "Upgrade")
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
        // Later requests on this connection cannot upgrade: the router checks them as any other.
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
