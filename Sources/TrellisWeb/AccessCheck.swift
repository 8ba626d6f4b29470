import Hummingbird

/// The router's check of every request (the page, the session list, and a WebSocket handshake
/// that `UpgradeGate` turned back into a plain request so that it is answered here): a refusal
/// is answered with its reason as plain text, which a browser shows as the page. A request that
/// carried the right token in its URL gets the cookie that carries it from then on.
struct AccessCheck: RouterMiddleware {
    typealias Context = WebRequestContext
    let access: WebAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let facts = AccessRequest(request, peer: context.peer, local: context.local)
        if let refusal = AccessPolicy.refusal(of: facts, access: access) {
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: refusal.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: refusal.message + "\n")))
        }
        var response = try await next(request, context)
        if case .token(let token) = access, token.matches(facts.queryToken) {
            response.headers[.setCookie] = TokenCookie.setCookie(token, port: context.local?.port)
        }
        return response
    }
}
