import CLibUV
import TrellisProtocol

/// One client on the Unix socket: reads NDJSON messages through a `LineFramer`, writes with
/// `uv_try_write` first and queues only what the kernel did not take (each queued buffer owned
/// until its write callback), and closes once. Confined to the loop's thread.
public final class Connection {
    /// A number unique for the server's lifetime, for logs and stats.
    public let id: Int
    /// The peer's uid from SO_PEERCRED (nil when the kernel would not say).
    public let peerUID: UInt32?
    /// Called for every whole message (one line, without its line end).
    public var onMessage: (Connection, [UInt8]) -> Void = { _, _ in }
    /// Called when a line longer than the limit was dropped.
    public var onOversized: (Connection, Int) -> Void = { _, _ in }
    /// Called once, when the connection has closed (peer gone, error, or `close`).
    public var onClose: (Connection) -> Void = { _ in }
    /// Why the connection closed, if known (for logs and stats).
    public private(set) var closeReason: String?

    let handle: UnsafeMutablePointer<uv_pipe_t>
    /// The socket's descriptor, for splicing frames into it (-1 when libuv would not say).
    let fileDescriptor: Int32
    private var framer: LineFramer
    private let readBuffer: UnsafeMutableRawPointer
    private static let readBufferSize = 64 * 1024
    public private(set) var isClosing = false
    /// Bytes not yet taken by the kernel: libuv's queue and what waits for the end of a read.
    public var queuedBytes: Int { uv_stream_get_write_queue_size(stream) + pending.count }
    /// Replies to the requests of one read, sent together when the read is handled (one
    /// write(2) for a whole pipeline, as Redis answers a batch of commands).
    private var pending: [UInt8] = []
    private var isCorked = false
    public private(set) var bytesRead = 0
    public private(set) var bytesWritten = 0

    private var stream: UnsafeMutablePointer<uv_stream_t> { UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self) }

    /// Accepts a pending connection from `server`; the connection owns itself (+1 in handle->data)
    /// until its close callback.
    init(accepting server: UnsafeMutablePointer<uv_stream_t>, loop: UnsafeMutablePointer<uv_loop_t>, id: Int,
         maximumMessageBytes: Int) throws(TransportError) {
        self.id = id
        framer = LineFramer(maximumMessageBytes: maximumMessageBytes)
        handle = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
        readBuffer = UnsafeMutableRawPointer.allocate(byteCount: Self.readBufferSize, alignment: 16)
        uv_pipe_init(loop, handle, 0)
        let status = uv_accept(server, UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self))
        var fd: uv_os_fd_t = -1
        if status == 0, uv_fileno(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self), &fd) == 0 {
            let uid = trellis_peer_uid(fd)
            peerUID = uid >= 0 ? UInt32(uid) : nil
            fileDescriptor = fd
        } else {
            peerUID = nil
            fileDescriptor = -1
        }
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        guard status == 0 else {
            close(reason: "accept failed")
            throw TransportError(operation: "uv_accept", status: status)
        }
    }

    /// Starts delivering messages.
    func startReading() {
        uv_read_start(stream, { handle, _, buf in
            let connection = Unmanaged<Connection>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            buf!.pointee = uv_buf_init(connection.readBuffer.assumingMemoryBound(to: CChar.self), UInt32(Connection.readBufferSize))
        }, { stream, nread, _ in
            let connection = Unmanaged<Connection>.fromOpaque(stream!.pointee.data).takeUnretainedValue()
            connection.didRead(nread)
        })
    }

    private func didRead(_ nread: Int) {
        if nread < 0 {
            close(reason: nread == Int(UV_EOF.rawValue) ? "peer closed" : "read error: \(String(cString: uv_strerror(Int32(nread))))")
            return
        }
        guard nread > 0 else { return }
        bytesRead += nread
        let bytes = UnsafeRawBufferPointer(start: readBuffer, count: nread)
        let frames = framer.append(bytes)
        // One message: its reply goes straight out. Several: collect their replies first.
        isCorked = frames.count > 1
        for frame in frames {
            guard !isClosing else { break }
            switch frame {
            case .message(let message): onMessage(self, message)
            case .oversized(let count): onOversized(self, count)
            }
        }
        flushPending()
    }

    /// Ends collecting and sends what was collected.
    private func flushPending() {
        guard isCorked else { return }
        isCorked = false
        let collected = pending
        pending.removeAll(keepingCapacity: true)
        collected.withUnsafeBytes { write($0) }
    }

    /// Sends bytes: as much as the kernel takes now, the rest queued in an owned copy.
    public func write(_ bytes: [UInt8]) {
        guard !isClosing, !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { raw in write(raw) }
    }

    /// Sends bytes from a buffer valid only for this call (they are copied if they must wait).
    public func write(_ raw: UnsafeRawBufferPointer) {
        guard !isClosing, raw.count > 0, let base = raw.baseAddress else { return }
        if isCorked {
            pending.append(contentsOf: raw)
            return
        }
        var offset = 0
        if uv_stream_get_write_queue_size(stream) == 0 {
            var buf = uv_buf_init(UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self)), UInt32(raw.count))
            let written = uv_try_write(stream, &buf, 1)
            if written > 0 { offset = Int(written) }
            else if written != UV_EAGAIN.rawValue {
                close(reason: "write error: \(String(cString: uv_strerror(written)))")
                return
            }
        }
        bytesWritten += offset
        let remaining = raw.count - offset
        guard remaining > 0 else { return }
        let copy = UnsafeMutableRawPointer.allocate(byteCount: remaining, alignment: 1)
        copy.copyMemory(from: base + offset, byteCount: remaining)
        let request = UnsafeMutablePointer<uv_write_t>.allocate(capacity: 1)
        request.pointee.data = copy
        var buf = uv_buf_init(copy.assumingMemoryBound(to: CChar.self), UInt32(remaining))
        let status = uv_write(request, stream, &buf, 1) { request, status in
            request!.pointee.data.deallocate()
            let stream = request!.pointee.handle!
            request!.deallocate()
            guard status != UV_ECANCELED.rawValue else { return }
            let connection = Unmanaged<Connection>.fromOpaque(stream.pointee.data).takeUnretainedValue()
            if status < 0 { connection.close(reason: "write error: \(String(cString: uv_strerror(status)))") }
        }
        if status != 0 {
            copy.deallocate()
            request.deallocate()
            close(reason: "write error: \(String(cString: uv_strerror(status)))")
        } else {
            bytesWritten += remaining
        }
    }

    /// True when bytes written now would go straight to the kernel: nothing is queued or
    /// collected ahead of them, so another writer (`FrameFanout`) may use the socket itself.
    var canWriteDirectly: Bool { !isClosing && !isCorked && fileDescriptor >= 0 && queuedBytes == 0 }

    /// Counts bytes another writer put into the socket directly.
    func countWrittenDirectly(_ count: Int) { bytesWritten += count }

    /// Closes the connection (idempotent); `onClose` runs once, from here.
    public func close(reason: String) {
        guard !isClosing else { return }
        flushPending()   // replies already answered (a pipelined shutdown's own) still go out
        isClosing = true
        closeReason = reason
        uv_read_stop(stream)
        onClose(self)
        uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            let connection = Unmanaged<Connection>.fromOpaque(handle!.pointee.data).takeRetainedValue()
            connection.readBuffer.deallocate()
            handle!.deallocate()
        }
    }
}
