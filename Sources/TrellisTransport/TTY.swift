import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A terminal on one of the process's descriptors, on the loop: its size, raw mode, blocking writes and keys read.
public final class TTY {
    /// The bytes of one read from the terminal (keys as typed, escape sequences whole or not).
    public var onInput: ([UInt8]) -> Void = { _ in }
    /// Reading failed or the terminal went away.
    public var onEnd: () -> Void = {}
    private var handle: UnsafeMutablePointer<uv_tty_t>?
    private static let readBufferSize = 4096
    private let readBuffer = UnsafeMutableRawPointer.allocate(byteCount: TTY.readBufferSize, alignment: 1)

    private var stream: UnsafeMutablePointer<uv_stream_t>? {
        handle.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: uv_stream_t.self) }
    }

    /// The terminal on `fileDescriptor` (libuv reopens a tty it is given, and leaves stdio
    /// descriptors open when it closes, but closes others); `readable` for one to read keys from.
    public init(loop: EventLoop, fileDescriptor: Int32, readable: Bool) throws(TransportError) {
        let handle = HandleMemory.allocate(UV_TTY, as: uv_tty_t.self)
        let status = uv_tty_init(loop.loop, handle, fileDescriptor, readable ? 1 : 0)
        guard status == 0 else {
            // libuv fails before it registers the handle: nothing to close. (The read buffer
            // goes with deinit, which runs for a class that throws once fully initialised.)
            UnsafeMutableRawPointer(handle).deallocate()
            throw TransportError(operation: "uv_tty_init", status: status)
        }
        self.handle = handle
        handle.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    // Closing here means a dropped terminal can never call back into whoever dropped it.
    deinit {
        close()
        readBuffer.deallocate()
    }

    /// Makes writes through libuv wait for the terminal instead of queueing.
    public func setBlocking(_ blocking: Bool) {
        guard let stream else { return }
        uv_stream_set_blocking(stream, blocking ? 1 : 0)
    }

    /// Raw mode: keys arrive one by one, unechoed, Ctrl-C as a byte. `TTY.resetMode` undoes it.
    @discardableResult
    public func setRawMode() -> Int32 {
        guard let handle else { return UV_EBADF.rawValue }
        return uv_tty_set_mode(handle, UV_TTY_MODE_RAW)
    }

    /// Gives back the mode the first terminal put in raw mode had (process-wide, as libuv keeps it).
    public static func resetMode() { _ = uv_tty_reset_mode() }

    /// The window's size as the terminal reports it, nil when it would not say.
    public var windowSize: (columns: Int, rows: Int)? {
        guard let handle else { return nil }
        var width: Int32 = 0, height: Int32 = 0
        guard uv_tty_get_winsize(handle, &width, &height) == 0 else { return nil }
        return (Int(width), Int(height))
    }

    /// The size of the terminal on `fileDescriptor` without a loop of the caller's, nil when it
    /// would not say. Asked on a copy of the descriptor: libuv reopens the tty it is given.
    public static func windowSize(ofDescriptor fileDescriptor: Int32) -> (columns: Int, rows: Int)? {
        let fd = dup(fileDescriptor)
        guard fd >= 0 else { return nil }
        var loop = uv_loop_t()
        guard uv_loop_init(&loop) == 0 else { Glibc.close(fd); return nil }
        var tty = uv_tty_t()
        var width: Int32 = 0, height: Int32 = 0
        var found = false
        if uv_tty_init(&loop, &tty, fd, 0) == 0 {
            found = uv_tty_get_winsize(&tty, &width, &height) == 0
            withUnsafeMutablePointer(to: &tty) { uv_close(UnsafeMutableRawPointer($0).assumingMemoryBound(to: uv_handle_t.self), nil) }
            uv_run(&loop, UV_RUN_DEFAULT)
        }
        // uv_close leaves stdio descriptors open, and this one is a copy above them.
        Glibc.close(fd)
        uv_loop_close(&loop)
        return found ? (Int(width), Int(height)) : nil
    }

    /// Delivers what is typed to `onInput`, and `onEnd` when the terminal goes away.
    public func startReading() {
        guard let stream else { return }
        uv_read_start(stream, { handle, suggested, buf in
            let tty = Unmanaged<TTY>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            buf!.pointee = uv_buf_init(tty.readBuffer.assumingMemoryBound(to: CChar.self), UInt32(min(suggested, TTY.readBufferSize)))
        }, { stream, nread, _ in
            let tty = Unmanaged<TTY>.fromOpaque(stream!.pointee.data).takeUnretainedValue()
            withExtendedLifetime(tty) {
                if nread > 0 {
                    tty.onInput(Array(UnsafeRawBufferPointer(start: tty.readBuffer, count: nread)))
                } else if nread < 0 {
                    tty.onEnd()
                }
            }
        })
    }

    /// Stops reading for good; the handle is freed in libuv's close callback. Idempotent.
    public func close() {
        guard let handle else { return }
        self.handle = nil
        HandleMemory.close(handle)
    }
}
