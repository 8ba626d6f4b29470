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
        if let refused = writeMessage(to: connection, { writeReply(id: id, result: result, into: &$0) }) {
            refusedNonFinite("the reply to request \(JSONWriter.string(id))", refused)
            reply(id: id, error: .nonFiniteResult, to: connection)
            return
        }
    }

    private func writeReply(id: JSONValue, result: Reply, into buffer: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &buffer)
        o.field("jsonrpc", verbatim: "2.0", into: &buffer)
        o.field("id", id, into: &buffer)
        switch result {
        case .value(let value):
            o.field("result", value, into: &buffer)
        case .encoded(let bytes):
            o.key("result" as StaticString, into: &buffer)
            buffer.append(bytes)
        }
        o.end(into: &buffer)
        buffer.append(10)
    }

    /// Writes one message straight into the connection's output (collected with the rest of
    /// its read batch, or sent at once): no buffer in between. A message that came to hold a
    /// NaN or an infinity is taken back and returned (for the log); nil when it was written.
    func writeMessage(to connection: Connection, _ write: (inout ByteBuffer) -> Void) -> ByteBuffer? {
        guard !connection.isClosing else { return nil }
        return connection.stream.withOutput { output in
            let start = output.mark
            write(&output)
            guard output.holdsNonFiniteNumber(since: start) else { return nil }
            let refused = ByteBuffer(output.bytes(since: start))
            output.rewind(to: start)
            return refused
        }
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
        let refused = writeMessage(to: connection) { output in
            JSONWriter.write(.object(message), into: &output)
            output.append(10)
        }
        if let refused {
            refusedNonFinite("a message to client \(connection.id)", refused)
            return false
        }
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
