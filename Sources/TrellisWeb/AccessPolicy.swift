#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Hummingbird
import NIOCore

/// Who may talk to trellis-web, decided for every request (the page, the session list, and a
/// WebSocket handshake) from its `AccessRequest`: a browser viewer must not be weaker than the
/// socket it bridges, which serves only trellisd's own uid. Either the request carries the token
/// (in the URL or the cookie), or, with `--no-token` on loopback, the connecting socket belongs
/// to trellis-web's own uid. In both, only this server's own page may use it from a browser
/// (`Origin`); without a token the `Host` must also name loopback: a site whose name an attacker
/// points at 127.0.0.1 (DNS rebinding) would otherwise be "same origin" with this server.
enum AccessPolicy {
    /// Why a request is refused, for a person: its status and a plain-text reason.
    struct Refusal: Equatable, Sendable {
        var status: HTTPResponse.Status
        var message: String
    }

    /// Why `request` is refused; nil when it may go on. `ownUID` is trellis-web's; `peerOwner`
    /// finds the uid of the client's socket (the kernel's tables; a test's stand-in).
    static func refusal(
        of request: AccessRequest, access: WebAccess, ownUID: uid_t = geteuid(),
        peerOwner: (SocketAddress, SocketAddress) -> uid_t? = LoopbackPeer.owner
    ) -> Refusal? {
        // Which Host a check reads and which one a proxy or the browser meant could differ.
        guard request.hosts.count <= 1 else {
            return Refusal(status: .badRequest, message: "400: this request has \(request.hosts.count) Host headers "
                + "(\(request.hosts.map { "'\($0)'" }.joined(separator: ", "))); HTTP/1.1 allows one, and trellis-web answers only that")
        }
        let host = request.hosts.first
        guard SameOrigin.allows(origin: request.origin, host: host) else {
            return Refusal(status: .forbidden, message: "403: a page of another site (Origin '\(request.origin ?? "")') may not use "
                + "this trellis-web: only its own page, http://\(host ?? "HOST:PORT")/, may (or a client that is not a browser)")
        }
        switch access {
        case .token(let token):
            if token.matches(request.queryToken) || request.cookieTokens.contains(where: token.matches) { return nil }
            if request.queryToken == nil && request.cookieTokens.isEmpty {
                return Refusal(status: .forbidden, message: "403: this trellis-web needs its token. Open the URL it printed when "
                    + "it started (http://HOST:PORT/?token=…), or add ?token=TOKEN (its --token) to this URL; the browser keeps it "
                    + "in a cookie after that.")
            }
            return Refusal(status: .forbidden, message: "403: the token does not match this trellis-web's (started again? it "
                + "makes a new token each time unless given one): open the URL it printed last (http://HOST:PORT/?token=…).")
        case .sameUser:
            guard let host, isLoopback(host: host) else {
                return Refusal(status: .forbidden, message: "403: the Host '\(host ?? "")' is not this machine's loopback name. "
                    + "trellis-web --no-token answers only http://127.0.0.1:PORT/, http://localhost:PORT/ or http://[::1]:PORT/ "
                    + "(another name could be a DNS-rebinding page); to be reached by another name, start it without --no-token "
                    + "and open the URL with its token.")
            }
            let owner = request.peer.flatMap { peer in request.local.flatMap { peerOwner(peer, $0) } }
            guard let owner else {
                let peer = request.peer.map { "\($0.ipAddress ?? "?") port \($0.port ?? 0)" } ?? "unknown"
                return Refusal(status: .forbidden, message: "403: trellis-web --no-token serves only its own user (uid \(ownUID)), "
                    + "and no process holds the socket this connection comes from (\(peer)) in "
                    + "\(LoopbackPeer.tables.joined(separator: " or ")); start it without --no-token and open the URL with its token.")
            }
            guard owner == ownUID || owner == 0 else {
                return Refusal(status: .forbidden, message: "403: this connection comes from uid \(owner); trellis-web --no-token "
                    + "serves only its own user, uid \(ownUID), as trellisd's socket does. Ask that user for a trellis-web started "
                    + "without --no-token, and open the URL with its token.")
            }
            return nil
        }
    }

    /// Whether `host` (a Host header: name or address, then an optional port) is a loopback name.
    static func isLoopback(host: String) -> Bool {
        let lowered = host.lowercased()
        let name: Substring
        if lowered.hasPrefix("[") {
            guard let close = lowered.firstIndex(of: "]") else { return false }
            name = lowered[lowered.index(after: lowered.startIndex)..<close]
            let rest = lowered[lowered.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return false }
        } else {
            let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.count == 1 || parts[1].allSatisfy(\.isNumber) else { return false }
            name = parts[0]
        }
        return name == "localhost" || name == "127.0.0.1" || name == "::1"
    }
}
