import TrellisCore
import TrellisProtocol

/// Something that answers protocol methods: a server over its socket (`RPCClient`), or the
/// server's method table in this process (embedded `trellis run`).
public protocol MethodCaller: AnyObject {
    /// The method's `result`; an error reply is thrown as `ClientError.server`.
    func call(_ method: String, _ params: [String: JSONValue]) throws(ClientError) -> JSONValue
}

extension RPCClient: MethodCaller {}
