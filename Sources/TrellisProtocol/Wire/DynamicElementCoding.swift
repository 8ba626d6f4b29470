import TrellisCore

// The wire forms of the engine's `DynamicElement` (PROTOCOL.md, "Dynamics"): one enum for the
// engine, the server and the clients; here only how it is written and read.
extension DynamicElement {
    /// The protocol's ELEMENT: an item as its id string (the short form), a body as `{"body": NAME}`.
    public var wire: JSONValue {
        switch self {
        case .item(let id): return .string(id.rawValue)
        case .body(let name): return .object(["body": .string(name)])
        }
    }

    /// An element a request names, strictly: `"i3"`, `{"item": "i3"}` or `{"body": "panel"}`.
    public static func decode(_ value: JSONValue, path: String) throws(ParamError) -> DynamicElement {
        switch value {
        case .string(let id): return .item(ItemID(id))
        case .object(let members) where members.count == 1:
            if case .string(let id)? = members["item"] { return .item(ItemID(id)) }
            if case .string(let name)? = members["body"] { return .body(name) }
        default: break
        }
        throw ParamError(path: path, .mismatch(expected: "an element: an item id (\"i3\"), {\"item\": ID} or {\"body\": NAME}", found: value.kindDescription))
    }

    /// The element an answer names, in any of the protocol's forms: `"i3"`, `{"item": "i3"}`,
    /// `{"body": "panel"}`, or a scene element `{"kind": "cell"|"body", "id": …}`.
    public init?(wire: JSONValue) {
        if let id = wire.stringValue { self = .item(ItemID(id)); return }
        if let name = wire["body"]?.stringValue { self = .body(name); return }
        if let id = wire["item"]?.stringValue { self = .item(ItemID(id)); return }
        guard let id = wire["id"]?.stringValue else { return nil }
        self = wire["kind"]?.stringValue == "body" ? .body(id) : .item(ItemID(id))
    }
}
