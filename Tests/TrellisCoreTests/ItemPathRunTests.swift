import Testing
@testable import TrellisCore

/// The old → new mapping of a batch is recorded as runs, so what a small batch costs does not
/// grow with the section it touches (the random batch tests check runs against identifiers).
@Suite struct ItemPathRunTests {
    static let count = 200_000

    static func data(sections: [Int]) throws -> CollectionData {
        try CollectionData(sections: sections.enumerated().map { s, n in
            Section(id: SectionID("s\(s)"), items: (0..<n).map { Item(id: ItemID("s\(s)i\($0)")) })
        })
    }

    /// The runs a table of the result holds (nil when it is not made of runs).
    static func runCount(_ table: ItemIndexMap.Table) -> Int? {
        if case .runs(let runs) = table { return runs.byOld.count }
        return nil
    }

    @Test func oneInsertAtTheStartIsOneRun() throws {
        let data = try Self.data(sections: [Self.count])
        let result = try BatchUpdate([.insertItems(at: [IndexPath(0, 0)], items: [Item(id: "n")])]).apply(to: data)
        #expect(result.changedPathRuns() == [ItemPathRun(old: IndexPath(0, 0), new: IndexPath(0, 1), count: Self.count)])
        // Recorded as one run, not as a table of 200,000 entries.
        #expect(Self.runCount(result.items.oldTables[0]) == 1)
        #expect(result.newIndexPath(for: IndexPath(0, Self.count - 1)) == IndexPath(0, Self.count))
        #expect(result.oldIndexPath(for: IndexPath(0, 0)) == nil)
        #expect(result.newIndexPath(for: IndexPath(0, Self.count)) == nil)
    }

    @Test func aDeleteAndAMoveAreAHandfulOfRuns() throws {
        let data = try Self.data(sections: [Self.count])
        let result = try BatchUpdate([
            .deleteItems(at: [IndexPath(0, 3)]),
            .moveItem(from: IndexPath(0, 10), to: IndexPath(0, 0)),
        ]).apply(to: data)
        // Old 0…2 shift by one (the moved item lands before them), the moved item goes to 0,
        // 4…9 keep their index (3 removed, one placed before them: in no run), 11… shift by -1.
        #expect(result.changedPathRuns() == [
            ItemPathRun(old: IndexPath(0, 0), new: IndexPath(0, 1), count: 3),
            ItemPathRun(old: IndexPath(0, 10), new: IndexPath(0, 0), count: 1),
            ItemPathRun(old: IndexPath(0, 11), new: IndexPath(0, 10), count: Self.count - 11),
        ])
        #expect(Self.runCount(result.items.oldTables[0])! <= 4)
    }

    @Test func anItemCrossingSectionsTakesItsPlaceInOldOrder() throws {
        let data = try Self.data(sections: [5, 4])
        let result = try BatchUpdate([.moveItem(from: IndexPath(0, 1), to: IndexPath(1, 0))]).apply(to: data)
        #expect(result.changedPathRuns() == [
            ItemPathRun(old: IndexPath(0, 1), new: IndexPath(1, 0), count: 1),
            ItemPathRun(old: IndexPath(0, 2), new: IndexPath(0, 1), count: 3),
            ItemPathRun(old: IndexPath(1, 0), new: IndexPath(1, 1), count: 4),
        ])
    }

    @Test func aSectionThatShiftsIsOneRunAndOneThatStaysIsNone() throws {
        let data = try Self.data(sections: [3, Self.count])
        let result = try BatchUpdate([.insertSections(at: [0], sections: [Section(id: "new")])]).apply(to: data)
        #expect(result.changedPathRuns() == [
            ItemPathRun(old: IndexPath(0, 0), new: IndexPath(1, 0), count: 3),
            ItemPathRun(old: IndexPath(1, 0), new: IndexPath(2, 0), count: Self.count),
        ])
        let reload = try BatchUpdate([.reloadItems(at: [IndexPath(1, 7)], items: nil)]).apply(to: data)
        #expect(reload.changedPathRuns().isEmpty)
    }

    @Test func aReloadedSectionMapsByIdentifier() throws {
        let data = try Self.data(sections: [6])
        let items = data.sections[0].items
        // Reversed and one dropped: every surviving item moves, each its own run.
        let replacement = Section(id: "s0", items: Array(items.dropFirst().reversed()))
        let result = try BatchUpdate([.reloadSections(at: [0], sections: [replacement])]).apply(to: data)
        #expect(result.changedPathRuns().flatMap { Array($0.changes) } == (1..<6).compactMap { old in
            let new = 5 - old
            return new == old ? nil : .init(before: IndexPath(0, old), after: IndexPath(0, new))
        })
        #expect(result.newIndexPath(for: IndexPath(0, 0)) == nil)
    }
}
