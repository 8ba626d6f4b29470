/// What a dynamic behaviour acts on: a cell, named by its item's identifier (so it keeps its
/// dynamic state when a batch update moves its index path), or a free body, by name.
public enum DynamicElement: Hashable, Comparable, Sendable, CustomStringConvertible {
    case item(ItemID)
    case body(String)

    /// True for a cell (an item of the data), false for a free body.
    public var isItem: Bool {
        if case .item = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .item(let id): return "item '\(id.rawValue)'"
        case .body(let name): return "body '\(name)'"
        }
    }
}
