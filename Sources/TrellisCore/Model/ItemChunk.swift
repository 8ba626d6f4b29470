/// One chunk of an `ItemList`: a contiguous run of items, copied as a whole when a shared chunk
/// is edited, and the count of its items that carry their own size.
@usableFromInline
struct ItemChunk: Sendable {
    @usableFromInline private(set) var items: [Item]
    private(set) var sizedCount = 0

    init(reserving capacity: Int) {
        items = []
        items.reserveCapacity(capacity)
    }

    init<C: Collection<Item>>(_ items: C) {
        self.init(reserving: items.count)
        for item in items { append(item) }
    }

    mutating func append(_ item: Item) {
        items.append(item)
        if item.size != nil { sizedCount += 1 }
    }

    mutating func insert(_ item: Item, at offset: Int) {
        items.insert(item, at: offset)
        if item.size != nil { sizedCount += 1 }
    }

    mutating func remove(at offset: Int) -> Item {
        let item = items.remove(at: offset)
        if item.size != nil { sizedCount -= 1 }
        return item
    }

    mutating func replace(at offset: Int, with item: Item) -> Item {
        let old = items[offset]
        items[offset] = item
        sizedCount += (item.size == nil ? 0 : 1) - (old.size == nil ? 0 : 1)
        return old
    }

    /// Where the items are stored: equal for two chunks that share storage.
    var storageAddress: UnsafeRawPointer? {
        items.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }
}
