import TrellisCore
import TrellisProtocol

/// The caller a script's commands and checks go through: it makes every session the script
/// creates (or forks) run on a manual clock (so a run against `trellisd` gives the same frames as an
/// embedded one, whose sessions are manual anyway) and remembers them, so that `cleanUp()`
/// leaves a shared server as the script found it.
///
/// On a server others share, every session name the script writes gets the run's prefix on its
/// way to the server and loses it on the way back (results and messages): the script reads as
/// written and gives the same TAP as an embedded run, while it can only reach sessions it made
/// itself, never a colleague's `grid`.
public final class ScriptCaller: MethodCaller {
    public let base: any MethodCaller
    /// Put before every session name the script names ("" for names as written).
    public let sessionPrefix: String
    /// The sessions created, by their names on the server.
    public private(set) var createdSessions: [String] = []

    public init(_ base: any MethodCaller, sessionPrefix: String = "") {
        self.base = base
        self.sessionPrefix = sessionPrefix
    }

    /// A prefix of its own for one run (`run-k3x9a-`), so two runs on one server cannot meet.
    public static func runPrefix() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return "run-" + String((0..<5).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] }) + "-"
    }

    public func call(_ method: String, _ params: [String: JSONValue]) throws(ClientError) -> JSONValue {
        var params = params
        let creates = method == "session.create" || method == "session.fork"
        if creates {
            params["clock"] = .string("manual")
            if case .string(let name)? = params["name"] { params["name"] = .string(sessionPrefix + name) }
        }
        if case .string(let name)? = params["session"] { params["session"] = .string(sessionPrefix + name) }
        let result: JSONValue
        do {
            result = try base.call(method, params)
        } catch .server(let code, let message, let domainCode, let data) {
            throw .server(code: code, message: unprefixed(message), domainCode: domainCode, data: data.map(unprefixed))
        }
        if creates, let name = result["name"]?.stringValue { createdSessions.append(name) }
        return unprefixed(result)
    }

    /// Destroys the sessions the script created and did not destroy itself.
    public func cleanUp() {
        for name in createdSessions {
            _ = try? base.call("session.destroy", ["session": .string(name)])
        }
        createdSessions = []
    }

    /// Session names as the script wrote them. The prefix is random and ends in '-', so it
    /// stands for nothing else in a reply.
    private func unprefixed(_ text: String) -> String {
        sessionPrefix.isEmpty ? text : text.replacingAll(sessionPrefix, with: "")
    }

    private func unprefixed(_ value: JSONValue) -> JSONValue {
        guard !sessionPrefix.isEmpty else { return value }
        switch value {
        case .string(let s) where s.hasPrefix(sessionPrefix): return .string(String(s.dropFirst(sessionPrefix.count)))
        case .array(let values): return .array(values.map(unprefixed))
        case .object(let members): return .object(members.mapValues(unprefixed))
        default: return value
        }
    }
}
