import TrellisCore
import TrellisProtocol

/// Requests answered straight from their bytes: the envelope scanned (`RequestEnvelope`), the
/// reply written into the connection's output with the id's bytes echoed, and no params tree,
/// method context or result buffer in between. Only a method whose answer needs nothing of its
/// params qualifies, and only in the forms the method table would answer the same way (the
/// tests compare both paths byte for byte); anything else goes the general way.
/// `hello` is every client's first call and the RPC benchmark's request.
extension Server {
    /// Answers `envelope`'s request if it is one of the direct forms; true when it was.
    func answerDirectly(_ envelope: RequestEnvelope, in bytes: UnsafeRawBufferPointer, client: Client,
                        connection: Connection) -> Bool {
        guard envelope.method(in: bytes, is: "hello"), envelope.hasNoParams(in: bytes) else { return false }
        if envelope.id != .none {
            let limit = configuration.maximumMessageBytes
            // A hello's reply holds no number that could be non-finite: nothing to refuse.
            _ = writeMessage(to: connection) { output in
                output.append(#"{"jsonrpc":"2.0","id":"#)
                envelope.writeID(of: bytes, into: &output)
                output.append(#","result":"#)
                ServerMethods.writeHello(maximumMessageBytes: limit, into: &output)
                output.append("}\n")
            }
        }
        finishRequest(touched: nil, client: client)
        return true
    }
}
