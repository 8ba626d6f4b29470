/// One chunk of an `ItemList`: a contiguous run of items, copied as a whole when a shared chunk
/// is edited; the count of its items that carry their own size; and a filter of its identifiers,
/// so a check of a few arriving identifiers can skip it without reading its items.
@usableFromInline
struct ItemChunk: Sendable {
    @usableFromInline private(set) var items: [Item]
    private(set) var sizedCount = 0
    private(set) var filter: ItemChunkFilter
    /// Identifiers the filter was sized for, and how many it took since it was built (removed
    /// items leave theirs behind, so a chunk edited for long rebuilds it now and then).
    private var filterCapacity: Int
    private var filterLoad = 0

    init(reserving capacity: Int) {
        items = []
        items.reserveCapacity(capacity)
        filterCapacity = Swift.max(capacity, 4)
        filter = ItemChunkFilter(capacity: filterCapacity)
    }

    init<C: Collection<Item>>(_ items: C) {
        self.init(reserving: items.count)
        for item in items { append(item) }
    }

    mutating func append(_ item: Item) {
        items.append(item)
        if item.size != nil { sizedCount += 1 }
        note(item.id)
    }

    /// Appends a run of another chunk's items in bulk (a batch rebuilding a section copies most
    /// items this way).
    mutating func append(contentsOf run: ArraySlice<Item>) {
        items.append(contentsOf: run)
        for item in run where item.size != nil { sizedCount += 1 }
        if filterLoad + run.count > filterCapacity {
            rebuildFilter()
        } else {
            for item in run { filter.insert(digest: ItemIDDigest.of(item.id)) }
            filterLoad += run.count
        }
    }

    mutating func insert(_ item: Item, at offset: Int) {
        items.insert(item, at: offset)
        if item.size != nil { sizedCount += 1 }
        note(item.id)
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
        if item.id != old.id { note(item.id) }
        return old
    }

    /// Whether the chunk might hold an identifier with one of `digests` (no false negatives).
    @inline(__always)
    func mightHold(anyOf digests: [UInt64]) -> Bool {
        digests.contains(where: filter.mightContain(digest:))
    }

    private mutating func note(_ id: ItemID) {
        if filterLoad >= filterCapacity {
            rebuildFilter()
        } else {
            filter.insert(digest: ItemIDDigest.of(id))
            filterLoad += 1
        }
    }

    /// Sized for twice the items now held: growing or stale, the filter is rebuilt in O(items)
    /// once per that many insertions.
    private mutating func rebuildFilter() {
        filterCapacity = Swift.max(2 * items.count, 4)
        filter = ItemChunkFilter(capacity: filterCapacity)
        for item in items { filter.insert(digest: ItemIDDigest.of(item.id)) }
        filterLoad = items.count
    }

    /// Where the items are stored: equal for two chunks that share storage.
    var storageAddress: UnsafeRawPointer? {
        items.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }
}
