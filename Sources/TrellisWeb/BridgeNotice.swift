import TrellisProtocol

/// A message of the bridge's own to the page, next to what trellisd says: why there is nothing
/// to show. The page tells them from JSON-RPC messages by the `bridge` key, shows `message`, and
/// tries again a second later.
struct BridgeNotice: Equatable, Sendable {
    enum Kind: String, Sendable {
        /// Nothing answers on trellisd's socket (not started, or gone).
        case unreachable
        /// trellisd closed the connection (it shut down) or the connection failed.
        case disconnected
        /// Neither the page's URL nor trellis-web's command line names a session.
        case noSession
    }

    var kind: Kind
    var message: String

    /// The JSON text sent to the page: `{"bridge":{"kind":…,"message":…}}`.
    var json: String {
        JSONWriter.string(.object(["bridge": .object(["kind": .string(kind.rawValue), "message": .string(message)])]))
    }
}
