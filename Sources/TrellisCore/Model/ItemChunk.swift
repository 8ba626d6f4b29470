/// One chunk of an `ItemList`: a contiguous run of items, copied as a whole when a shared chunk
/// is edited, and a filter of its identifiers, so a check of a few arriving identifiers can skip
/// it without reading its items.
///
/// The items are stored as columns, not as an array of `Item`: identifiers; sizes only once some
/// item has one; reuse identifiers as indices into the chunk's own table of names, only once
/// some item's differs from the default; payloads packed into one byte buffer with an end
/// offset per item, only once some item has one. A million generated items (an id and a short
/// label payload) held 151 B each as an array of 64-byte `Item`s, each with its payload in a
/// heap array of its own; as columns the server holds 48–50 B per item (`tools/bench scale`).
/// An `Item` is built on access, its payload a slice of the chunk's buffer (no copy).
@usableFromInline
struct ItemChunk: Sendable {
    /// One reference for all the columns: a list of chunks is copied (a batch copies its
    /// section's) with one retain per chunk, where a struct of eight arrays took eight, and
    /// retains and releases were a quarter of one insert into a million items.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        // Unchecked: written only through `ItemChunk`'s mutating methods, after they made it
        // unique (copy-on-write), so no two values ever share a storage that changes.
        var columns: ItemChunkColumns
        init(_ columns: ItemChunkColumns) { self.columns = columns }
    }

    @usableFromInline var storage: Storage

    init(reserving capacity: Int) { storage = Storage(ItemChunkColumns(reserving: capacity)) }

    init<C: Collection<Item>>(_ items: C) { storage = Storage(ItemChunkColumns(items)) }

    /// Items `range` of `chunk`, in a chunk of their own.
    init(_ chunk: ItemChunk, range: Range<Int>) { storage = Storage(ItemChunkColumns(chunk.storage.columns, range: range)) }

    @usableFromInline var ids: [ItemID] { storage.columns.ids }
    @usableFromInline var count: Int { storage.columns.count }
    var isEmpty: Bool { storage.columns.isEmpty }
    var sizedCount: Int { storage.columns.sizedCount }
    @usableFromInline subscript(offset: Int) -> Item { storage.columns[offset] }
    /// Item `offset`'s identifier and payload, without building the item (its reuse identifier
    /// and size): what a scene shows of a cell, read every frame for every view.
    @usableFromInline func idAndPayload(at offset: Int) -> (id: ItemID, data: ItemPayload?) {
        (storage.columns.ids[offset], storage.columns.payload(at: offset))
    }
    /// Item `offset`'s reuse identifier, read in place.
    @usableFromInline func reuseIdentifier(at offset: Int) -> String { storage.columns.reuseIdentifier(at: offset) }
    @usableFromInline func size(at offset: Int) -> Size? { storage.columns.size(at: offset) }
    /// Every item's size, or empty while no item has one: read whole by loops over the chunk.
    var sizes: [Size?] { storage.columns.sizes }
    /// Whether no item has a size, a reuse identifier other than the default or a payload.
    var holdsOnlyPlainItems: Bool { storage.columns.holdsOnlyPlainItems }
    /// Whether item `offset` shows the same as `other`'s item `otherOffset` (identifiers aside).
    func sameContent(at offset: Int, as other: ItemChunk, at otherOffset: Int) -> Bool {
        storage.columns.sameContent(at: offset, as: other.storage.columns, at: otherOffset)
    }
    func mightHold(anyOf digests: [UInt64]) -> Bool { storage.columns.mightHold(anyOf: digests) }
    func holdsSameItems(as other: ItemChunk) -> Bool {
        storage === other.storage || storage.columns.holdsSameItems(as: other.storage.columns)
    }
    var storageAddress: UnsafeRawPointer? { storage.columns.storageAddress }

    /// The storage, copied first when another chunk shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.columns) }
        return storage
    }

    mutating func append(_ item: Item) { unique().columns.append(item) }
    mutating func append(contentsOf chunk: ItemChunk, range: Range<Int>) {
        unique().columns.append(contentsOf: chunk.storage.columns, range: range)
    }
    mutating func insert(_ item: Item, at offset: Int) { unique().columns.insert(item, at: offset) }
    @discardableResult
    mutating func remove(at offset: Int) -> Item { unique().columns.remove(at: offset) }
    @discardableResult
    mutating func replace(at offset: Int, with item: Item) -> Item { unique().columns.replace(at: offset, with: item) }
}

