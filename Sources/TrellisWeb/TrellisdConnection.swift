import NIOCore
import NIOPosix
import TrellisProtocol

/// One connection to trellisd's Unix socket, as a NIO channel on the same event loops that
/// serve HTTP: reads are readiness events, never a blocked thread, so a thousand browsers cost
/// a thousand sockets and no threads. The channel's inbound stream has back pressure: while a
/// browser's WebSocket does not take what is forwarded, reads from trellisd stop, its socket
/// fills, and trellisd's own slow-viewer rule takes over (skip frames, then one catch-up delta;
/// PROTOCOL.md, "Slow viewers") instead of memory growing here.
struct TrellisdConnection: Sendable {
    /// trellisd's socket.
    let path: String
    let group: any EventLoopGroup

    /// A line longer than this is a broken peer, not a frame (the terminal client's bound).
    static let maximumLineBytes = 256 << 20

    /// Connects, sends `request` (one JSON text, without its line end) and then each line of
    /// `outgoing` as it comes, and calls `onLine` with each line trellisd writes until trellisd
    /// closes the connection, `onLine` returns false, or the task is cancelled. The connection is
    /// closed on every way out: closing is detaching.
    func exchange(
        _ request: String, outgoing: AsyncStream<String>? = nil, onLine: (String) async throws -> Bool
    ) async throws {
        let channel = try await ClientBootstrap(group: group)
            .connect(unixDomainSocketPath: path) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<NIOCore.ByteBuffer, NIOCore.ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(NIOCore.ByteBuffer(string: request + "\n"))
            // The page's requests go out beside the reading, on a child task that ends with it.
            let writer = outgoing.map { lines in
                Task {
                    for await line in lines { try await outbound.write(NIOCore.ByteBuffer(string: line + "\n")) }
                }
            }
            defer { writer?.cancel() }
            var framer = LineFramer(maximumMessageBytes: Self.maximumLineBytes)
            for try await chunk in inbound {
                var lines: [String] = []
                var oversized: Int?
                chunk.withUnsafeReadableBytes { bytes in
                    framer.forEachFrame(in: bytes) { frame in
                        switch frame {
                        case .message(let line): lines.append(String(decoding: line, as: UTF8.self))
                        case .oversized(let count): oversized = count
                        }
                    }
                }
                if let oversized { throw TrellisdConnectionError.oversizedLine(byteCount: oversized) }
                for line in lines {
                    guard try await onLine(line) else { return }
                }
            }
        }
    }
}
