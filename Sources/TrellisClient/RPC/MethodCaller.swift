import TrellisCore
import TrellisProtocol

/// Something that answers protocol methods: a server over its socket (`RPCClient`), or the
/// server's method table in this process (embedded `trellis run`).
public protocol MethodCaller: AnyObject {
    /// The method's `result`; an error reply is thrown as `ClientError.server`.
    func call(_ method: String, _ params: [String: JSONValue]) throws(ClientError) -> JSONValue
    /// The same with params already written as one JSON object (a reload's chunk).
    func call(_ method: String, encodedParams: ByteBuffer) throws(ClientError) -> JSONValue
    /// The most bytes of one request the server reads (what a large request is split by).
    func maximumMessageBytes() throws(ClientError) -> Int
}

extension MethodCaller {
    /// Callers without a socket read the params back into a tree.
    public func call(_ method: String, encodedParams: ByteBuffer) throws(ClientError) -> JSONValue {
        let params: JSONValue
        do { params = try JSONParser.parse(encodedParams.bytes, limits: JSONLimits(maximumDepth: 64, maximumStringBytes: 64 << 20, maximumElements: 1 << 26)) } catch {
            throw .unsendable("\(method): the params are not JSON (\(error.message))")
        }
        guard case .object(let members) = params else { throw .unsendable("\(method): the params must be a JSON object") }
        return try call(method, members)
    }

    /// No socket, no message limit: parts as large as the protocol's default limit.
    public func maximumMessageBytes() throws(ClientError) -> Int { ProtocolLimits.defaultMaximumMessageBytes }
}

extension RPCClient: MethodCaller {}
