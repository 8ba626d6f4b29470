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

    @Test func leavingMultipleSelectionKeepsTheLatest() throws {
        var v = list()
        v.setSelectionPolicy(SelectionPolicy(allowsMultipleSelection: true))
        try v.select(IndexPath(0, 1)); try v.select(IndexPath(0, 2))
        v.setSelectionPolicy(SelectionPolicy())
        #expect(v.selectedItems == ["i2"])
    }
}
