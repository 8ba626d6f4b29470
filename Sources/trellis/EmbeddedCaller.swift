import TrellisClient
import TrellisCore
import TrellisServer
import TrellisProtocol

/// The server's method table in this process, as a `MethodCaller`: what `trellis run` uses
/// when no `--socket` is given. Error replies become the same `ClientError.server` a socket
/// reply would, so commands and `expect-error` cannot tell the two apart.
final class EmbeddedCaller: MethodCaller {
    let server: InProcessServer

    init(server: InProcessServer) {
        self.server = server
    }

    func call(_ method: String, _ params: [String: JSONValue]) throws(ClientError) -> JSONValue {
        switch server.call(method, .object(params)) {
        case .result(let result):
            return result
        case .error(let code, let message, let data):
            throw .server(code: code, message: message, domainCode: data?["code"]?.stringValue, data: data)
        }
    }
}
