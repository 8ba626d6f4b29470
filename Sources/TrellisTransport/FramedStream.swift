import CLibUV
import TrellisProtocol

/// One NDJSON stream over a libuv pipe, the one copy of socket plumbing below both the server
/// and the clients: reads are split into messages by a `LineFramer` (oversized lines dropped
/// and reported), writes go out with `uv_try_write` first and only what the kernel did not take
/// is queued (each queued buffer owned until its write callback), writes made while a read batch
/// is handled can be collected into one (`corksReadBatches`: one write for a whole pipeline, as
/// Redis answers a batch of commands), and the stream closes once. It keeps itself (and its
/// `owner`) alive until libuv's close callback, so no callback outlives it. Confined to the
/// loop's thread: its state is never accessed overlapping, so its hot properties skip Swift's
/// dynamic exclusivity checks (`@exclusivity(unchecked)`), which perf put at about a tenth of
/// a pipelined request's server time.
public final class FramedStream {
    /// Called for every whole message (one line, without its line end); the bytes are valid
    /// only during the call.
    @exclusivity(unchecked) public var onMessage: (UnsafeRawBufferPointer) -> Void = { _ in }
    /// Called when a line longer than the limit was dropped.
    @exclusivity(unchecked) public var onOversized: (Int) -> Void = { _ in }
    /// Called after every message of one read has been handled.
    @exclusivity(unchecked) public var onReadBatchEnd: () -> Void = {}
    /// Called once, when the stream has closed (peer gone, error, or `close`), with the reason.
    public var onClose: (String) -> Void = { _ in }
    /// Kept alive with the stream until it has closed (the object whose callbacks these are).
    public var owner: AnyObject?
    /// Collect the writes made while a read batch of several messages is handled, and send
    /// them as one when it ends.
    @exclusivity(unchecked) public var corksReadBatches = false
    /// Output limits, as Redis's client-output-buffer-limit: above `outputSoftLimit` bytes not
    /// yet taken by the kernel the stream stops reading (messages already read wait too) until
    /// the peer has read half of it back down: a client that pipelines without reading its
    /// replies is slowed, not served into memory. Above `outputHardLimit` it is closed with a
    /// reason. nil: no limit.
    @exclusivity(unchecked) public var outputSoftLimit: Int?
    @exclusivity(unchecked) public var outputHardLimit: Int?
    /// Set while a refusal lingers (`closeAfterWrites`): the timer that ends it, and the reason.
    private var lingerTimer: LoopTimer?
    private var lingerReason: String?
    /// Messages read while the stream was paused (by its output or `hold`), handled when it resumes.
    @exclusivity(unchecked) private var deferred: [LineFramer.Frame] = []
    @exclusivity(unchecked) public private(set) var isPausedForOutput = false
    /// Held by its owner (`hold`): a request waits for work of the server's to finish.
    @exclusivity(unchecked) public private(set) var isHeld = false

    let handle: UnsafeMutablePointer<uv_pipe_t>
    @exclusivity(unchecked) private var framer: LineFramer
    private let readBuffer: UnsafeMutableRawPointer
    private static let readBufferSize = 64 * 1024
    @exclusivity(unchecked) public private(set) var isClosing = false
    public private(set) var closeReason: String?
    /// Bytes written while corked (or by `withOutput`), not yet handed to the kernel: kept at its
    /// size between batches, so a batch's replies are encoded into it and allocate nothing.
    @exclusivity(unchecked) private var output = ByteBuffer()
    @exclusivity(unchecked) private var isCorked = false
    @exclusivity(unchecked) public private(set) var bytesRead = 0
    /// How many times messages were handed over (a read, or messages that waited): those of one
    /// delivery are handled back to back, with nothing waited for between them.
    @exclusivity(unchecked) public private(set) var deliveries: UInt64 = 0
    @exclusivity(unchecked) public private(set) var bytesWritten = 0
    /// Writes handed to the kernel or libuv's queue (a pipelined read batch's replies are one).
    @exclusivity(unchecked) public private(set) var writeCalls = 0

