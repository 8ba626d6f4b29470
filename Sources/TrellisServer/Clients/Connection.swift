import TrellisProtocol
import TrellisTransport

/// One client on the server's Unix socket: its framed stream (`FramedStream`, replies of one
/// read batch sent as one write), its peer's uid, and a number for logs and stats. Confined to
/// the loop's thread (so its callbacks skip dynamic exclusivity checks, as FramedStream's do).
public final class Connection {
    /// A number unique for the server's lifetime, for logs and stats.
    public let id: Int
    /// The peer's uid from SO_PEERCRED (nil when the kernel would not say).
    public let peerUID: UInt32?
    /// Called for every whole message (one line, without its line end); the bytes are valid
    /// only during the call.
    @exclusivity(unchecked) public var onMessage: (Connection, UnsafeRawBufferPointer) -> Void = { _, _ in }
    /// Called when a line longer than the limit was dropped.
    @exclusivity(unchecked) public var onOversized: (Connection, Int) -> Void = { _, _ in }
    /// Called once, when the connection has closed (peer gone, error, or `close`).
    @exclusivity(unchecked) public var onClose: (Connection) -> Void = { _ in }

    let stream: FramedStream
    /// The socket's descriptor, for splicing frames into it (-1 when libuv would not say).
    let fileDescriptor: Int32

    /// Takes over a stream the listener accepted; the connection lives until its stream closed.
    init(stream: FramedStream, id: Int) {
        self.id = id
        self.stream = stream
        stream.corksReadBatches = true
        fileDescriptor = stream.fileDescriptor
        peerUID = stream.peerUID
        stream.owner = self
        // unowned(unsafe): the stream owns its connection (`owner`) until it has closed, so no
        // callback outlives it, and every request passes here (no reference count check).
        stream.onMessage = { [unowned(unsafe) self] bytes in self.onMessage(self, bytes) }
        stream.onOversized = { [unowned self] count in self.onOversized(self, count) }
        stream.onClose = { [unowned self] _ in self.onClose(self) }
    }

    /// Why the connection closed, if known (for logs and stats).
    public var closeReason: String? { stream.closeReason }
    public var isClosing: Bool { stream.isClosing }
    /// Bytes not yet taken by the kernel.
    public var queuedBytes: Int { stream.queuedBytes }
    public var bytesRead: Int { stream.bytesRead }
    public var bytesWritten: Int { stream.bytesWritten }
    /// Which delivery of messages is being handled (`FramedStream.deliveries`).
    var deliveries: UInt64 { stream.deliveries }

    /// Starts delivering messages.
    func startReading() { stream.startReading() }

    /// Sends bytes: as much as the kernel takes now, the rest queued in an owned copy.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { stream.write($0) }
    }

    /// Sends bytes from a buffer valid only for this call (they are copied if they must wait).
    public func write(_ raw: UnsafeRawBufferPointer) { stream.write(raw) }

    /// True when bytes written now would go straight to the kernel, so another writer
    /// (`FrameFanout`) may use the socket itself.
    var canWriteDirectly: Bool { fileDescriptor >= 0 && stream.canWriteDirectly }

    /// Counts bytes another writer put into the socket directly.
    func countWrittenDirectly(_ count: Int) { stream.countWrittenDirectly(count) }

    /// Closes the connection (idempotent); `onClose` runs once, from here.
    public func close(reason: String) { stream.close(reason: reason) }
}
