import Testing
@testable import TrellisCore

/// A small batch on a large section leaves the section's untouched chunks shared with the old
/// data (kept alive for the animation), instead of copying every item.
@Suite struct BatchChunkSharingTests {
    static let count = 100_000

    static var data: CollectionData { .generated(count: count) }

    /// The old section's chunks that the new one does not share.
    static func copiedChunks(_ old: CollectionData, _ new: CollectionData) -> Int {
        let before = old.sections[0].items, after = new.sections[0].items
        return after.chunkCounts.count - after.sharedChunkCount(with: before)
    }

    /// The chunk the insert lands in (split in two when full) and, when the section's last
    /// chunk is less than half full, that one: never more than three.
    @Test(arguments: [0, 1, 50_000, count - 1, count])
    func oneInsertCopiesAtMostThreeChunks(at index: Int) throws {
        let old = Self.data
        let result = try BatchUpdate([.insertItems(at: [IndexPath(0, index)], items: [Item(id: "new")])]).apply(to: old)
        #expect(result.data.sections[0].count == Self.count + 1)
        #expect(result.data.sections[0].items[index].id == "new")
        #expect(old.sections[0].items.chunkCounts.count > 40)
        #expect(Self.copiedChunks(old, result.data) <= 3)
    }

    @Test func oneDeleteOneReloadAndOneMoveCopyAFewChunks() throws {
        let old = Self.data
        let result = try BatchUpdate([
            .deleteItems(at: [IndexPath(0, 70_000)]),
            .reloadItems(at: [IndexPath(0, 30_000)], items: [Item(id: "i30000", size: Size(5, 5))]),
            .moveItem(from: IndexPath(0, 10), to: IndexPath(0, 90_000)),
        ]).apply(to: old)
        #expect(result.data.sections[0][30_000 - 1].size == Size(5, 5))
        #expect(Self.copiedChunks(old, result.data) <= 6)
    }
}

private extension Section {
    subscript(index: Int) -> Item { items[index] }
}
