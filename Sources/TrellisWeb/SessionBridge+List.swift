import TrellisProtocol

extension SessionBridge {
    /// The `session.list` request the session list page is built from.
    static let listRequest = #"{"jsonrpc":"2.0","id":1,"method":"session.list"}"#

    /// The sessions for the page's list, as JSON: trellisd's `session.list` result as it is, or
    /// `{"bridge": …}` (a `BridgeNotice`) when trellisd does not answer. Its own short
    /// connection, so listing never disturbs a bridge that watches.
    func sessionList() async -> String {
        var reply: String?
        do {
            try await connection.exchange(Self.listRequest) { line in
                reply = line
                return false
            }
        } catch {
            return BridgeNotice(kind: .unreachable, message: "trellisd is not answering on \(connection.path): \(error)").json
        }
        guard let reply, let parsed = try? JSONParser.parse(reply), let result = parsed["result"] else {
            return BridgeNotice(kind: .disconnected, message: "trellisd closed the connection without listing its sessions").json
        }
        return JSONWriter.string(result)
    }
}
