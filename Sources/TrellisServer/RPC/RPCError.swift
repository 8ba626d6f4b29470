import TrellisCore
import TrellisProtocol

/// An error reply: JSON-RPC's codes for transport faults, and for domain faults the server
/// range (-32000…) with a stable string `data.code` ("invalid_update", "unknown_session", …)
/// and machine-readable `data.details`.
public struct RPCError: Error, Sendable {
    public var code: Int
    public var message: String
    public var domainCode: String?
    public var details: [String: JSONValue]

    public init(code: Int, message: String, domainCode: String? = nil, details: [String: JSONValue] = [:]) {
        self.code = code; self.message = message; self.domainCode = domainCode; self.details = details
    }

    public static func parse(_ message: String) -> RPCError { RPCError(code: -32700, message: message) }
    public static func invalidRequest(_ message: String) -> RPCError { RPCError(code: -32600, message: message) }
    public static func unknownMethod(_ name: String, known: [String]) -> RPCError {
        RPCError(code: -32601, message: "unknown method '\(name)'; known methods: \(known.joined(separator: ", "))")
    }
    public static func invalidParams(_ error: ParamError) -> RPCError { RPCError(code: -32602, message: error.message) }
    public static func invalidParams(_ message: String) -> RPCError { RPCError(code: -32602, message: message) }
    /// The result held a NaN or an infinity, refused rather than sent as `null` (a server bug).
    public static let nonFiniteResult = RPCError(
        code: -32603, message: "internal error: the result held a non-finite number (NaN or infinity), which JSON cannot carry, so it was not sent (the request itself was handled: query the state to see its effect). This is a server bug: please report it with the requests that led here")

    /// A domain fault with its documented string code.
    public static func domain(_ code: String, _ message: String, details: [String: JSONValue] = [:]) -> RPCError {
        RPCError(code: domainCodes[code] ?? -32000, message: message, domainCode: code, details: details)
    }

    /// The numeric JSON-RPC code of each documented domain fault.
    public static let domainCodes: [String: Int] = [
        "invalid_update": -32001, "unknown_session": -32002, "session_exists": -32003, "read_only": -32004,
        "limit_exceeded": -32005, "out_of_range": -32006, "invalid_data": -32007, "invalid_state": -32008,
        "shutting_down": -32009, "persistence_failed": -32010, "unknown_element": -32011, "body_exists": -32012,
        "unknown_behavior": -32013,
    ]

    public static func unknownSession(_ name: String, known: [String]) -> RPCError {
        domain("unknown_session", known.isEmpty
               ? "no session named '\(name)'; there are no sessions (create one with session.create, or `trellis new \(name)`)"
               : "no session named '\(name)'; sessions: \(known.joined(separator: ", "))",
               details: ["session": .string(name)])
    }

    public static func from(_ error: WireError) -> RPCError {
        switch error {
        case .params(let p): return .invalidParams(p)
        case .data(let d): return .domain("invalid_data", d.description)
        }
    }

    public static func from(_ error: EngineError) -> RPCError {
        switch error {
        case .itemOutOfRange, .sectionOutOfRange: return .domain("out_of_range", error.description)
        case .sectionNotOrthogonal: return .domain("invalid_state", error.description)
        case .invalidScrollPosition: return .invalidParams(error.description)
        case .selectionNotAllowed, .transitionInProgress, .noTransitionInProgress, .bodyInUse, .scrollingDisabled, .panNotBegun:
            return .domain("invalid_state", error.description)
        case .unknownDynamicElement, .unknownBody: return .domain("unknown_element", error.description)
        case .bodyExists: return .domain("body_exists", error.description)
        case .unknownBehavior: return .domain("unknown_behavior", error.description)
        case .invalidBehavior: return .invalidParams(error.description)
        }
    }

    public static func from(_ error: UpdateError) -> RPCError {
        var details = error.jsonDetails
        details["reason"] = .string(error.code)
        return .domain("invalid_update", error.message, details: details)
    }

    /// The `error` member of a reply.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["code": .number(Double(code)), "message": .string(message)]
        if let domainCode {
            var data: [String: JSONValue] = ["code": .string(domainCode)]
            if !details.isEmpty { data["details"] = .object(details) }
            members["data"] = .object(data)
        }
        return .object(members)
    }
}
