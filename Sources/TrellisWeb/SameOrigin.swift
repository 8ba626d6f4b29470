/// The origin check of every request (`AccessPolicy`), which matters most for the WebSocket: a
/// browser says which page opens a WebSocket (`Origin`), and any page the user visits may open
/// one to 127.0.0.1, so without this check another site could read a session through the user's
/// browser (a cookie goes with it). Only the page this server served (whose origin names the
/// same host and port the request was sent to) may use it. Clients that are not browsers send no
/// `Origin`, or one naming the socket itself (`ws://host`, as swift-websocket's client does),
/// which no page can send: they are let through. Everything else a browser may send (`null`
/// from a sandboxed frame or a file, another site) is refused.
enum SameOrigin {
    /// Whether a request with these `Origin` and `Host` values may go ahead.
    static func allows(origin: String?, host: String?) -> Bool {
        guard let origin else { return true }
        let lowered = origin.lowercased()
        if lowered.hasPrefix("ws://") || lowered.hasPrefix("wss://") { return true }
        guard let host, let authority = authority(of: origin) else { return false }
        return authority.lowercased() == host.lowercased()
    }

    /// `host[:port]` of an `http://` or `https://` origin; nil for any other (`null`, `file://`).
    static func authority(of origin: String) -> String? {
        let lowered = origin.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let rest = origin.dropFirst(scheme.count)
            return rest.isEmpty || rest.contains("/") ? nil : String(rest)
        }
        return nil
    }
}
