import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// The server's one libuv loop. Every handle and every piece of session state belongs to the
/// thread that runs it (hence `@unchecked Sendable`: confinement, not locks); other threads
/// may only call `wakeUp`-style `uv_async_send` paths.
public final class EventLoop: @unchecked Sendable {
    public let loop: UnsafeMutablePointer<uv_loop_t>
    private var closed = false

    /// `ignoringBrokenPipes`: see below; the viewer sets that itself when it runs.
    public init(ignoringBrokenPipes: Bool = true) throws(TransportError) {
        loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        let status = uv_loop_init(loop)
        guard status == 0 else {
            loop.deallocate()
            throw TransportError(operation: "uv_loop_init", status: status)
        }
        // A viewer that vanishes mid-write must not kill the server: libuv writes with write(2)
        // and does not ignore SIGPIPE itself on Linux.
        if ignoringBrokenPipes { signal(SIGPIPE, SIG_IGN) }
    }

    /// Runs until `stop()` or until nothing is left to do.
    public func run() { uv_run(loop, UV_RUN_DEFAULT) }

    /// Runs one iteration without blocking (for tests that drive the loop by hand).
    public func runOnce() { uv_run(loop, UV_RUN_NOWAIT) }

    /// Makes `run()` return after the current iteration.
    public func stop() { uv_stop(loop) }

    /// The loop's cached time in milliseconds.
    public var now: UInt64 { uv_now(loop) }

    /// Refreshes the cached time, which is as old as the current iteration: timers count from it.
    public func updateTime() { uv_update_time(loop) }

    /// A monotonic clock in nanoseconds (libuv's hrtime), not tied to any loop.
    public static var monotonicNanoseconds: UInt64 { uv_hrtime() }

    /// Closes every handle still open, runs their close callbacks, then closes the loop.
    public func close() {
        guard !closed else { return }
        closed = true
        uv_walk(loop, { handle, _ in
            guard let handle, uv_is_closing(handle) == 0 else { return }
            uv_close(handle, nil)
        }, nil)
        uv_run(loop, UV_RUN_DEFAULT)
        uv_loop_close(loop)
        loop.deallocate()
    }

    deinit { close() }
}

/// A libuv call that failed: which call, its status and libuv's words for it.
public struct TransportError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var status: Int32
    public var detail: String?

    public init(operation: String, status: Int32, detail: String? = nil) {
        self.operation = operation; self.status = status; self.detail = detail
    }

    /// libuv's words for the status.
    public var reason: String { Self.reason(status) }

    /// libuv's words for a status (a negative errno).
    public static func reason(_ status: Int32) -> String { String(cString: uv_strerror(status)) }

    public var description: String {
        return detail.map { "\($0) (\(operation): \(reason))" } ?? "\(operation) failed: \(reason)"
    }
}