/// The columns themselves, edited in place by `ItemChunk` once it holds them alone.
struct ItemChunkColumns: Sendable {
    private(set) var ids: [ItemID] = []
    /// Empty while no item has a size of its own.
    private(set) var sizes: [Size?] = []
    private(set) var sizedCount = 0
    /// Indices into `reuseNames`; empty while every item has the default reuse identifier.
    private var reuse: [UInt16] = []
    private var reuseNames: [String] = []
    /// Each item's payload ends at `payloadEnds[i] & offsetMask` in `payloadBytes` (and starts
    /// where the one before ended); `absentFlag` set: the item has none. Both empty while no
    /// item has a payload. 64-bit ends: with a raised message limit, a client could otherwise
    /// pack more than 4 GiB into one chunk, batch after batch (32 bits cost 4 B less per item).
    private var payloadBytes: [UInt8] = []
    private var payloadEnds: [UInt64] = []
    private static let absentFlag: UInt64 = 1 << 63
    private static let offsetMask: UInt64 = ~absentFlag

    private(set) var filter: ItemChunkFilter
    /// Identifiers the filter was sized for, and how many it took since it was built (removed
    /// items leave theirs behind, so a chunk edited for long rebuilds it now and then).
    private var filterCapacity: Int
    private var filterLoad = 0

    init(reserving capacity: Int) {
        ids.reserveCapacity(capacity)
        filterCapacity = Swift.max(capacity, 4)
        filter = ItemChunkFilter(capacity: filterCapacity)
    }

    init<C: Collection<Item>>(_ items: C) {
        self.init(reserving: items.count)
        for item in items { append(item) }
    }

    /// Items `range` of `chunk`, in a chunk of their own.
    init(_ chunk: ItemChunkColumns, range: Range<Int>) {
        self.init(reserving: range.count)
        append(contentsOf: chunk, range: range)
    }

    var count: Int { ids.count }
    @inline(__always) var isEmpty: Bool { ids.isEmpty }

    // Inlined into `ItemChunk`'s subscript, so it reads the four columns in place in the
    // class storage: called, it copied the whole struct (a retain per column) for every item.
    @inline(__always)
    subscript(offset: Int) -> Item {
        Item(id: ids[offset], size: size(at: offset), reuseIdentifier: reuseIdentifier(at: offset), data: payload(at: offset))
    }

    @inline(__always)
    func size(at offset: Int) -> Size? { sizes.isEmpty ? nil : sizes[offset] }

    @inline(__always)
    func reuseIdentifier(at offset: Int) -> String { reuse.isEmpty ? Item.defaultReuseIdentifier : reuseNames[Int(reuse[offset])] }

    @inline(__always)
    func payload(at offset: Int) -> ItemPayload? {
        guard !payloadEnds.isEmpty else { return nil }
        let end = payloadEnds[offset]
        guard end & Self.absentFlag == 0 else { return nil }
        return ItemPayload(bytes: payloadBytes[Int(payloadStart(offset))..<Int(end)])
    }

    @inline(__always)
    var holdsOnlyPlainItems: Bool { sizes.isEmpty && reuse.isEmpty && payloadEnds.isEmpty }

    /// Whether item `offset` and `other`'s item `otherOffset` have the same size, reuse identifier
    /// and payload, read from the columns in place: no `Item` is built and no payload retained.
    /// Inlined into `ItemChunk`'s, so it reads both chunks' class storage in place (called out of
    /// line, a method on `storage.columns` works on a copy of the whole struct).
    @inline(__always)
    func sameContent(at offset: Int, as other: ItemChunkColumns, at otherOffset: Int) -> Bool {
        guard size(at: offset) == other.size(at: otherOffset) else { return false }
        if !reuse.isEmpty || !other.reuse.isEmpty {
            guard reuseIdentifier(at: offset) == other.reuseIdentifier(at: otherOffset) else { return false }
        }
        if payloadEnds.isEmpty && other.payloadEnds.isEmpty { return true }
        let end = payloadEnds.isEmpty ? Self.absentFlag : payloadEnds[offset]
        let otherEnd = other.payloadEnds.isEmpty ? Self.absentFlag : other.payloadEnds[otherOffset]
        if end & Self.absentFlag != 0 || otherEnd & Self.absentFlag != 0 {
            return end & Self.absentFlag != 0 && otherEnd & Self.absentFlag != 0
        }
        let from = Int(payloadStart(offset)), to = Int(end & Self.offsetMask)
        let otherFrom = Int(other.payloadStart(otherOffset)), otherTo = Int(otherEnd & Self.offsetMask)
        return to - from == otherTo - otherFrom && payloadBytes[from..<to] == other.payloadBytes[otherFrom..<otherTo]
    }

