import TrellisProtocol

/// Which socket a client talks to: an explicit `--socket`, else the default of `SocketPath`.
public struct ServerAddress: Hashable, Sendable {
    public var path: String

    public init(explicit: String?, environment: [String: String], uid: UInt32) {
        if let explicit, !explicit.isEmpty {
            path = explicit
        } else {
            path = SocketPath.resolve(environment: environment, uid: uid)
        }
    }
}
