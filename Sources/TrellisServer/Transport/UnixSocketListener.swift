import CLibUV
import TrellisTransport
#if canImport(Glibc)
import Glibc
#endif

/// The listening Unix socket: bound with umask 177 so the file is 0600 inside its 0700
/// directory, after replacing a stale socket and refusing to start over a live server.
/// Every accepted peer's uid is checked (owner and root only).
public final class UnixSocketListener {
    public let path: String
    /// Called for each accepted, authorised connection.
    public var onConnection: (Connection) -> Void = { _ in }
    /// Called when a peer of another user was turned away (for the log).
    public var onRefusedPeer: (UInt32?) -> Void = { _ in }
    /// Called when accepting failed or the server is at its client limit.
    public var onAcceptError: (String) -> Void = { _ in }

    public let maximumMessageBytes: Int
    let handle: UnsafeMutablePointer<uv_pipe_t>
    private let loop: EventLoop
    private var nextConnectionID = 1
    private var closed = false

    public init(loop: EventLoop, path: String, maximumMessageBytes: Int) throws(ListenerError) {
        self.loop = loop
        self.path = path
        self.maximumMessageBytes = maximumMessageBytes
        guard path.utf8.count <= SocketDirectory.maximumPathLength else {
            throw .pathTooLong(path, limit: SocketDirectory.maximumPathLength)
        }
        do { try SocketDirectory.prepare(forSocket: path) } catch { throw .directory(error.description) }
        switch SocketDirectory.occupant(of: path) {
        case .liveServer: throw .serverAlreadyRunning(path)
        case .otherFile: throw .notASocket(path)
        case .staleSocket: unlink(path)
        case .nothing: break
        }
        handle = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
        uv_pipe_init(loop.loop, handle, 0)
        let previousMask = umask(0o177)
        let bound = uv_pipe_bind(handle, path)
        umask(previousMask)
        if bound != 0 {
            uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) { $0?.deallocate() }
            throw .transport(TransportError(operation: "uv_pipe_bind", status: bound, detail: "cannot bind \(path)"))
        }
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let listening = uv_listen(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self), 128) { server, status in
            let listener = Unmanaged<UnixSocketListener>.fromOpaque(server!.pointee.data).takeUnretainedValue()
            listener.accept(status)
        }
        if listening != 0 {
            close()
            throw .transport(TransportError(operation: "uv_listen", status: listening))
        }
    }

    private func accept(_ status: Int32) {
        guard status == 0 else {
            onAcceptError("accept: \(String(cString: uv_strerror(status)))")
            return
        }
        let server = UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self)
        do {
            let connection = try Connection(accepting: server, loop: loop.loop, id: nextConnectionID,
                                            maximumMessageBytes: maximumMessageBytes)
            nextConnectionID += 1
            guard let uid = connection.peerUID, uid == getuid() || uid == 0 else {
                onRefusedPeer(connection.peerUID)
                connection.close(reason: "peer uid \(connection.peerUID.map(String.init) ?? "unknown") refused")
                return
            }
            onConnection(connection)
            connection.startReading()
        } catch {
            onAcceptError(error.description)
        }
    }

    /// Stops listening; libuv removes the socket file as it closes a bound pipe.
    public func close() {
        guard !closed else { return }
        closed = true
        uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            if let data = handle!.pointee.data { Unmanaged<UnixSocketListener>.fromOpaque(data).release() }
            handle!.deallocate()
        }
    }
}

/// Why the server could not listen, worded for the person starting it.
public enum ListenerError: Error, CustomStringConvertible, Sendable {
    case pathTooLong(String, limit: Int)
    case directory(String)
    case serverAlreadyRunning(String)
    case notASocket(String)
    case transport(TransportError)

    public var description: String {
        switch self {
        case .pathTooLong(let path, let limit):
            return "socket path \(path) is \(path.utf8.count) bytes; Unix sockets allow at most \(limit): choose a shorter --socket"
        case .directory(let problem):
            return problem
        case .serverAlreadyRunning(let path):
            return "a Trellis server is already running on \(path); stop it first (trellis shutdown) or choose another --socket"
        case .notASocket(let path):
            return "\(path) exists and is not a socket; remove it or choose another --socket"
        case .transport(let error):
            return error.description
        }
    }
}
