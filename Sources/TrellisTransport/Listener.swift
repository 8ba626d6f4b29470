import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A listening Unix socket on the loop, handing each accepted connection back as a `FramedStream` not yet reading.
public final class Listener {
    /// Called for each accepted connection, or with why a pending one could not be taken
    /// (operation "accept": libuv reported an error; "uv_accept": taking it failed).
    public var onConnection: (Result<FramedStream, TransportError>) -> Void = { _ in }
    /// Kept alive with the listener until it has closed (the object whose callbacks these are).
    public var owner: AnyObject?
    public let maximumMessageBytes: Int
    private let handle: UnsafeMutablePointer<uv_pipe_t>
    private var closed = false

    private var stream: UnsafeMutablePointer<uv_stream_t> { UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self) }

    /// Binds `path` with `umask` in force while the file is made (so it decides the socket's
    /// mode), then listens. It keeps itself alive until `close`'s callback, so no libuv callback
    /// outlives it.
    public init(loop: EventLoop, path: String, umask mask: mode_t? = nil, backlog: Int32 = 128,
                maximumMessageBytes: Int) throws(TransportError) {
        self.maximumMessageBytes = maximumMessageBytes
        handle = HandleMemory.allocate(UV_NAMED_PIPE, as: uv_pipe_t.self)
        uv_pipe_init(loop.loop, handle, 0)
        let previousMask = mask.map { umask($0) }
        let bound = uv_pipe_bind(handle, path)
        if let previousMask { umask(previousMask) }
        if bound != 0 {
            closed = true
            HandleMemory.close(handle)
            throw TransportError(operation: "uv_pipe_bind", status: bound, detail: "cannot bind \(path)")
        }
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let listening = uv_listen(stream, backlog) { server, status in
            Unmanaged<Listener>.fromOpaque(server!.pointee.data).takeUnretainedValue().accept(status)
        }
        if listening != 0 {
            close()
            throw TransportError(operation: "uv_listen", status: listening)
        }
    }

    private func accept(_ status: Int32) {
        guard status == 0 else { return onConnection(.failure(TransportError(operation: "accept", status: status))) }
        let connection = FramedStream(loop: handle.pointee.loop, maximumMessageBytes: maximumMessageBytes)
        let accepted = connection.accept(from: stream)
        guard accepted == 0 else {
            connection.close(reason: "accept failed")
            return onConnection(.failure(TransportError(operation: "uv_accept", status: accepted)))
        }
        onConnection(.success(connection))
    }

    /// Stops listening (idempotent); libuv removes the socket file as it closes a bound pipe.
    public func close() {
        guard !closed else { return }
        closed = true
        let generic = UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)
        // Closed already by `EventLoop.close`: the retain stays, as the handle's memory does.
        guard uv_is_closing(generic) == 0 else { return }
        uv_close(generic) { handle in
            let listener = Unmanaged<Listener>.fromOpaque(handle!.pointee.data).takeRetainedValue()
            listener.owner = nil
            UnsafeMutableRawPointer(handle!).deallocate()
        }
    }
}
