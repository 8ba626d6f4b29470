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
        // One buffer for every reply, kept at its size: a reply allocates nothing to be written.
        replyBuffer.clear()
        defer { if replyBuffer.capacity > 1 << 20 { replyBuffer = ByteBuffer(capacity: 256) } }
        replyBuffer.reserveCapacity(256)
        writeReply(id: id, result: result, into: &replyBuffer)
        guard !replyBuffer.holdsNonFiniteNumber else {
            refusedNonFinite("the reply to request \(JSONWriter.string(id))", replyBuffer)
            reply(id: id, error: .nonFiniteResult, to: connection)
            return
        }
        replyBuffer.withUnsafeBytes { connection.write($0) }
    }

    private func writeReply(id: JSONValue, result: Reply, into buffer: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &buffer)
        o.field("jsonrpc", verbatim: "2.0", into: &buffer)
        o.field("id", id, into: &buffer)
        switch result {
        case .value(let value):
            o.field("result", value, into: &buffer)
        case .encoded(let bytes):
            o.key("result", into: &buffer)
            buffer.append(bytes)
        }
        o.end(into: &buffer)
        buffer.append(10)
    }

    func reply(id: JSONValue, error: RPCError, to connection: Connection) {
        guard send(["jsonrpc": .string("2.0"), "id": id, "error": error.json], to: connection) else {
            reply(id: id, error: .nonFiniteResult, to: connection)
            return
        }
    }

    /// Writes `message`, unless a NaN or an infinity reached it (then nothing is written, the log
    /// says so, and the result is false).
    @discardableResult
    func send(_ message: [String: JSONValue], to connection: Connection) -> Bool {
        var buffer = ByteBuffer(capacity: 256)
        JSONWriter.write(.object(message), into: &buffer)
        buffer.append(10)
        guard !buffer.holdsNonFiniteNumber else {
            refusedNonFinite("a message to client \(connection.id)", buffer)
            return false
        }
        buffer.withUnsafeBytes { connection.write($0) }
        return true
    }

    /// Counts and logs a message refused for holding a non-finite number: the engine validates
    /// what enters, so this is a bug to report, but it never reaches a client as `null`.
    func refusedNonFinite(_ what: String, _ bytes: ByteBuffer) {
        nonFiniteRefusals += 1
        logger.error("refused to send \(what): it held a non-finite number (NaN or infinity), which JSON cannot carry. This is a bug; please report it with the requests that led here")
        // Where it was: the writer put null in its place (the first 4 KB, for the report).
        logger.error("the refused message, null where a number was not finite: \(String(decoding: bytes.bytes.prefix(4096), as: UTF8.self))")
    }

    /// A notification (no id) to one connection.
    func notify(_ method: String, _ params: JSONValue, to connection: Connection) {
        send(["jsonrpc": .string("2.0"), "method": .string(method), "params": params], to: connection)
    }
}
