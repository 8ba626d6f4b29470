import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// hummingbird-websocket's HTTP/1 channel with an `UpgradeGate` after each connection's HTTP
/// decoder, so a refused WebSocket handshake is answered by the router with its reason.
struct AccessGatedChannel: ServerChildChannel {
    let upgradeChannel: HTTP1WebSocketUpgradeChannel
    let refuses: @Sendable (AccessRequest) -> Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        let refuses = refuses
        return upgradeChannel.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(UpgradeGate(refuses: refuses), position: .after(decoder))
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await upgradeChannel.handle(value: value, logger: logger)
    }
}
