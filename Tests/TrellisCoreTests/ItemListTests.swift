import Testing
@testable import TrellisCore

/// `ItemList` against the array it replaced: same items, same order, value semantics, whatever
/// the chunking; edits of a copy leave the other chunks shared.
@Suite struct ItemListTests {
    static func item(_ n: Int, sized: Bool = false) -> Item {
        Item(id: ItemID("i\(n)"), size: sized ? Size(Double(n % 7 + 1), 3) : nil)
    }

    /// An item with some of everything a chunk stores in columns of its own: a size, a reuse
    /// identifier other than the default, a payload of varying length (empty ones too).
    static func richItem(_ n: Int, sized: Bool) -> Item {
        let reuse = n % 3 == 0 ? "header-\(n % 4)" : Item.defaultReuseIdentifier
        let data: ItemPayload? = n % 4 == 0 ? nil : ItemPayload(bytes: Array("{\"n\":\(n)}".utf8.prefix(n % 11)))
        return Item(id: ItemID("i\(n)"), size: sized ? Size(Double(n % 7 + 1), 3) : nil, reuseIdentifier: reuse, data: data)
    }

    static func list(_ range: Range<Int>, capacity: Int) -> ItemList {
        ItemList(range.map { item($0) }, chunkCapacity: capacity)
    }

    /// The single-field reads (what scenes and layouts use every frame) give what the whole item
    /// gives, in every chunk, for items with and without sizes, reuse identifiers and payloads.
    @Test func singleFieldReadsAgreeWithTheWholeItem() {
        var list = ItemList((0..<40).map { Self.richItem($0, sized: $0 % 5 != 0) }, chunkCapacity: 6)
        list.insert(Self.richItem(99, sized: false), at: 7)
        list.remove(at: 20)
        for i in list.indices {
            let whole = list[i]
            #expect(list.id(at: i) == whole.id)
            #expect(list.size(at: i) == whole.size)
            #expect(list.reuseIdentifier(at: i) == whole.reuseIdentifier)
            #expect(list.idAndPayload(at: i).id == whole.id && list.idAndPayload(at: i).data == whole.data)
        }
        let data = try! CollectionData(sections: [Section(id: SectionID("a"), items: list)])
        let path = IndexPath(0, 9)
        #expect(data.size(at: path) == data[path].size && data.reuseIdentifier(at: path) == data[path].reuseIdentifier)
    }