    @inline(__always)
    private func payloadStart(_ offset: Int) -> UInt64 { offset == 0 ? 0 : payloadEnds[offset - 1] & Self.offsetMask }

    // MARK: Editing

    mutating func append(_ item: Item) {
        insert(item, at: count)
    }

    /// Appends `chunk`'s items `range` column by column (a batch rebuilding a section copies most
    /// items this way).
    mutating func append(contentsOf chunk: ItemChunkColumns, range: Range<Int>) {
        guard !range.isEmpty else { return }
        let before = count
        ids.append(contentsOf: chunk.ids[range])
        if !chunk.sizes.isEmpty {
            let run = chunk.sizes[range]
            let sized = run.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
            if sized > 0 {
                if sizes.isEmpty { sizes = [Size?](repeating: nil, count: before) }
                sizes.append(contentsOf: run)
                sizedCount += sized
            }
        }
        if !sizes.isEmpty && sizes.count < count { sizes.append(contentsOf: repeatElement(nil, count: count - sizes.count)) }
        if !chunk.reuse.isEmpty || !reuse.isEmpty {
            for offset in range { appendReuse(chunk.reuseIdentifier(at: offset), at: before + offset - range.lowerBound) }
        }
        if !chunk.payloadEnds.isEmpty {
            materializePayloads(upTo: before)
            let from = Int(chunk.payloadStart(range.lowerBound)), to = Int(chunk.payloadEnds[range.upperBound - 1] & Self.offsetMask)
            let shift = Int64(payloadBytes.count) - Int64(from)
            payloadBytes.append(contentsOf: chunk.payloadBytes[from..<to])
            for end in chunk.payloadEnds[range] {
                payloadEnds.append(UInt64(Int64(end & Self.offsetMask) + shift) | (end & Self.absentFlag))
            }
        } else if !payloadEnds.isEmpty {
            let end = payloadEnds.last! & Self.offsetMask | Self.absentFlag
            payloadEnds.append(contentsOf: repeatElement(end, count: range.count))
        }
        if filterLoad + range.count > filterCapacity {
            rebuildFilter()
        } else {
            for id in chunk.ids[range] { filter.insert(digest: ItemIDDigest.of(id)) }
            filterLoad += range.count
        }
    }

    mutating func insert(_ item: Item, at offset: Int) {
        ids.insert(item.id, at: offset)
        if let size = item.size {
            if sizes.isEmpty { sizes = [Size?](repeating: nil, count: count - 1) }
            sizes.insert(size, at: offset)
            sizedCount += 1
        } else if !sizes.isEmpty {
            sizes.insert(nil, at: offset)
        }
        if item.reuseIdentifier != Item.defaultReuseIdentifier || !reuse.isEmpty {
            if reuse.isEmpty { reuse = [UInt16](repeating: nameIndex(Item.defaultReuseIdentifier), count: count - 1) }
            reuse.insert(nameIndex(item.reuseIdentifier), at: offset)
        }
        if let data = item.data {
            materializePayloads(upTo: count - 1)
            insertPayload(data.bytes, at: offset)
        } else if !payloadEnds.isEmpty {
            insertPayload(nil, at: offset)
        }
        note(item.id)
    }

    @discardableResult
    mutating func remove(at offset: Int) -> Item {
        let item = self[offset]
        ids.remove(at: offset)
        if !sizes.isEmpty {
            sizes.remove(at: offset)
            if item.size != nil { sizedCount -= 1 }
            if sizedCount == 0 { sizes = [] }
        }
        if !reuse.isEmpty { reuse.remove(at: offset) }
        if !payloadEnds.isEmpty { removePayload(at: offset) }
        return item
    }

