import Testing
@testable import TrellisCore

/// The per-chunk identifier filters: a small batch's arriving identifiers are compared with the
/// chunks that might hold them only, and a duplicate is still found wherever it sits.
@Suite struct ChunkIdentifierFilterTests {
    static let count = 50_000

    @Test func anIdentifierPassesOnlyTheFiltersOfAFewChunks() {
        let items = CollectionData.generated(count: Self.count).sections[0].items
        #expect(items.chunkCount > 20)
        for n in [0, 2047, 2048, 30_000, Self.count - 1] {
            let chunks = items.chunkIndices(mightHoldAnyOf: [ItemID("i\(n)")])
            // Its own chunk always; a false positive or two at most.
            #expect(chunks.contains(n / ItemList.defaultChunkCapacity))
            #expect(chunks.count <= 3)
        }
        #expect(items.chunkIndices(mightHoldAnyOf: ["absent"]).count <= 2)
    }

    @Test func filtersFollowEditsAndStaySoundAfterManyOfThem() {
        var items = ItemList((0..<400).map { Item(id: ItemID("i\($0)")) }, chunkCapacity: 64)
        var rng = SplitMix64(seed: 11)
        var next = 400
        for _ in 0..<2000 {
            let at = Int(rng.next() % UInt64(items.count))
            if rng.next() % 2 == 0 {
                items.insert(Item(id: ItemID("i\(next)")), at: at)
                next += 1
            } else {
                items.replace(at: at, with: Item(id: ItemID("r\(next)")))
                next += 1
            }
        }
        // No false negative: every item's chunk lets its identifier through.
        items.forEachChunk { start, ids in
            for offset in ids.indices {
                let k = items.chunkIndices(mightHoldAnyOf: [ids[offset]])
                if !k.contains(where: { items.chunkStart($0) == start }) { Issue.record("\(ids[offset]) filtered out") }
            }
        }
    }

    @Test(arguments: [0, 2047, 2048, 25_000, count - 1])
    func aDuplicateIsFoundInAnyChunk(at n: Int) {
        let data = CollectionData.generated(count: Self.count)
        let insert = BatchUpdate([.insertItems(at: [IndexPath(0, 5)], items: [Item(id: ItemID("i\(n)"))])])
        #expect(throws: UpdateError.duplicateItemIdentifiers([ItemID("i\(n)")])) { try insert.apply(to: data) }
        // Deleted in the same batch: the identifier is free again.
        let replace = BatchUpdate([.deleteItems(at: [IndexPath(0, n)]),
                                   .insertItems(at: [IndexPath(0, 5)], items: [Item(id: ItemID("i\(n)"))])])
        #expect(throws: Never.self) { try replace.apply(to: data) }
    }

    @Test func aDuplicateIsFoundAfterEditsOfACopy() throws {
        var data = CollectionData.generated(count: Self.count)
        let kept = data
        data = try BatchUpdate([.insertItems(at: [IndexPath(0, 0)], items: [Item(id: "fresh")])]).apply(to: data).data
        #expect(throws: UpdateError.duplicateItemIdentifiers(["fresh"])) {
            try BatchUpdate([.insertItems(at: [IndexPath(0, 40_000)], items: [Item(id: "fresh")])]).apply(to: data)
        }
        // The old data, sharing all but the first chunk, never held it.
        #expect(throws: Never.self) {
            try BatchUpdate([.insertItems(at: [IndexPath(0, 40_000)], items: [Item(id: "fresh")])]).apply(to: kept)
        }
    }
}
