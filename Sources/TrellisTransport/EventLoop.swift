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

    public init() throws(TransportError) {
        loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        let status = uv_loop_init(loop)
        guard status == 0 else {
            loop.deallocate()
            throw TransportError(operation: "uv_loop_init", status: status)
        }
        // A viewer that vanishes mid-write must not kill the server: libuv writes with write(2)
        // and does not ignore SIGPIPE itself on Linux.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Runs until `stop()` or until nothing is left to do.
    public func run() { uv_run(loop, UV_RUN_DEFAULT) }

    /// Runs one iteration without blocking (for tests that drive the loop by hand).
    public func runOnce() { uv_run(loop, UV_RUN_NOWAIT) }

    /// Makes `run()` return after the current iteration.
    public func stop() { uv_stop(loop) }

    /// The loop's cached time in milliseconds.
    public var now: UInt64 { uv_now(loop) }

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

    public var description: String {
        let reason = String(cString: uv_strerror(status))
        return detail.map { "\($0) (\(operation): \(reason))" } ?? "\(operation) failed: \(reason)"
    }
}