    @Test func appendingFillsChunksToCapacity() {
        let list = Self.list(0..<10, capacity: 4)
        #expect(list.chunkCounts == [4, 4, 2])
        #expect(Array(list) == (0..<10).map { Self.item($0) })
        #expect(list.map(\.id) == (0..<10).map { ItemID("i\($0)") })
        for i in 0..<10 { #expect(list[i] == Self.item(i)) }
    }

    @Test func insertIntoAFullChunkSplitsIt() {
        var list = Self.list(0..<8, capacity: 4)
        list.insert(Self.item(100), at: 4)   // the first index of the second chunk
        list.insert(Self.item(101), at: 4)   // again: the last index of the first chunk
        #expect(list.chunkCounts.allSatisfy { $0 <= 4 })
        var expected = (0..<8).map { Self.item($0) }
        expected.insert(Self.item(100), at: 4)
        expected.insert(Self.item(101), at: 4)
        #expect(Array(list) == expected)
        list.insert(Self.item(102), at: list.count)   // at the end
        expected.append(Self.item(102))
        #expect(Array(list) == expected)
    }

    @Test func removingAChunksLastItemsDropsOrMergesIt() {
        var list = Self.list(0..<12, capacity: 4)
        for _ in 0..<4 { list.remove(at: 4) }   // empties the middle chunk
        #expect(list.chunkCounts == [4, 4])
        #expect(Array(list) == (0..<4).map { Self.item($0) } + (8..<12).map { Self.item($0) })
    }

    @Test func aChunkBelowAQuarterMergesWithANeighbourThatHasRoom() {
        var list = Self.list(0..<24, capacity: 8)
        for _ in 0..<4 { list.remove(at: 16) }   // [8, 8, 4]
        #expect(list.chunkCounts == [8, 8, 4])
        for _ in 0..<6 { list.remove(at: 8) }    // the middle holds 2: a quarter, kept
        #expect(list.chunkCounts == [8, 2, 4])
        list.remove(at: 8)                        // 1 left: joins the last chunk (5 ≤ 8)
        #expect(list.chunkCounts == [8, 5])
        #expect(Array(list) == (0..<8).map { Self.item($0) } + [Self.item(15)] + (20..<24).map { Self.item($0) })
    }

    @Test func sizedItemsAreCountedThroughEveryEdit() {
        var list = ItemList((0..<10).map { Self.item($0, sized: $0 % 3 == 0) }, chunkCapacity: 4)
        #expect(list.sizedCount == 4)
        list.remove(at: 0)
        #expect(list.sizedCount == 3)
        list.insert(Self.item(50, sized: true), at: 5)
        #expect(list.sizedCount == 4)
        list.replace(at: 5, with: Self.item(51))
        #expect(list.sizedCount == 3)
        var other = ItemList(chunkCapacity: 4)
        other.append(contentsOf: list, range: 2..<list.count)
        #expect(other.sizedCount == list[2...].filter { $0.size != nil }.count)
    }

    @Test func equalityAndHashIgnoreTheChunking() {
        let a = Self.list(0..<50, capacity: 4)
        let b = Self.list(0..<50, capacity: 16)
        var c = Self.list(0..<49, capacity: 8)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != c)
        c.append(Self.item(49))
        #expect(a == c)
        c.replace(at: 20, with: Self.item(999))
        #expect(a != c)
        #expect(ItemList() == ItemList(chunkCapacity: 4))
    }

    @Test func aCopyKeepsItsItemsWhenTheOriginalChanges() {
        var list = Self.list(0..<40, capacity: 8)
        let copy = list
        list.insert(Self.item(100), at: 0)
        list.remove(at: 20)
        list.replace(at: 30, with: Self.item(101))
        #expect(Array(copy) == (0..<40).map { Self.item($0) })
        #expect(list.count == 40 && list[0] == Self.item(100) && list[30] == Self.item(101))
    }

    @Test func anEditOfACopyCopiesOnlyTheChunkItTouches() {
        var list = Self.list(0..<1000, capacity: 100)
        let copy = list
        #expect(list.sharedChunkCount(with: copy) == 10)
        list.insert(Self.item(5000), at: 450)
        // The touched chunk split in two (101 items); the other nine are still the copy's.
        #expect(list.sharedChunkCount(with: copy) == 9)
        list.replace(at: 0, with: Self.item(5001))
        #expect(list.sharedChunkCount(with: copy) == 8)
    }

    @Test func appendingARangeSharesTheChunksItCoversWhole() {
        let old = Self.list(0..<1000, capacity: 100)
        var new = ItemList(chunkCapacity: 100)
        new.append(Self.item(5000))
        new.append(contentsOf: old, range: 0..<1000)
        #expect(Array(new) == [Self.item(5000)] + (0..<1000).map { Self.item($0) })
        #expect(new.sharedChunkCount(with: old) == 10)
        var middle = ItemList(chunkCapacity: 100)
        middle.append(contentsOf: old, range: 150..<850)
        #expect(Array(middle) == (150..<850).map { Self.item($0) })
        #expect(middle.sharedChunkCount(with: old) == 6)   // 200..<800 whole; the ends copied
    }

    @Test func smallChunksLeftByRunsAreJoinedByTheNextRebuild() {
        var old = Self.list(0..<1000, capacity: 100)
        for _ in 0..<40 { old.remove(at: 200) }        // the third chunk holds 240..<300
        var new = ItemList(chunkCapacity: 100)
        new.append(contentsOf: old, range: 0..<130)    // [100 shared] [30 copied]
        new.append(contentsOf: old, range: 200..<260)  // a whole chunk of 60: the small tail takes it in
        #expect(new.chunkCounts == [100, 90])
        #expect(Array(new) == (0..<130).map { Self.item($0) } + (240..<300).map { Self.item($0) })
    }

