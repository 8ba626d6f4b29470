/// A section's items, in order: a random-access collection stored as chunks of at most
/// `chunkCapacity` items each, with copy-on-write per chunk.
///
/// A batch keeps the old data alive for its animation, so the new data is a copy; with one flat
/// array, one insert into a million items copied (and later freed) the million. Here an insert,
/// remove or replace copies only the chunk it touches plus the list of chunks, and every other
/// chunk stays shared with the old data. Equality and hashing are by the items, whatever the
/// chunking.
public struct ItemList: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
    public typealias Index = Int
    public typealias Element = Item

    /// How many items a chunk holds at most when none is given: large enough that a million items
    /// are a few hundred chunks, small enough that copying one chunk costs microseconds, and a
    /// chunk's columns stay under glibc's 128 KiB mmap threshold. At 2048 items of 64 B (chunks
    /// were arrays of `Item` then) they did not: every chunk was a mapping of its own, a copy cost
    /// an mmap and its page faults, and a pass over a million items read 2–3× slower than one
    /// flat array (1920 reads as fast). The identifier column of 1920 is 30 KiB.
    public static let defaultChunkCapacity = 1920

    @usableFromInline var chunks: [ItemChunk] = []
    /// `ends[k]` is the index just past chunk `k`'s last item.
    @usableFromInline var ends: [Int] = []
    /// The most items a chunk holds; a chunk that grows past it is split in two.
    let chunkCapacity: Int
    /// How many items have a non-nil `size`.
    public private(set) var sizedCount = 0

    public init() { chunkCapacity = Self.defaultChunkCapacity }

    /// An empty list whose chunks hold at most `chunkCapacity` items (tests use small ones).
    init(chunkCapacity: Int) {
        precondition(chunkCapacity >= 2, "a chunk must hold at least two items")
        self.chunkCapacity = chunkCapacity
    }

    public init<S: Sequence<Item>>(_ items: S) {
        self.init()
        append(contentsOf: items)
    }

    init<S: Sequence<Item>>(_ items: S, chunkCapacity: Int) {
        self.init(chunkCapacity: chunkCapacity)
        append(contentsOf: items)
    }

    public init(arrayLiteral items: Item...) { self.init(items) }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { ends.last ?? 0 }
    @inlinable public var count: Int { ends.last ?? 0 }
    @inlinable public var isEmpty: Bool { ends.isEmpty }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }

    public subscript(position: Int) -> Item {
        get {
            precondition(position >= 0 && position < count, "item index \(position) out of range 0..<\(count)")
            let (k, offset) = locate(position)
            return chunks[k][offset]
        }
        set { replace(at: position, with: newValue) }
    }

    // Single fields of one item, read from its chunk's columns in place: building the whole
    // `Item` (its reuse identifier retained, its payload sliced) to read one of them was most of
    // what a carousel's frame spent on its items.

    /// Item `position`'s identifier and payload.
    public func idAndPayload(at position: Int) -> (id: ItemID, data: ItemPayload?) {
        let (k, offset) = checkedLocate(position)
        return chunks[k].idAndPayload(at: offset)
    }

    /// Item `position`'s identifier.
    public func id(at position: Int) -> ItemID {
        let (k, offset) = checkedLocate(position)
        return chunks[k].ids[offset]
    }

    /// Item `position`'s own size, if it has one.
    public func size(at position: Int) -> Size? {
        let (k, offset) = checkedLocate(position)
        return chunks[k].size(at: offset)
    }

    /// Item `position`'s reuse identifier.
    public func reuseIdentifier(at position: Int) -> String {
        let (k, offset) = checkedLocate(position)
        return chunks[k].reuseIdentifier(at: offset)
    }

    private func checkedLocate(_ position: Int) -> (chunk: Int, offset: Int) {
        precondition(position >= 0 && position < count, "item index \(position) out of range 0..<\(count)")
        return locate(position)
    }

    /// The chunk holding `position` and the position's offset in it (a binary search of `ends`).
    @inlinable func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        var lo = 0, hi = ends.count - 1
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ends[mid] > position { hi = mid } else { lo = mid + 1 }
        }
        return (lo, position - (lo == 0 ? 0 : ends[lo - 1]))
    }

    // MARK: Reading chunk by chunk

    /// Calls `body` with each chunk's identifiers in order and the index of the chunk's first
    /// item: the way hot loops read every identifier without a search per index or building items.
    @inlinable
    public func forEachChunk<E: Error>(_ body: (_ start: Int, _ ids: UnsafeBufferPointer<ItemID>) throws(E) -> Void) throws(E) {
        var start = 0
        for k in chunks.indices {
            let result: Result<Void, E> = chunks[k].ids.withUnsafeBufferPointer { buffer in
                do throws(E) { try body(start, buffer); return .success(()) } catch { return .failure(error) }
            }
            try result.get()
            start = ends[k]
        }
    }

    /// How many chunks hold the items.
    var chunkCount: Int { chunks.count }

    /// Like `forEachChunk`, for the chunks that might hold an identifier whose `ItemIDDigest` is
    /// in `digests` only: each chunk's filter rules it out in a few bit tests, so a few arriving
    /// identifiers are compared with a few chunks' items instead of with every item.
    func forEachChunk(mightHoldAnyOf digests: [UInt64], _ body: (_ start: Int, _ ids: UnsafeBufferPointer<ItemID>) -> Void) {
        for k in chunks.indices where chunks[k].mightHold(anyOf: digests) {
            chunks[k].ids.withUnsafeBufferPointer { body(k == 0 ? 0 : ends[k - 1], $0) }
        }
    }

    /// The index of chunk `k`'s first item.
    func chunkStart(_ k: Int) -> Int { k == 0 ? 0 : ends[k - 1] }

    /// The chunks whose filter lets one of `ids` through (tests check the filter with it).
    func chunkIndices(mightHoldAnyOf ids: [ItemID]) -> [Int] {
        let digests = ids.map(ItemIDDigest.of)
        return chunks.indices.filter { chunks[$0].mightHold(anyOf: digests) }
    }

    public struct Iterator: IteratorProtocol {
        @usableFromInline let chunks: [ItemChunk]
        @usableFromInline var chunk = 0, offset = 0
        /// The current chunk, held so each step reads it instead of copying it (and retaining
        /// its columns) again.
        @usableFromInline var current: ItemChunk?

        @inlinable init(_ chunks: [ItemChunk]) {
            self.chunks = chunks
            current = chunks.first
        }

        @inlinable public mutating func next() -> Item? {
            guard current != nil else { return nil }
            while offset == current!.count {
                chunk += 1
                guard chunk < chunks.count else { current = nil; return nil }
                current = chunks[chunk]
                offset = 0
            }
            defer { offset += 1 }
            return current![offset]
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(chunks) }

    /// The items transformed in order, read chunk by chunk (the collection's default reads each
    /// index through a search).
    @inlinable
    public func map<T, E: Error>(_ transform: (Item) throws(E) -> T) throws(E) -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for chunk in chunks {
            for offset in 0..<chunk.count { result.append(try transform(chunk[offset])) }
        }
        return result
    }

    /// Whether item `position` shows the same as `other`'s item `otherPosition`: same size, reuse
    /// identifier and payload (identifiers are not compared), read in place from both chunks'
    /// columns without building either item.
    public func sameContent(at position: Int, as other: ItemList, at otherPosition: Int) -> Bool {
        precondition(position >= 0 && position < count, "item index \(position) out of range 0..<\(count)")
        precondition(otherPosition >= 0 && otherPosition < other.count,
                     "item index \(otherPosition) out of range 0..<\(other.count)")
        let (k, offset) = locate(position), (l, otherOffset) = other.locate(otherPosition)
        return chunks[k].sameContent(at: offset, as: other.chunks[l], at: otherOffset)
    }

    /// Whether no item has a size, a reuse identifier other than the default or a payload, so
    /// any two of its items show the same (O(chunks)).
    public var holdsOnlyPlainItems: Bool { chunks.allSatisfy(\.holdsOnlyPlainItems) }

    /// Reads items at ascending indices (repeats allowed) in O(1) each: a loop that walks the
    /// items in order without a search per index.
    struct Cursor {
        private let list: ItemList
        private var start = 0, end = 0
        /// The current chunk, and its size column held apart so a size is one array read: read
        /// through the chunk's class storage, each item paid a dynamic exclusivity check.
        private var current: ItemChunk?
        private var sizes: [Size?] = []

        init(_ list: ItemList) { self.list = list }

        @inline(__always)
        private mutating func move(to position: Int) {
            guard position < start || position >= end else { return }
            let chunk = list.locate(position).chunk
            start = chunk == 0 ? 0 : list.ends[chunk - 1]
            end = list.ends[chunk]
            current = list.chunks[chunk]
            sizes = current!.sizes
        }

        @inline(__always)
        mutating func size(at position: Int) -> Size? {
            move(to: position)
            return sizes.isEmpty ? nil : sizes[position - start]
        }

        /// `ItemList.sameContent(at:as:at:)` with this list's item found by the cursor.
        @inline(__always)
        mutating func sameContent(at position: Int, as other: ItemList, at otherPosition: Int) -> Bool {
            move(to: position)
            let (l, otherOffset) = other.locate(otherPosition)
            return current!.sameContent(at: position - start, as: other.chunks[l], at: otherOffset)
        }
    }

    // MARK: Editing

    public mutating func append(_ item: Item) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= chunkCapacity {
            // A list that already filled a chunk is likely to fill the next one too; a small
            // section's only chunk grows as needed instead.
            chunks.append(ItemChunk(reserving: chunks.isEmpty ? 0 : chunkCapacity))
            ends.append(count)
        }
        chunks[chunks.count - 1].append(item)
        ends[ends.count - 1] += 1
        if item.size != nil { sizedCount += 1 }
    }

    public mutating func append<S: Sequence<Item>>(contentsOf items: S) {
        for item in items { append(item) }
    }

    /// Appends `other[range]`. A chunk of `other` that the range covers whole and that is at
    /// least half full is shared, not copied: a batch's new section built from runs of the old
    /// one then copies only the chunks where the runs start and end.
    public mutating func append(contentsOf other: ItemList, range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= other.count, "range \(range) out of 0..<\(other.count)")
        guard !range.isEmpty else { return }
        var (k, offset) = other.locate(range.lowerBound)
        // Growing the chunk list one append at a time reallocated it a dozen times per batch.
        let sourceChunks = other.locate(range.upperBound - 1).chunk - k + 1
        let needed = chunks.count + sourceChunks + 1
        if chunks.capacity < needed {
            // Geometric, as appends grow: a batch of many runs reserves once per doubling.
            chunks.reserveCapacity(Swift.max(needed, 2 * chunks.capacity))
            ends.reserveCapacity(Swift.max(needed, 2 * chunks.capacity))
        }
        var remaining = range.count
        while remaining > 0 {
            let chunk = other.chunks[k]
            let take = Swift.min(chunk.count - offset, remaining)
            // A small last chunk takes the next one in when both fit: small chunks left where
            // runs ended do not pile up batch after batch.
            let tail = chunks.last?.count ?? chunkCapacity
            let absorbs = tail * 2 < chunkCapacity && tail + take <= chunkCapacity
            if offset == 0 && take == chunk.count && take * 2 >= chunkCapacity && take <= chunkCapacity && !absorbs {
                chunks.append(chunk)
                ends.append(count + take)
                sizedCount += chunk.sizedCount
            } else {
                appendInBulk(chunk, offset..<offset + take)
            }
            remaining -= take
            k += 1
            offset = 0
        }
    }

    /// Appends `source`'s items `run` to the last chunk while it has room, then to new chunks.
    private mutating func appendInBulk(_ source: ItemChunk, _ run: Range<Int>) {
        var from = run.lowerBound
        while from < run.upperBound {
            if chunks.isEmpty || chunks[chunks.count - 1].count >= chunkCapacity {
                chunks.append(ItemChunk(reserving: chunks.isEmpty ? 0 : chunkCapacity))
                ends.append(count)
            }
            let last = chunks.count - 1
            let n = Swift.min(chunkCapacity - chunks[last].count, run.upperBound - from)
            let sizedBefore = chunks[last].sizedCount
            chunks[last].append(contentsOf: source, range: from..<from + n)
            sizedCount += chunks[last].sizedCount - sizedBefore
            ends[last] += n
            from += n
        }
    }

    public mutating func insert(_ item: Item, at position: Int) {
        precondition(position >= 0 && position <= count, "insert index \(position) out of range 0...\(count)")
        if position == count { append(item); return }
        let (k, offset) = locate(position)
        chunks[k].insert(item, at: offset)
        for j in k..<ends.count { ends[j] += 1 }
        if item.size != nil { sizedCount += 1 }
        if chunks[k].count > chunkCapacity { split(k) }
    }

    @discardableResult
    public mutating func remove(at position: Int) -> Item {
        precondition(position >= 0 && position < count, "remove index \(position) out of range 0..<\(count)")
        let (k, offset) = locate(position)
        let item = chunks[k].remove(at: offset)
        for j in k..<ends.count { ends[j] -= 1 }
        if item.size != nil { sizedCount -= 1 }
        if chunks[k].isEmpty {
            chunks.remove(at: k)
            ends.remove(at: k)
        } else if chunks[k].count < chunkCapacity / 4 {
            mergeIfSmall(k)
        }
        return item
    }

    public mutating func replace(at position: Int, with item: Item) {
        precondition(position >= 0 && position < count, "item index \(position) out of range 0..<\(count)")
        let (k, offset) = locate(position)
        let old = chunks[k].replace(at: offset, with: item)
        sizedCount += (item.size == nil ? 0 : 1) - (old.size == nil ? 0 : 1)
    }

    private mutating func split(_ k: Int) {
        let whole = chunks[k]
        let half = whole.count / 2
        chunks[k] = ItemChunk(whole, range: 0..<half)
        chunks.insert(ItemChunk(whole, range: half..<whole.count), at: k + 1)
        ends.insert(ends[k], at: k + 1)
        ends[k] -= whole.count - half
    }

    /// Joins a chunk that shrank below a quarter with a neighbour when both fit in one, so many
    /// removals cannot leave a list of nearly empty chunks.
    private mutating func mergeIfSmall(_ k: Int) {
        let neighbour: Int
        if k + 1 < chunks.count && chunks[k].count + chunks[k + 1].count <= chunkCapacity {
            neighbour = k + 1
        } else if k > 0 && chunks[k - 1].count + chunks[k].count <= chunkCapacity {
            neighbour = k - 1
        } else {
            return
        }
        let first = Swift.min(k, neighbour)
        var merged = ItemChunk(chunks[first], range: 0..<chunks[first].count)
        merged.append(contentsOf: chunks[first + 1], range: 0..<chunks[first + 1].count)
        chunks[first] = merged
        chunks.remove(at: first + 1)
        ends.remove(at: first)
    }

    // MARK: Value semantics

    public static func == (a: ItemList, b: ItemList) -> Bool {
        guard a.count == b.count else { return false }
        if a.ends == b.ends {
            // Same chunking: whole chunks compare (and shared ones match by identity first).
            for k in a.chunks.indices where !a.chunks[k].holdsSameItems(as: b.chunks[k]) { return false }
            return true
        }
        var x = a.makeIterator(), y = b.makeIterator()
        while let p = x.next() { if p != y.next() { return false } }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for chunk in chunks { for offset in 0..<chunk.count { hasher.combine(chunk[offset]) } }
    }

    /// How many of this list's chunks share their storage with one of `other`'s: the test hook
    /// that shows a small edit of a copy left the rest of the items shared.
    func sharedChunkCount(with other: ItemList) -> Int {
        var theirs = Set<UnsafeRawPointer>()
        for chunk in other.chunks { if let p = chunk.storageAddress { theirs.insert(p) } }
        return chunks.reduce(0) { $0 + ($1.storageAddress.map(theirs.contains) == true ? 1 : 0) }
    }

    /// The chunk sizes, in order (tests check the split and merge rules with it).
    var chunkCounts: [Int] { chunks.map(\.count) }
}
