import CLibUV

/// A libuv timer calling a closure: one-shot or repeating, restartable, closed once (on deinit at the latest).
public final class LoopTimer {
    /// Runs at each expiry, on the loop's thread.
    public var onFire: () -> Void = {}
    private var handle: UnsafeMutablePointer<uv_timer_t>?

    public convenience init(loop: EventLoop) { self.init(uvLoop: loop.loop) }

    /// On the loop a handle of this module already belongs to (a stream's linger timer).
    init(uvLoop: UnsafeMutablePointer<uv_loop_t>) {
        let handle = HandleMemory.allocate(UV_TIMER, as: uv_timer_t.self)
        uv_timer_init(uvLoop, handle)
        self.handle = handle
        handle.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    // Closing here means a dropped timer can never call back into whoever dropped it.
    deinit { close() }

    /// Fires `milliseconds` after the loop's cached time (see `EventLoop.updateTime`), then
    /// every `interval` ms (0: once). Starting a started timer re-arms it.
    public func start(after milliseconds: UInt64, repeatingEvery interval: UInt64 = 0) {
        guard let handle else { return }
        uv_timer_start(handle, { handle in
            let timer = Unmanaged<LoopTimer>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            // The callback may close and drop the timer; it lives until the callback returns.
            withExtendedLifetime(timer) { timer.onFire() }
        }, milliseconds, interval)
    }

    public func stop() {
        guard let handle else { return }
        uv_timer_stop(handle)
    }

    /// Whether it is armed (a one-shot timer that fired is not).
    public var isActive: Bool {
        guard let handle else { return false }
        return uv_is_active(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) != 0
    }

    /// Stops it for good; the handle is freed in libuv's close callback. Idempotent.
    public func close() {
        guard let handle else { return }
        self.handle = nil
        HandleMemory.close(handle)   // uv_close stops the timer first
    }
}