    /// Random inserts, removes, replaces and range appends on an ItemList and an Array side by
    /// side, with small chunks so splits and merges happen all the time, and items that fill
    /// every column (sizes, reuse identifiers, payloads) now and then.
    @Test(arguments: [2, 3, 5, 16])
    func behavesLikeAnArrayUnderRandomEdits(capacity: Int) {
        var rng = SplitMix64(seed: UInt64(capacity) * 7919)
        var list = ItemList(chunkCapacity: capacity)
        var array: [Item] = []
        var snapshots: [(ItemList, [Item])] = []
        var next = 0
        for step in 0..<3000 {
            let choice = Int.random(in: 0..<10, using: &rng)
            if choice < 4 || array.isEmpty {
                let at = Int.random(in: 0...array.count, using: &rng)
                let item = Self.richItem(next, sized: next % 5 == 0)
                next += 1
                list.insert(item, at: at)
                array.insert(item, at: at)
            } else if choice < 7 {
                let at = Int.random(in: 0..<array.count, using: &rng)
                #expect(list.remove(at: at) == array.remove(at: at))
            } else if choice < 9 {
                let at = Int.random(in: 0..<array.count, using: &rng)
                let item = Self.richItem(next, sized: next % 2 == 0)
                next += 1
                list.replace(at: at, with: item)
                array[at] = item
            } else {
                let lo = Int.random(in: 0...array.count, using: &rng)
                let hi = Int.random(in: lo...array.count, using: &rng)
                var rebuilt = ItemList(chunkCapacity: capacity)
                rebuilt.append(contentsOf: list, range: 0..<lo)
                rebuilt.append(contentsOf: list, range: lo..<hi)
                rebuilt.append(contentsOf: list, range: hi..<list.count)
                #expect(rebuilt == list)
                list = rebuilt
            }
            if step % 100 == 0 { snapshots.append((list, array)) }
            #expect(list.count == array.count)
            #expect(list.chunkCounts.allSatisfy { $0 > 0 && $0 <= capacity })
        }
        #expect(Array(list) == array)
        #expect(list == ItemList(array))
        #expect(list.sizedCount == array.filter { $0.size != nil }.count)
        for i in array.indices { if list[i] != array[i] { Issue.record("index \(i) differs"); break } }
        // Every copy taken along the way still holds what it held then.
        for (copy, expected) in snapshots { #expect(Array(copy) == expected) }
    }

    /// Lists holding equal items compare equal however their columns are stored: one whose
    /// sized or non-default items were removed again keeps columns the other never made.
    @Test func equalItemsStoredDifferentlyAreEqual() {
        let plain = ItemList((0..<6).map { Self.item($0) }, chunkCapacity: 8)
        var edited = plain
        edited.insert(Self.richItem(3, sized: true), at: 2)
        #expect(edited != plain)
        edited.remove(at: 2)
        #expect(edited == plain && edited.hashValue == plain.hashValue)
        #expect(edited.map(\.reuseIdentifier) == Array(repeating: Item.defaultReuseIdentifier, count: 6))
        #expect(edited.allSatisfy { $0.data == nil && $0.size == nil })
        // A payload read back shares the chunk's bytes but is equal to one built on its own.
        var withData = ItemList(chunkCapacity: 8)
        withData.append(Item(id: "a", data: ItemPayload(bytes: Array("{\"x\":1}".utf8))))
        withData.append(Item(id: "b", data: ItemPayload(bytes: Array("[2]".utf8))))
        #expect(withData[1].data == ItemPayload(bytes: Array("[2]".utf8)))
        #expect(withData[0].data?.bytes.count == 7)
    }
}
