import TrellisCore
import TrellisProtocol

/// Writing to a client: replies (results the method table gives, or bytes a handler encoded),
/// errors and notifications, each one NDJSON line.
extension Server {
    /// A reply's result: a value to encode, or bytes a handler encoded itself.
    enum Reply {
        case value(JSONValue)
        case encoded(ByteBuffer)
    }

    func reply(id: JSONValue, result: Reply, to connection: Connection) {
        var buffer = ByteBuffer(capacity: 256)
        var o = JSONObjectWriter(into: &buffer)
        o.field("jsonrpc", "2.0", into: &buffer)
        o.field("id", id, into: &buffer)
        switch result {
        case .value(let value):
            o.field("result", value, into: &buffer)
        case .encoded(let bytes):
            o.key("result", into: &buffer)
            bytes.withUnsafeBytes { buffer.append(contentsOf: $0) }
        }
        o.end(into: &buffer)
        buffer.append(10)
        buffer.withUnsafeBytes { connection.write($0) }
    }

    func reply(id: JSONValue, error: RPCError, to connection: Connection) {
        send(["jsonrpc": .string("2.0"), "id": id, "error": error.json], to: connection)
    }

    func send(_ message: [String: JSONValue], to connection: Connection) {
        var buffer = ByteBuffer(capacity: 256)
        JSONWriter.write(.object(message), into: &buffer)
        buffer.append(10)
        buffer.withUnsafeBytes { connection.write($0) }
    }

    /// A notification (no id) to one connection.
    func notify(_ method: String, _ params: JSONValue, to connection: Connection) {
        send(["jsonrpc": .string("2.0"), "method": .string(method), "params": params], to: connection)
    }
}
