import TrellisCore
import TrellisProtocol

// How the CLI writes the engine's `DynamicElement`: an item id (`i3`, or `item:i3` when the id
// itself starts with `body:` or `item:`) or a free body (`body:panel`).
extension DynamicElement {
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
            return .item(ItemID(id))
        }
        guard !text.isEmpty else { throw SyntaxError("expected an item id, item:ID or body:NAME") }
        return .item(ItemID(text))
    }

    /// The CLI's word for it, which `parse` reads back: `body:panel`, or the bare item id
    /// (`item:ID` when the id would read as a body).
    public var argument: String {
        switch self {
        case .item(let id): return id.rawValue.hasPrefix("body:") || id.rawValue.hasPrefix("item:") ? "item:" + id.rawValue : id.rawValue
        case .body(let name): return "body:" + name
        }
    }
}
