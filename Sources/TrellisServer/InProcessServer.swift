import Logging
import TrellisCore
import TrellisProtocol
import TrellisTransport

/// The reply to an in-process call: the method's result, or its error as the socket would send it.
public enum InProcessReply: Sendable {
    case result(JSONValue)
    /// `data` is the error's `data` member (`{code, details?}` for domain faults).
    case error(code: Int, message: String, data: JSONValue?)
}

/// The server's sessions and method table in this process, with no socket: what embedded
/// `trellis run` scripts talk to. A call runs exactly the path a socket request runs (the same
/// handlers, checks and messages), so a script gives the same results here and against
/// `trellisd`. Nothing runs a loop, so every session has a manual clock, and there is nothing
/// to attach a viewer to.
public final class InProcessServer {
    private let server: Server
    private let client = Client(connection: nil)

    public init(logger: Logger = Logger(label: "trellis.inprocess")) throws(TransportError) {
        server = try Server(inProcessWith: logger)
    }

    /// The same, whose flight recordings (`recording.start`) go under `recordingDirectory`
    /// (`DIR/recordings/`); still no journal. What the recording benchmarks drive.
    public init(recordingDirectory: String, logger: Logger = Logger(label: "trellis.inprocess")) throws(TransportError) {
        server = try Server(inProcessWith: logger, recordingDirectory: recordingDirectory)
    }

    deinit { server.loop.close() }

    /// Runs `method` with `params` (an object) and returns its result or error.
    public func call(_ method: String, _ params: JSONValue = .object([:])) -> InProcessReply {
        server.requestsHandled += 1
        guard case .object = params else {
            return Self.reply(.failure(.invalidParams("params must be an object (by-name parameters)")))
        }
        let execution = server.execute(method, params: params, client: client)
        server.finishRequest(touched: execution.touched, client: client)
        return Self.reply(execution.outcome, encoded: execution.encoded)
    }

    /// One message read exactly as the socket reads it (its bytes, the envelope, the method
    /// table) and run; its reply, or nil for a notification.
    public func handle(message: [UInt8]) -> InProcessReply? {
        server.requestsHandled += 1
        switch message.withUnsafeBytes({ IncomingRequest.read($0) }) {
        case .refused(let error, let id):
            return id == nil ? nil : Self.reply(.failure(error))
        case .call(let method, let params, let id, let scanned):
            let execution = server.execute(method, params: params, scanned: scanned, client: client)
            server.finishRequest(touched: execution.touched, client: client)
            return id == nil ? nil : Self.reply(execution.outcome, encoded: execution.encoded)
        }
    }

    private static func reply(_ outcome: Result<JSONValue, RPCError>, encoded: ByteBuffer?) -> InProcessReply {
        if case .success = outcome, let encoded {
            // As the socket refuses it (Replies.swift): no NaN or infinity reaches a script as null.
            if encoded.holdsNonFiniteNumber { return reply(.failure(.nonFiniteResult)) }
            do throws(JSONParseError) { return .result(try JSONParser.parse(encoded.bytes)) } catch {
                return .error(code: -32603, message: "internal error reading an encoded result: \(error.message)", data: nil)
            }
        }
        if case .success(let result) = outcome {
            var written = ByteBuffer()
            JSONWriter.write(result, into: &written)
            if written.holdsNonFiniteNumber { return reply(.failure(.nonFiniteResult)) }
        }
        return reply(outcome)
    }

    private static func reply(_ outcome: Result<JSONValue, RPCError>) -> InProcessReply {
        switch outcome {
        case .success(let result): return .result(result)
        case .failure(let error): return .error(code: error.code, message: error.message, data: error.json.field("data"))
        }
    }
}
