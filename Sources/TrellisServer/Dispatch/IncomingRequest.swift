import TrellisCore
import TrellisProtocol

/// What one message asks for, read without running anything: a method call, or the error that
/// answers it. The common form is read without building a tree for the envelope
/// (`RequestEnvelope`); anything else is parsed whole, which also words every error.
enum IncomingRequest {
    /// `id` nil: a notification, run but not answered. `scanned`: sections the method's
    /// `scanParams` read from the bytes (then not in `params`).
    case call(Method, params: JSONValue, id: JSONValue?, scanned: [Section]? = nil)
    /// `id` nil: a notification, not answered even with an error; a message that could not be
    /// read as a request at all is answered with id `null`.
    case refused(RPCError, id: JSONValue?)

    static func read(_ bytes: UnsafeRawBufferPointer) -> IncomingRequest {
        read(bytes, envelope: RequestEnvelope.scan(bytes))
    }

    /// The same, with the envelope already scanned (nil: not the common form).
    static func read(_ bytes: UnsafeRawBufferPointer, envelope: RequestEnvelope?) -> IncomingRequest {
        if let envelope, let request = read(envelope, of: bytes) { return request }
        return readParsed(bytes)
    }

    /// The params inside a request are one level down: the whole message's depth limit, less one.
    static let paramsLimits = JSONLimits(maximumDepth: JSONLimits.default.maximumDepth - 1,
                                         maximumStringBytes: JSONLimits.default.maximumStringBytes,
                                         maximumElements: JSONLimits.default.maximumElements)

    /// A request in the common form; nil when its params do not parse (the whole message is
    /// parsed then, so the error gives the offset in the message).
    private static func read(_ envelope: RequestEnvelope, of bytes: UnsafeRawBufferPointer) -> IncomingRequest? {
        let name = UnsafeRawBufferPointer(rebasing: bytes[envelope.method])
        let method = MethodTable.method(named: name)
        var params = JSONValue.object([:])
        var scanned: [Section]?
        if let range = envelope.params {
            let text = UnsafeRawBufferPointer(rebasing: bytes[range])
            if let scan = method?.scanParams, let read = scan(text) {
                params = read.params
                scanned = read.sections
            } else {
                guard let parsed = try? JSONParser.parse(text, limits: paramsLimits) else { return nil }
                params = parsed
            }
        }
        let id: JSONValue?
        switch envelope.id {
        case .none: id = nil
        case .integer(let value): id = .number(Double(value))
        case .string(let range): id = .string(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        }
        guard let method else {
            return .refused(.unknownMethod(String(decoding: name, as: UTF8.self), known: MethodTable.names), id: id)
        }
        return .call(method, params: params, id: id, scanned: scanned)
    }

    /// Any other message: parsed whole, checked member by member.
    static func readParsed(_ bytes: UnsafeRawBufferPointer) -> IncomingRequest {
        let request: JSONValue
        do {
            request = try JSONParser.parse(bytes)
        } catch {
            return .refused(.parse("parse error: \(error.message)"), id: .null)
        }
        guard case .object(let envelope) = request else {
            return .refused(.invalidRequest("a request must be a JSON object {jsonrpc, id, method, params}"), id: .null)
        }
        let id = envelope["id"]
        if let id, !isValidID(id) {
            return .refused(.invalidRequest("id must be a string, a number or null"), id: .null)
        }
        // A number id is read as a double: past 2^53 its digits would come back changed, and a
        // client could not match its reply. Refused, naming the range, rather than echoed wrong.
        if case .number(let n)? = id, Swift.abs(n) > Self.largestExactID {
            return .refused(.invalidRequest("id: a number id must be within ±9007199254740991 (integers past 2^53 lose digits); send a larger id as a string"), id: .null)
        }
        guard envelope["jsonrpc"] == .string("2.0") else {
            return .refused(.invalidRequest("jsonrpc must be \"2.0\""), id: id ?? .null)
        }
        guard case .string(let name)? = envelope["method"] else {
            return .refused(.invalidRequest("method must be a string"), id: id ?? .null)
        }
        let params = envelope["params"] ?? .object([:])
        guard case .object = params else {
            return .refused(.invalidParams("params must be an object (by-name parameters)"), id: id)
        }
        guard let method = MethodTable.byName[name] else {
            return .refused(.unknownMethod(name, known: MethodTable.names), id: id)
        }
        return .call(method, params: params, id: id)
    }

    /// 2^53 − 1: every integer up to it is exact in a double.
    static let largestExactID = 9_007_199_254_740_991.0

    private static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string, .number, .null: return true
        default: return false
        }
    }
}
