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
    private let socket: Listener
    private var nextConnectionID = 1

    public init(loop: EventLoop, path: String, maximumMessageBytes: Int) throws(ListenerError) {
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
        do {
            // umask 177 while binding: the socket file is 0600.
            socket = try Listener(loop: loop, path: path, umask: 0o177, maximumMessageBytes: maximumMessageBytes)
        } catch { throw .transport(error) }
        // The listening socket keeps this alive until it has closed, as its callbacks are ours.
        socket.owner = self
        socket.onConnection = { [unowned self] in self.accept($0) }
    }

    private func accept(_ result: Result<FramedStream, TransportError>) {
        let stream: FramedStream
        switch result {
        case .success(let accepted): stream = accepted
        case .failure(let error):
            // libuv's error on a pending connection, or taking it failed (worded as before).
            return onAcceptError(error.operation == "accept" ? "accept: \(error.reason)" : error.description)
        }
        let connection = Connection(stream: stream, id: nextConnectionID)
        nextConnectionID += 1
        guard let uid = connection.peerUID, uid == getuid() || uid == 0 else {
            onRefusedPeer(connection.peerUID)
            connection.close(reason: "peer uid \(connection.peerUID.map(String.init) ?? "unknown") refused")
            return
        }
        onConnection(connection)
        connection.startReading()
    }

    /// Stops listening; libuv removes the socket file as it closes a bound pipe.
    public func close() { socket.close() }
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
