import TrellisCore

/// The caller a script's commands and checks go through: it makes every session the script
/// creates run on a manual clock (so a run against `trellisd` gives the same frames as an
/// embedded one, whose sessions are manual anyway) and remembers them, so that `cleanUp()`
/// leaves a shared server as the script found it.
public final class ScriptCaller: MethodCaller {
    public let base: any MethodCaller
    public private(set) var createdSessions: [String] = []

    public init(_ base: any MethodCaller) {
        self.base = base
    }

    public func call(_ method: String, _ params: [String: JSONValue]) throws(ClientError) -> JSONValue {
        var params = params
        if method == "session.create" { params["clock"] = .string("manual") }
        let result = try base.call(method, params)
        if method == "session.create", let name = result["name"]?.stringValue { createdSessions.append(name) }
        return result
    }

    /// Destroys the sessions the script created and did not destroy itself.
    public func cleanUp() {
        for name in createdSessions {
            _ = try? base.call("session.destroy", ["session": .string(name)])
        }
        createdSessions = []
    }
}
