import Hummingbird
import TrellisProtocol

/// Who may talk to trellis-web, checked on every HTTP request (the page, the session list, and a
/// WebSocket upgrade, which the upgrade route turns down and leaves to this check so a refused
/// browser learns why). With a token, the request must carry it (`?token=…`). Without one (on
/// loopback), the `Host` must name this machine's loopback: otherwise a site whose name an
/// attacker points at 127.0.0.1 (DNS rebinding) would be "same origin" with this server, and its
/// script could read sessions (or, with `--control`, drive them) through the user's browser.
struct AccessCheck<Context: RequestContext>: RouterMiddleware {
    let token: AccessToken?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = Self.refusal(token: token, host: request.head.authority, presented: request.uri.queryParameters.get("token")) {
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: refusal.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: refusal.message + "\n")))
        }
        return try await next(request, context)
    }

    /// Why a request with this `Host` and presented token is refused; nil when it may go on.
    static func refusal(token: AccessToken?, host: String?, presented: String?) -> (status: HTTPResponse.Status, message: String)? {
        if let token {
            guard token.matches(presented) else {
                return (.unauthorized, "401: this trellis-web needs its token. Open the URL it printed when it started "
                    + "(http://HOST:PORT/?token=…), or add ?token=TOKEN (the value of its --token) to this URL.")
            }
            return nil
        }
        guard let host, isLoopback(host: host) else {
            return (.forbidden, "403: the Host '\(host ?? "")' is not this machine's loopback name. trellis-web without a token "
                + "answers only http://127.0.0.1:PORT/, http://localhost:PORT/ or http://[::1]:PORT/ (another name could be a "
                + "DNS-rebinding page); to be reached by another name, start it with --token.")
        }
        return nil
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