    var stream: UnsafeMutablePointer<uv_stream_t> { UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self) }

    /// Bytes not yet taken by the kernel: libuv's queue and what waits for the end of a read.
    public var queuedBytes: Int { uv_stream_get_write_queue_size(stream) + output.count }

    /// A pipe on `loop`, not yet connected or accepted.
    public convenience init(loop: EventLoop, maximumMessageBytes: Int) {
        self.init(loop: loop.loop, maximumMessageBytes: maximumMessageBytes)
    }

    init(loop: UnsafeMutablePointer<uv_loop_t>, maximumMessageBytes: Int) {
        framer = LineFramer(maximumMessageBytes: maximumMessageBytes)
        handle = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
        readBuffer = UnsafeMutableRawPointer.allocate(byteCount: Self.readBufferSize, alignment: 16)
        uv_pipe_init(loop, handle, 0)
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// Accepts a pending connection of a listening stream (`Listener`); the libuv status (0 on success).
    func accept(from server: UnsafeMutablePointer<uv_stream_t>) -> Int32 { uv_accept(server, stream) }

    /// The socket's descriptor (-1 when libuv would not say).
    public var fileDescriptor: Int32 {
        var fd: uv_os_fd_t = -1
        return uv_fileno(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self), &fd) == 0 ? fd : -1
    }

    /// The uid of the process at the other end (SO_PEERCRED), nil when the kernel would not say.
    public var peerUID: UInt32? {
        let fd = fileDescriptor
        let uid = fd >= 0 ? trellis_peer_uid(fd) : -1
        return uid >= 0 ? UInt32(uid) : nil
    }

    /// Connects to the Unix socket at `path`; `done` gets libuv's status (0: connected).
    public func connect(to path: String, _ done: @escaping (Int32) -> Void) {
        let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        request.pointee.data = Unmanaged.passRetained(ConnectCallback(done)).toOpaque()
        uv_pipe_connect(request, handle, path) { request, status in
            let callback = Unmanaged<ConnectCallback>.fromOpaque(request!.pointee.data).takeRetainedValue()
            request!.deallocate()
            guard status != UV_ECANCELED.rawValue else { return }
            callback.done(status)
        }
    }

    /// Starts delivering messages.
    public func startReading() {
        uv_read_start(stream, { handle, _, buf in
            let stream = Unmanaged<FramedStream>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            buf!.pointee = uv_buf_init(stream.readBuffer.assumingMemoryBound(to: CChar.self), UInt32(FramedStream.readBufferSize))
        }, { handle, nread, _ in
            Unmanaged<FramedStream>.fromOpaque(handle!.pointee.data).takeUnretainedValue().didRead(nread)
        })
    }

    private func didRead(_ nread: Int) {
        if nread < 0 {
            close(reason: nread == Int(UV_EOF.rawValue) ? "peer closed" : "read error: \(String(cString: uv_strerror(Int32(nread))))")
            return
        }
        guard nread > 0 else { return }
        bytesRead += nread
        deliveries &+= 1
        let bytes = UnsafeRawBufferPointer(start: readBuffer, count: nread)
        // One message: its reply goes straight out. Several: collect their replies first.
        isCorked = corksReadBatches && Self.holdsTwoLineEnds(bytes)
        framer.forEachFrame(in: bytes) { take($0) }
        endBatch()
    }

    /// Whether a read holds more than one line end (so more than one message may end in it).
    private static func holdsTwoLineEnds(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return false }
        return bytes[(first + 1)...].contains(UInt8(ascii: "\n"))
    }

    /// After a read's messages: what they wrote goes out as one, and reading resumes if the
    /// output has drained.
    private func endBatch() {
        flushPending()
        if !isClosing && !isPausedForOutput { onReadBatchEnd() }
        resumeIfDrained()
    }

    /// One message: handled now, or, while the output is over the soft limit, kept (copied)
    /// with the rest of the read until it drains; reading stops meanwhile.
    private func take(_ frame: LineFramer.FrameView) {
        guard !isClosing else { return }
        if !isPausedForOutput, let soft = outputSoftLimit, queuedBytes > soft {
            isPausedForOutput = true
            uv_read_stop(stream)
        }
        if isPausedForOutput || isHeld {
            deferred.append(frame.frame)
            return
        }
        switch frame {
        case .message(let message): onMessage(message)
        case .oversized(let count): onOversized(count)
        }
    }

    /// Handles messages that waited while the output was over the soft limit, in order (those
    /// it cannot take yet wait on).
    private func handle(_ frames: [LineFramer.Frame]) {
        deliveries &+= 1
        isCorked = corksReadBatches && frames.count > 1
        for frame in frames {
            switch frame {
            case .message(let message): message.withUnsafeBytes { take(.message($0)) }
            case .oversized(let count): take(.oversized(byteCount: count))
            }
        }
        endBatch()
    }

    /// Reads again once the output is down to half the soft limit (the messages that waited
    /// first).
    private func resumeIfDrained() {
        guard isPausedForOutput, !isHeld, !isClosing, queuedBytes <= (outputSoftLimit ?? 0) / 2 else { return }
        isPausedForOutput = false
        let waiting = deferred
        deferred = []
        if !waiting.isEmpty { handle(waiting) }
        if !isPausedForOutput && !isHeld && !isClosing { startReading() }
    }

    /// Stops handling messages (the rest of the current read waits, copied, and reading stops)
    /// until `release`: the message being handled started work that must end before the next.
    public func hold() {
        guard !isHeld, !isClosing else { return }
        isHeld = true
        uv_read_stop(stream)
    }

    /// Handles the messages that waited while held, in order, and reads again (unless one of
    /// them holds the stream once more, or its output is over the soft limit).
    public func release() {
        guard isHeld else { return }
        isHeld = false
        guard !isClosing else { return }
        if isPausedForOutput {
            resumeIfDrained()
            return
        }
        let waiting = deferred
        deferred = []
        if !waiting.isEmpty { handle(waiting) }
        if !isPausedForOutput && !isHeld && !isClosing { startReading() }
    }

    /// Ends collecting and sends what was collected.
    private func flushPending() {
        guard isCorked else { return }
        isCorked = false
        sendOutput()
    }

    /// Hands what `output` holds to the kernel (or libuv's queue) and empties it. The buffer is
    /// taken out while it is sent: a write error closes the stream from inside `send`.
    private func sendOutput() {
        guard !output.isEmpty else { return }
        var bytes = output
        output = ByteBuffer()
        if !isClosing { bytes.withUnsafeBytes { send($0) } }
        // Kept for the next batch, unless a big message grew it: every connection has one, and
        // a viewer's keyframe or a large result would otherwise stay allocated per client.
        if bytes.capacity <= Self.keptOutputCapacity {
            bytes.clear()
            output = bytes
        }
    }

    /// The largest output buffer kept between batches (a pipeline of 64 small replies is ~8 KB);
    /// a bigger one is released once sent.
    private static let keptOutputCapacity = 64 * 1024

    /// Lets `body` write a message straight into the stream's output (no copy in between):
    /// collected with the rest of the read batch while corked, else sent when `body` returns.
    /// Nothing is sent once the stream is closing.
    public func withOutput<R>(_ body: (inout ByteBuffer) -> R) -> R {
        let result = body(&output)
        if !isCorked || isClosing { sendOutput() }
        return result
    }

    /// Sends bytes from a buffer valid only for this call (they are copied if they must wait).
    public func write(_ raw: UnsafeRawBufferPointer) {
        guard !isClosing, raw.count > 0 else { return }
        if isCorked {
            output.append(contentsOf: raw)
            return
        }
        send(raw)
    }

    /// Sends bytes now: as much as the kernel takes, the rest queued in an owned copy.
    private func send(_ raw: UnsafeRawBufferPointer) {
        guard !isClosing, raw.count > 0, let base = raw.baseAddress else { return }
        writeCalls += 1
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
            let handle = request!.pointee.handle!
            request!.deallocate()
            guard status != UV_ECANCELED.rawValue else { return }
            let stream = Unmanaged<FramedStream>.fromOpaque(handle.pointee.data).takeUnretainedValue()
            if status < 0 { return stream.close(reason: "write error: \(String(cString: uv_strerror(status)))") }
            stream.resumeIfDrained()
        }
        if status != 0 {
            copy.deallocate()
            request.deallocate()
            close(reason: "write error: \(String(cString: uv_strerror(status)))")
        } else {
            bytesWritten += remaining
            if let hard = outputHardLimit, queuedBytes > hard {
                close(reason: "output over the hard limit (\(queuedBytes) bytes unread, limit \(hard)): the client sent requests without reading the replies")
            }
        }
    }

    /// True when bytes written now would go straight to the kernel: nothing is queued or
    /// collected ahead of them, so another writer may use the socket itself.
    public var canWriteDirectly: Bool { !isClosing && !isCorked && queuedBytes == 0 }

    /// Counts bytes another writer put into the socket directly.
    public func countWrittenDirectly(_ count: Int) { bytesWritten += count }

    /// Closes after what was written has gone out and the peer has hung up (or `linger`
    /// milliseconds have passed), reading and dropping whatever it sends meanwhile. Closing a
    /// socket with unread input resets the connection, and a client that had already written a
    /// request would lose the refusal written to it just before (the client limit's reply).
    public func closeAfterWrites(reason: String, linger: UInt64 = 1000) {
        guard !isClosing, lingerReason == nil else { return }
        flushPending()
        lingerReason = reason
        onMessage = { _ in }
        onOversized = { _ in }
        startReading()
        let request = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
        if uv_shutdown(request, stream, { request, _ in request!.deallocate() }) != 0 { request.deallocate() }
        let timer = LoopTimer(uvLoop: handle.pointee.loop)
        timer.onFire = { [weak self] in
            guard let self else { return }
            close(reason: lingerReason ?? "closed")
        }
        lingerTimer = timer
        timer.start(after: linger)
    }

    /// Closes the stream (idempotent); what was collected still goes out first, then `onClose`
    /// runs once, from here.
    public func close(reason: String) {
        guard !isClosing else { return }
        flushPending()
        guard !isClosing else { return }   // flushing went over the hard limit and closed it
        isClosing = true
        closeReason = lingerReason ?? reason
        lingerTimer?.close()
        lingerTimer = nil
        uv_read_stop(stream)
        onClose(closeReason ?? reason)
        uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            let stream = Unmanaged<FramedStream>.fromOpaque(handle!.pointee.data).takeRetainedValue()
            stream.owner = nil
            stream.readBuffer.deallocate()
            handle!.deallocate()
        }
    }
}

/// A connect request's completion, kept alive by the request until libuv calls it.
private final class ConnectCallback {
    let done: (Int32) -> Void
    init(_ done: @escaping (Int32) -> Void) { self.done = done }
}
