import Hummingbird
import TrellisProtocol

/// Refuses every HTTP request without the access token (`?token=…`) when one is set: the page,
/// the session list, and a WebSocket upgrade (which the upgrade route turns down and leaves to
/// this check), so a refused browser learns why.
struct TokenCheck<Context: RequestContext>: RouterMiddleware {
    let token: AccessToken?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token, !token.matches(request.uri.queryParameters.get("token")) else {
            return try await next(request, context)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        let message = "401: this trellis-web needs its token. Open the URL it printed when it started "
            + "(http://HOST:PORT/?token=…), or add ?token=TOKEN (the value of its --token) to this URL.\n"
        return Response(status: .unauthorized, headers: headers, body: .init(byteBuffer: ByteBuffer(string: message)))
    }
}
