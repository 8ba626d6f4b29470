/// One section of the data: its identifier and its items, in order.
///
/// The section counts how many of its items carry their own size, so a layout can tell in
/// O(1) that every item uses the default size and skip the per-item pass.
public struct Section: Hashable, Sendable {
    public var id: SectionID
    public private(set) var items: [Item]
    /// How many items have a non-nil `size`.
    public private(set) var sizedItemCount: Int

    public init(id: SectionID, items: [Item] = []) {
        self.id = id
        self.items = items
        sizedItemCount = items.reduce(0) { $0 + ($1.size == nil ? 0 : 1) }
    }

    @inlinable public var count: Int { items.count }
    /// True when no item carries its own size.
    @inlinable public var hasUniformItems: Bool { sizedItemCount == 0 }

    public mutating func insert(_ item: Item, at index: Int) {
        items.insert(item, at: index)
        if item.size != nil { sizedItemCount += 1 }
    }

    @discardableResult
    public mutating func remove(at index: Int) -> Item {
        let item = items.remove(at: index)
        if item.size != nil { sizedItemCount -= 1 }
        return item
    }

    public mutating func replace(at index: Int, with item: Item) {
        if items[index].size != nil { sizedItemCount -= 1 }
        if item.size != nil { sizedItemCount += 1 }
        items[index] = item
    }

    public mutating func append(_ item: Item) { insert(item, at: items.count) }
}
