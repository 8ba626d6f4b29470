import ArgumentParser
import TrellisClient
import TrellisCore
import TrellisProtocol

/// What every command on one session takes: where the server is, and the session's name.
struct SessionArguments: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session's name.") var name: String

    /// Calls `method` on the session (`params` plus its name) and prints the result: raw with
    /// `--json`, else the lines `human` makes of it.
    func call(_ method: String, _ params: [String: JSONValue] = [:], human: (JSONValue) -> [String]) throws {
        var params = params
        params["session"] = .string(name)
        try withServer(global, session: name) { c in c.emit(try c.call(method, params), human) }
    }
}

/// An index path as the protocol writes it.
func wire(_ path: TrellisCore.IndexPath) -> JSONValue { .array([.number(Double(path.section)), .number(Double(path.item))]) }

/// A point as the protocol writes it.
func wire(_ point: Point) -> JSONValue { .array([.number(point.x), .number(point.y)]) }

/// Insets as the protocol writes them: [top, left, bottom, right].
func wire(_ insets: EdgeInsets) -> JSONValue { .array([insets.top, insets.left, insets.bottom, insets.right].map { .number($0) }) }

/// Destroys the session the params name when it exists (its viewers see `session.closed`),
/// then creates it afresh; returns the `session.create` result.
@discardableResult
func replaceSession(_ c: ClientContext, _ params: [String: JSONValue]) throws -> JSONValue {
    do {
        _ = try c.call("session.destroy", ["session": params["name"] ?? .null])
    } catch {
        guard case .server(_, _, "unknown_session", _) = error else { throw error }
    }
    return try c.call("session.create", params)
}
