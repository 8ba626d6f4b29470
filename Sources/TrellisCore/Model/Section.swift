/// One section of the data: its identifier and its items, in order.
///
/// The items count how many of them carry their own size, so a layout can tell in O(1) that
/// every item uses the default size and skip the per-item pass.
public struct Section: Hashable, Sendable {
    public var id: SectionID
    public private(set) var items: ItemList
    /// How many items have a non-nil `size`.
    @inlinable public var sizedItemCount: Int { items.sizedCount }

    public init(id: SectionID, items: [Item] = []) {
        self.id = id
        self.items = ItemList(items)
    }

    public init(id: SectionID, items: ItemList) {
        self.id = id
        self.items = items
    }

    @inlinable public var count: Int { items.count }
    /// True when no item carries its own size.
    @inlinable public var hasUniformItems: Bool { sizedItemCount == 0 }

    public mutating func insert(_ item: Item, at index: Int) { items.insert(item, at: index) }

    @discardableResult
    public mutating func remove(at index: Int) -> Item { items.remove(at: index) }

    public mutating func replace(at index: Int, with item: Item) { items.replace(at: index, with: item) }

    public mutating func append(_ item: Item) { items.append(item) }
}
