import Testing
@testable import TrellisCore

@Suite struct SelectionTests {
    func list() -> CollectionView { CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(100)) }
    func kinds(_ events: [SelectionEvent]) -> [String] { events.map { "\($0.kind.rawValue) \($0.item)" } }

    @Test func tapRunsUIKitsCallbackOrder() {
        var v = list()
        let (hit, events) = v.tap(at: Point(10, 125))   // row 2
        #expect(hit?.element == .cell(0, 2))
        #expect(kinds(events) == ["shouldHighlight i2", "didHighlight i2", "shouldSelect i2", "didSelect i2", "didUnhighlight i2"])
        #expect(v.selectedItems == ["i2"])
        #expect(v.selectedIndexPaths == [IndexPath(0, 2)])
    }

    @Test func singleSelectionDeselectsThePrevious() {
        var v = list()
        v.tap(at: Point(10, 125))
        _ = v.drainEvents()
        let events = v.tap(at: Point(10, 225)).events    // row 4
        #expect(kinds(events) == ["shouldHighlight i4", "didHighlight i4", "shouldSelect i4", "didDeselect i2", "didSelect i4", "didUnhighlight i4"])
        #expect(events[3].indexPath == IndexPath(0, 2))
        #expect(v.selectedItems == ["i4"])
        #expect(v.drainEvents().last == .selectionChanged(selected: ["i4"]))
    }

    @Test func multipleSelectionTogglesWithShouldDeselect() {
        var v = list()
        v.setSelectionPolicy(SelectionPolicy(allowsMultipleSelection: true))
        v.tap(at: Point(10, 125))
        v.tap(at: Point(10, 225))
        #expect(v.selectedItems == ["i2", "i4"])
        let events = v.tap(at: Point(10, 125)).events
        #expect(kinds(events) == ["shouldHighlight i2", "didHighlight i2", "shouldDeselect i2", "didDeselect i2", "didUnhighlight i2"])
        #expect(v.selectedItems == ["i4"])
    }

    @Test func tappingEmptySpaceOrWithSelectionOffDoesNothing() {
        var v = CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(3))
        #expect(v.tap(at: Point(10, 500)).hit == nil)
        v.setSelectionPolicy(SelectionPolicy(allowsSelection: false))
        let (hit, events) = v.tap(at: Point(10, 10))
        #expect(hit?.element == .cell(0, 0))
        #expect(events.isEmpty)
        #expect(v.selectedItems.isEmpty)
        #expect(throws: EngineError.selectionNotAllowed) { try v.select(IndexPath(0, 0)) }
    }

    @Test func programmaticSelectionSendsNoDelegateCallbacks() throws {
        var v = list()
        try v.select(IndexPath(0, 1))
        try v.select(IndexPath(0, 3))
        #expect(v.selectedItems == ["i3"])
        #expect(v.drainEvents() == [.selectionChanged(selected: ["i1"]), .selectionChanged(selected: ["i3"])])
        try v.deselect(IndexPath(0, 3))
        #expect(v.selectedItems.isEmpty)
        #expect(throws: EngineError.itemOutOfRange(IndexPath(0, 100), sections: 1, items: 100)) { try v.select(IndexPath(0, 100)) }
    }

    @Test func selectionFollowsTheItemIdentifier() throws {
        var v = list()
        try v.select(IndexPath(0, 5))
        // The same item moves to the front in new data: the selection goes with it.
        var reordered = (0..<100).map { Item(id: ItemID("i\($0)")) }
        reordered.insert(reordered.remove(at: 5), at: 0)
        var data = try CollectionData(sections: [Section(id: "s0", items: reordered)])
        v.setSelectionPolicy(SelectionPolicy(allowsMultipleSelection: true))
        try v.select(IndexPath(0, 7))
        #expect(v.selectedIndexPaths == [IndexPath(0, 5), IndexPath(0, 7)])
        v.setData(data, invalidation: .all)
        #expect(v.selectedIndexPaths == [IndexPath(0, 0), IndexPath(0, 7)])
        data = items(3)   // i5 and i7 are gone
        v.setData(data, invalidation: .all)
        #expect(v.selectedItems.isEmpty)
    }

    /// A batch tells the selection which identifiers left from its operations (without reading
    /// every item): deleted items and the items of deleted or reloaded sections drop out unless
    /// the batch brings the same identifier back; moved and shifted items stay selected.
    @Test func aBatchDropsExactlyTheSelectedItemsItRemoves() throws {
        var v = CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: try CollectionData(sections: [
            Section(id: "s0", items: (0..<10).map { Item(id: ItemID("i\($0)")) }),
            Section(id: "s1", items: (0..<4).map { Item(id: ItemID("j\($0)")) }),
            Section(id: "s2", items: (0..<3).map { Item(id: ItemID("k\($0)")) }),
        ]))
        v.setSelectionPolicy(SelectionPolicy(allowsMultipleSelection: true))
        for path in [IndexPath(0, 1), IndexPath(0, 2), IndexPath(0, 3), IndexPath(0, 8), IndexPath(1, 0), IndexPath(2, 1)] {
            try v.select(path)
        }
        _ = v.drainEvents()
        // i1 deleted, i2 deleted and inserted again, i3 moved, i8 shifted; section s1 deleted;
        // s2 reloaded without k1 but with j0 (which left s1).
        try v.performBatchUpdates(BatchUpdate([
            .deleteItems(at: [IndexPath(0, 1), IndexPath(0, 2)]),
            .insertItems(at: [IndexPath(0, 0)], items: [Item(id: "i2")]),
            .moveItem(from: IndexPath(0, 3), to: IndexPath(0, 7)),
            .deleteSections(at: [1]),
            .reloadSections(at: [2], sections: [Section(id: "s2", items: [Item(id: "k0"), Item(id: "j0")])]),
        ]), animation: .immediate)
        #expect(Set(v.selectedItems) == ["i2", "i3", "i8", "j0"])
        #expect(v.drainEvents().filter { if case .selectionChanged = $0 { true } else { false } }.count == 1)
        // A batch that removes nothing selected changes nothing and says nothing.
        try v.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(0, 4)])]), animation: .immediate)
        #expect(Set(v.selectedItems) == ["i2", "i3", "i8", "j0"])
        #expect(!v.drainEvents().contains { if case .selectionChanged = $0 { true } else { false } })
    }

    @Test func leavingMultipleSelectionKeepsTheLatest() throws {
        var v = list()
        v.setSelectionPolicy(SelectionPolicy(allowsMultipleSelection: true))
        try v.select(IndexPath(0, 1)); try v.select(IndexPath(0, 2))
        v.setSelectionPolicy(SelectionPolicy())
        #expect(v.selectedItems == ["i2"])
    }
}
