import CLibUV

/// A libuv idle handle: `onIdle` runs once per loop iteration while it is started, after the
/// loop has polled for I/O without waiting, so work split across iterations (a long
/// `clock.advance`) goes on while every client keeps being served. Confined to the loop's thread.
public final class Idle {
    private let handle: UnsafeMutablePointer<uv_idle_t>
    public var onIdle: () -> Void = {}
    public private(set) var isActive = false
    private var closed = false

    public init(loop: EventLoop) {
        handle = UnsafeMutablePointer<uv_idle_t>.allocate(capacity: 1)
        uv_idle_init(loop.loop, handle)
        handle.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    public func start() {
        guard !isActive, !closed else { return }
        isActive = true
        uv_idle_start(handle) { handle in
            Unmanaged<Idle>.fromOpaque(handle!.pointee.data).takeUnretainedValue().onIdle()
        }
    }

    public func stop() {
        guard isActive else { return }
        isActive = false
        uv_idle_stop(handle)
    }

    /// Stops and releases the handle (after libuv's close callback).
    public func close() {
        guard !closed else { return }
        stop()
        closed = true
        uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) { $0?.deallocate() }
    }
}
