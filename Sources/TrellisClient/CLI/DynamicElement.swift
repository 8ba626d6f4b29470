import TrellisCore
import TrellisProtocol

/// What a behaviour acts on, as the CLI writes it: an item id (`i3`, or `item:i3` when the id
/// itself starts with `body:`) or a free body (`body:panel`).
public enum DynamicElement: Hashable, Sendable, CustomStringConvertible {
    case item(String)
    case body(String)

    /// `body:NAME`, `item:ID`, or a bare item id.
    public static func parse(_ text: String) throws(SyntaxError) -> DynamicElement {
        if text.hasPrefix("body:") {
            let name = String(text.dropFirst(5))
            guard !name.isEmpty else { throw SyntaxError("'\(text)': expected body:NAME") }
            return .body(name)
        }
        if text.hasPrefix("item:") {
            let id = String(text.dropFirst(5))
            guard !id.isEmpty else { throw SyntaxError("'\(text)': expected item:ID") }
            return .item(id)
        }
        guard !text.isEmpty else { throw SyntaxError("expected an item id, item:ID or body:NAME") }
        return .item(text)
    }

    /// The protocol's ELEMENT: an item as its id string (the short form), a body as `{"body": NAME}`.
    public var wire: JSONValue {
        switch self {
        case .item(let id): return .string(id)
        case .body(let name): return .object(["body": .string(name)])
        }
    }

    /// The element an answer names, in any of the protocol's forms: `"i3"`, `{"item": "i3"}`,
    /// `{"body": "panel"}`, or a scene element `{"kind": "cell"|"body", "id": …}`.
    public init?(wire: JSONValue) {
        if let id = wire.stringValue { self = .item(id); return }
        if let name = wire["body"]?.stringValue { self = .body(name); return }
        if let id = wire["item"]?.stringValue { self = .item(id); return }
        guard let id = wire["id"]?.stringValue else { return nil }
        self = wire["kind"]?.stringValue == "body" ? .body(id) : .item(id)
    }

    /// `body:panel`, or the bare item id (`item:ID` when the id would read as a body).
    public var description: String {
        switch self {
        case .item(let id): return id.hasPrefix("body:") || id.hasPrefix("item:") ? "item:" + id : id
        case .body(let name): return "body:" + name
        }
    }
}
