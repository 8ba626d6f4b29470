import TrellisCore
import TrellisProtocol

/// One protocol request of a demo step. A `dynamics.add` can keep the behaviour id its reply
/// names, and a later request can stand a kept id's name where the number goes: the ids are
/// the server's (per session, in the order added), so a step learns them as it goes and
/// removes exactly the behaviours it added.
public struct DemoRequest: Sendable {
    public var method: String
    public var params: [String: JSONValue]
    /// The name the reply's `behavior` is kept under, for later requests.
    public var keeps: String?

    public init(_ method: String, _ params: [String: JSONValue], keeps: String? = nil) {
        self.method = method
        self.params = params
        self.keeps = keeps
    }

    /// Stands for the behaviour id kept under `name` (a params value).
    public static func kept(_ name: String) -> JSONValue { .object(["kept": .string(name)]) }

    /// The params with each stand-in replaced by its kept id; nil when one was never kept
    /// (its `dynamics.add` was refused or has not answered): the request is then skipped.
    public func resolved(_ kept: [String: JSONValue]) -> [String: JSONValue]? {
        var result = params
        for (key, value) in params {
            guard case .object(let fields) = value, fields.count == 1, case .string(let name)? = fields["kept"] else { continue }
            guard let id = kept[name] else { return nil }
            result[key] = id
        }
        return result
    }

    /// What to keep from `reply`: the name and the behaviour id, when this request keeps one.
    public func keeping(_ reply: JSONValue) -> (name: String, id: JSONValue)? {
        guard let keeps, let id = reply["behavior"] else { return nil }
        return (keeps, id)
    }
}
