import TrellisCore
import TrellisDynamics

// The params of the dynamics methods around the behaviour object itself: the object
// dynamics.add takes, and the behaviour id the others name.
extension BehaviorSpec {
    /// dynamics.add's `params.behavior`: present, and without a null anywhere (null only
    /// removes a key in dynamics.update).
    public static func addedObject(_ params: JSONValue) throws(ParamError) -> JSONValue {
        let path = "params.behavior"
        guard let spec = params.field("behavior"), spec != .null else {
            throw ParamError(path: path, .missing(expected: "a behaviour object {\"type\": \(typeNames.joined(separator: " | ")), …}"))
        }
        if let found = nullPath(spec, path: path) {
            throw ParamError(path: found, .mismatch(expected: "a value", found: "null (null only removes a key in dynamics.update; leave the key out for its default)"))
        }
        return spec
    }

    /// dynamics.update's params over the behaviour's `settled` object: each key given replaces
    /// the one there, null removes one (back to its default, or to switch a direction's
    /// spelling), and the type cannot change.
    public static func updated(_ settled: JSONValue, by params: JSONValue) throws(ParamError) -> JSONValue {
        guard case .object(var merged) = settled, case .object(let changes) = params else {
            throw ParamError(path: "params", .refused("expected an object"))
        }
        for (key, value) in changes where key != "session" && key != "behavior" {
            if key == "type", value != merged["type"] {
                let type = JSONWriter.string(merged["type"] ?? .null)
                throw ParamError(path: "params.type", .refused("a behaviour's type cannot change (it is \(type)): remove it and add a new one"))
            }
            merged[key] = value == .null ? nil : value
        }
        return .object(merged)
    }

    /// `params.behavior`: a behaviour id, as dynamics.add returned it.
    public static func id(_ params: JSONValue) throws(ParamError) -> BehaviorID {
        let n = try params.requireNumber("behavior")
        guard n == n.rounded(), n >= 1, n < 1e15 else {
            throw ParamError(path: "params.behavior", .mismatch(expected: "a behaviour id (a whole number from 1, as dynamics.add returned it)", found: "\(n)"))
        }
        return BehaviorID(Int(n))
    }

    /// The key path of the first null inside `value`, if any.
    static func nullPath(_ value: JSONValue, path: String) -> String? {
        switch value {
        case .null: return path
        case .object(let members):
            for key in members.keys.sorted() {
                if let found = nullPath(members[key]!, path: "\(path).\(key)") { return found }
            }
        case .array(let elements):
            for (k, element) in elements.enumerated() {
                if let found = nullPath(element, path: "\(path)[\(k)]") { return found }
            }
        default: break
        }
        return nil
    }
}
