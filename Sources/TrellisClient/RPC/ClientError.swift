#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import TrellisCore
import TrellisProtocol

/// Why a call to the server failed: the connection (nothing listens, it broke, it timed out,
/// the server could not be started) or the server's own refusal (a JSON-RPC error reply).
public enum ClientError: Error, Sendable, CustomStringConvertible {
    /// `connect(2)` failed; `errno` tells whether anything listens (see `nothingListens`).
    case connect(path: String, errno: Int32, reason: String)
    /// The connection broke or the server closed it before replying.
    case disconnected(path: String, reason: String)
    /// No reply within the time limit.
    case timeout(method: String, seconds: Double)
    /// The server could not be found or started.
    case launch(String)
    /// The server answered with something that is not a JSON-RPC reply.
    case badReply(String)
    /// The server refused the request: JSON-RPC `code`, its `message` (UIKit's text for refused
    /// batches), `data.code` when it is a domain fault ("invalid_update", …) and the whole `data`.
    case server(code: Int, message: String, domainCode: String?, data: JSONValue?)
    /// The request was refused before it was sent: a number that is not finite, or more bytes
    /// than the server reads in one message. Nothing reached the server.
    case unsendable(String)

    /// True when `connect` found no server: no socket file, or a stale one nobody accepts on.
    public var nothingListens: Bool {
        if case .connect(_, let e, _) = self { return e == ENOENT || e == ECONNREFUSED }
        return false
    }

    /// True for the connection family (as opposed to a reply from the server).
    public var isConnectionError: Bool {
        switch self {
        case .connect, .disconnected, .timeout, .launch: return true
        case .badReply, .server, .unsendable: return false
        }
    }

    public var description: String {
        switch self {
        case .connect(let path, _, let reason): return "cannot connect to \(path): \(reason)"
        case .disconnected(let path, let reason): return "connection to \(path) lost: \(reason)"
        case .timeout(let method, let seconds): return "no reply to \(method) within \(JSONNumberText.format(seconds)) s"
        case .launch(let message): return message
        case .badReply(let message): return "unexpected reply from the server: \(message)"
        case .server(_, let message, _, _): return message
        case .unsendable(let message): return message
        }
    }
}

/// A number's exact text: integers without ".0", others in the shortest form that reads back the
/// same double (what a person reads goes through `HumanNumber`, which rounds first).
public enum JSONNumberText {
    public static func format(_ value: Double) -> String {
        if value.isFinite, value.magnitude < 1e15, value == value.rounded() {
            return value == 0 ? "0" : String(Int(value))
        }
        return "\(value)"
    }
}
