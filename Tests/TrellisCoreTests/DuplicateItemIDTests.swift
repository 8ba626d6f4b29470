import Testing

@testable import TrellisCore

/// A data set's duplicate check runs on identifier digests and compares strings only where two
/// digests agree (`CollectionData.duplicateItemIDs`): it must list exactly what a set of the
/// identifiers themselves finds, in order, whether digests collide or not.
@Suite struct DuplicateItemIDTests {
    /// What a plain set finds: every identifier met again after its first time, in order.
    static func reference(_ sections: [Section]) -> [ItemID] {
        var seen: Set<ItemID> = [], duplicates: [ItemID] = []
        for section in sections {
            for item in section.items where !seen.insert(item.id).inserted { duplicates.append(item.id) }
        }
        return duplicates
    }

    /// Sections of identifiers drawn from a small pool (so some repeat), by a seeded generator.
    static func sections(seed: UInt64, count: Int, pool: Int) -> [Section] {
        var state = seed
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<(1 + next() % 4)).map { s in
            Section(id: SectionID("s\(s)"), items: (0..<(next() % count)).map { _ in Item(id: ItemID("id-\(next() % pool)")) })
        }
    }

    @Test func findsWhatASetFinds() {
        for seed in UInt64(1)...40 {
            let sections = Self.sections(seed: seed, count: 3000, pool: seed % 2 == 0 ? 5000 : 1_000_000)
            #expect(CollectionData.duplicateItemIDs(in: sections) == Self.reference(sections), "seed \(seed)")
        }
    }

    /// Digests that collide all the time (by length, or all one) leave the strings to decide:
    /// equal digests of different identifiers are not duplicates.
    @Test(arguments: [0, 1])
    func collidingDigestsAreSettledByTheIdentifiers(_ weak: Int) {
        let digest: (ItemID) -> UInt64 = weak == 0 ? { UInt64($0.rawValue.utf8.count) | 1 } : { _ in 1 }
        for seed in UInt64(1)...20 {
            let sections = Self.sections(seed: seed, count: 400, pool: seed % 2 == 0 ? 300 : 100_000)
            #expect(CollectionData.duplicateItemIDs(in: sections, digest: digest) == Self.reference(sections), "seed \(seed)")
        }
        let distinct = [Section(id: "a", items: [Item(id: "x1"), Item(id: "x2")]), Section(id: "b", items: [Item(id: "x3")])]
        #expect(CollectionData.duplicateItemIDs(in: distinct, digest: digest).isEmpty)
        #expect(throws: Never.self) { try CollectionData(sections: distinct) }
    }

    @Test func theErrorNamesEachRepeatInOrderAcrossSections() {
        let sections = [Section(id: "a", items: [Item(id: "p"), Item(id: "q"), Item(id: "p")]),
                        Section(id: "b", items: [Item(id: "q"), Item(id: "p"), Item(id: "r")])]
        #expect(throws: DataError.duplicateItemIdentifiers(["p", "q", "p"])) { try CollectionData(sections: sections) }
        #expect(throws: DataError.duplicateSectionIdentifiers(["a"])) {
            try CollectionData(sections: [Section(id: "a", items: [Item(id: "p")]), Section(id: "a", items: [Item(id: "p")])])
        }
    }
}
