import CLibUV

/// A libuv signal watcher: a closure runs on the loop's thread for each delivery of one signal.
public final class SignalWatcher {
    /// Gets the signal's number.
    public var onSignal: (Int32) -> Void = { _ in }
    private var handle: UnsafeMutablePointer<uv_signal_t>?

    public init(loop: EventLoop) {
        let handle = HandleMemory.allocate(UV_SIGNAL, as: uv_signal_t.self)
        uv_signal_init(loop.loop, handle)
        self.handle = handle
        handle.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    // Closing here means a dropped watcher can never call back into whoever dropped it.
    deinit { close() }

    /// Watches `signal` (replacing the one watched before); libuv's status, 0 on success.
    @discardableResult
    public func start(_ signal: Int32) -> Int32 {
        guard let handle else { return UV_EINVAL.rawValue }
        return uv_signal_start(handle, { handle, signal in
            let watcher = Unmanaged<SignalWatcher>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            withExtendedLifetime(watcher) { watcher.onSignal(signal) }
        }, signal)
    }

    public func stop() {
        guard let handle else { return }
        uv_signal_stop(handle)
    }

    /// Stops watching for good; the handle is freed in libuv's close callback. Idempotent.
    public func close() {
        guard let handle else { return }
        self.handle = nil
        HandleMemory.close(handle)
    }
}