    @discardableResult
    mutating func replace(at offset: Int, with item: Item) -> Item {
        let old = remove(at: offset)
        insert(item, at: offset)
        return old
    }

    /// The reuse column grown to `offset` with `name` there.
    private mutating func appendReuse(_ name: String, at offset: Int) {
        if reuse.isEmpty {
            guard name != Item.defaultReuseIdentifier else { return }
            reuse = [UInt16](repeating: nameIndex(Item.defaultReuseIdentifier), count: offset)
        }
        reuse.append(nameIndex(name))
    }

    /// `name`'s index in the chunk's table, added when new. A chunk holds at most a few thousand
    /// items, so the table stays far below 65,536 names; names of removed items stay until the
    /// chunk is rebuilt (split, merged or copied).
    private mutating func nameIndex(_ name: String) -> UInt16 {
        if let k = reuseNames.firstIndex(of: name) { return UInt16(k) }
        // Edits in place (replacing items again and again) could otherwise fill the table.
        if reuseNames.count >= 2 * count + 16 { compactReuseNames() }
        precondition(reuseNames.count < Int(UInt16.max), "a chunk holds too many reuse identifiers")
        reuseNames.append(name)
        return UInt16(reuseNames.count - 1)
    }

    /// The table of reuse names down to the names some item has.
    private mutating func compactReuseNames() {
        var names: [String] = [], map = [UInt16?](repeating: nil, count: reuseNames.count)
        for k in reuse.indices {
            let old = Int(reuse[k])
            if map[old] == nil { map[old] = UInt16(names.count); names.append(reuseNames[old]) }
            reuse[k] = map[old]!
        }
        reuseNames = names
    }

    /// The payload columns made explicit for the first `n` items (none of which has a payload).
    private mutating func materializePayloads(upTo n: Int) {
        guard payloadEnds.isEmpty, n > 0 else { return }
        payloadEnds = [UInt64](repeating: Self.absentFlag, count: n)
    }

    private mutating func insertPayload(_ bytes: ArraySlice<UInt8>?, at offset: Int) {
        let start = payloadStart(offset)
        let length = UInt64(bytes?.count ?? 0)
        if let bytes { payloadBytes.insert(contentsOf: bytes, at: Int(start)) }
        payloadEnds.insert((start + length) | (bytes == nil ? Self.absentFlag : 0), at: offset)
        if length > 0 { for j in (offset + 1)..<payloadEnds.count { payloadEnds[j] += length } }
    }

    private mutating func removePayload(at offset: Int) {
        let start = payloadStart(offset), end = payloadEnds[offset] & Self.offsetMask
        let length = end - start
        if length > 0 {
            payloadBytes.removeSubrange(Int(start)..<Int(end))
            for j in (offset + 1)..<payloadEnds.count { payloadEnds[j] -= length }
        }
        payloadEnds.remove(at: offset)
        if payloadBytes.isEmpty && payloadEnds.allSatisfy({ $0 & Self.absentFlag != 0 }) { payloadEnds = [] }
    }

    // MARK: Identifier filter

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
        filterCapacity = Swift.max(2 * count, 4)
        filter = ItemChunkFilter(capacity: filterCapacity)
        for id in ids { filter.insert(digest: ItemIDDigest.of(id)) }
        filterLoad = count
    }

    // MARK: Comparing

    /// Whether the two chunks hold equal items: column by column when they are stored alike,
    /// item by item when not (a table of reuse names in another order, a column one of them
    /// keeps explicit).
    func holdsSameItems(as other: ItemChunkColumns) -> Bool {
        guard ids == other.ids else { return false }
        if sizes == other.sizes && reuse == other.reuse && reuseNames == other.reuseNames
            && payloadEnds == other.payloadEnds && payloadBytes == other.payloadBytes {
            return true
        }
        for offset in ids.indices {
            guard size(at: offset) == other.size(at: offset), reuseIdentifier(at: offset) == other.reuseIdentifier(at: offset),
                  payload(at: offset) == other.payload(at: offset) else { return false }
        }
        return true
    }

    /// Where the identifiers are stored: equal for two chunks that share storage.
    var storageAddress: UnsafeRawPointer? {
        ids.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }
}
