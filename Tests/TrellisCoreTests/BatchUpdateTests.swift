import Testing
@testable import TrellisCore

// MARK: - Helpers

/// Sections "s0", "s1", … holding items with the given identifiers.
private func batchData(_ sections: [[String]]) throws -> CollectionData {
    try CollectionData(sections: sections.enumerated().map { index, ids in
        Section(id: SectionID("s\(index)"), items: ids.map { Item(id: ItemID($0)) })
    })
}

private func itemIDs(_ data: CollectionData) -> [[String]] {
    data.sections.map { $0.items.map(\.id.rawValue) }
}

private func path(_ section: Int, _ item: Int) -> IndexPath { IndexPath(section, item) }

/// UIKit's NSIndexPath description as UpdateError prints it.
private func ns(_ section: Int, _ item: Int) -> String { "<NSIndexPath> {length = 2, path = \(section) - \(item)}" }

private func refusal(_ operations: [UpdateOperation], on data: CollectionData,
             after: CollectionData? = nil) -> UpdateError? {
    do {
        _ = try BatchUpdate(operations, dataAfter: after).apply(to: data)
        return nil
    } catch {
        return error
    }
}

/// One refused batch and the exact code and message it must produce.
struct BatchRefusalCase: Sendable, CustomTestStringConvertible {
    var name: String
    var data: [[String]] = [["a", "b", "c"], ["d", "e"]]
    var operations: [UpdateOperation]
    var after: [[String]]? = nil
    var code: String
    var message: String

    var testDescription: String { name }
}

private func item(_ id: String) -> Item { Item(id: ItemID(id)) }
private func section(_ id: String, _ items: [String] = []) -> Section {
    Section(id: SectionID(id), items: items.map { Item(id: ItemID($0)) })
}

// MARK: - UIKit's messages

@Suite struct BatchUpdateMessageTests {
    static let cases: [BatchRefusalCase] = [
        // 1. reloads against deletes
        BatchRefusalCase(name: "delete and reload the same index path",
                    operations: [.deleteItems(at: [path(0, 1)]), .reloadItems(at: [path(0, 1)], items: nil)],
                    code: "delete_and_reload_same_index_path",
                    message: "attempt to delete and reload the same index path (\(ns(0, 1)))"),
        BatchRefusalCase(name: "delete and reload the same section",
                    operations: [.deleteSections(at: [1]), .reloadSections(at: [1], sections: nil)],
                    code: "delete_and_reload_same_section",
                    message: "attempt to delete and reload the same index path (\(ns(1, 9223372036854775807)))"),
        BatchRefusalCase(name: "the same index path reloaded twice",
                    operations: [.reloadItems(at: [path(0, 0)], items: nil), .reloadItems(at: [path(0, 0)], items: nil)],
                    code: "duplicate_reload_index_path",
                    message: "attempt to reload the same index path more than once (\(ns(0, 0)))"),
        BatchRefusalCase(name: "the same section reloaded twice",
                    operations: [.reloadSections(at: [0, 0], sections: nil)],
                    code: "duplicate_reload_section", message: "attempt to reload section 0 more than once"),
        // 2. deletes
        BatchRefusalCase(name: "delete a section that does not exist",
                    operations: [.deleteSections(at: [2])], code: "delete_section_out_of_range",
                    message: "attempt to delete section 2, but there are only 2 sections before the update"),
        BatchRefusalCase(name: "delete and move the same section",
                    operations: [.deleteSections(at: [0]), .moveSection(from: 0, to: 1)],
                    code: "delete_and_move_same_section",
                    message: "attempt to perform a delete and a move from the same section (0)"),
        BatchRefusalCase(name: "move an item out of a deleted section",
                    operations: [.deleteSections(at: [0]), .moveItem(from: path(0, 1), to: path(0, 0))],
                    code: "move_from_deleted_section", message: "cannot move an item from a deleted section (0)"),
        BatchRefusalCase(name: "move an item out of a reloaded section",
                    operations: [.reloadSections(at: [1], sections: nil), .moveItem(from: path(1, 0), to: path(0, 0))],
                    code: "move_from_deleted_section", message: "cannot move an item from a deleted section (1)"),
        BatchRefusalCase(name: "delete an item of a section that does not exist",
                    operations: [.deleteItems(at: [path(5, 0)])], code: "delete_item_section_out_of_range",
                    message: "attempt to delete item 0 from section 5, but there are only 2 sections before the update"),
        BatchRefusalCase(name: "delete an item that does not exist",
                    operations: [.deleteItems(at: [path(1, 19)])], code: "delete_item_out_of_range",
                    message: "attempt to delete item 19 from section 1 which only contains 2 items before the update"),
        BatchRefusalCase(name: "reload an item that does not exist (UIKit reports the delete half)",
                    operations: [.reloadItems(at: [path(0, 3)], items: nil)], code: "delete_item_out_of_range",
                    message: "attempt to delete item 3 from section 0 which only contains 3 items before the update"),
        BatchRefusalCase(name: "the same index path deleted twice",
                    operations: [.deleteItems(at: [path(0, 1)]), .deleteItems(at: [path(0, 1)])],
                    code: "duplicate_delete_index_path",
                    message: "attempt to delete the same index path more than once (\(ns(0, 1)))"),
        BatchRefusalCase(name: "the same section deleted twice",
                    operations: [.deleteSections(at: [1, 1])], code: "duplicate_delete_section",
                    message: "attempt to delete section 1 more than once"),
        BatchRefusalCase(name: "delete and move the same index path",
                    operations: [.deleteItems(at: [path(0, 0)]), .moveItem(from: path(0, 0), to: path(0, 1))],
                    code: "delete_and_move_same_index_path",
                    message: "attempt to perform a delete and a move from the same index path (\(ns(0, 0)))"),
        BatchRefusalCase(name: "reload and move the same index path",
                    operations: [.reloadItems(at: [path(1, 1)], items: nil), .moveItem(from: path(1, 1), to: path(0, 0))],
                    code: "delete_and_move_same_index_path",
                    message: "attempt to perform a delete and a move from the same index path (\(ns(1, 1)))"),
        // 3. inserts
        BatchRefusalCase(name: "insert a section past the end",
                    operations: [.insertSections(at: [5], sections: [section("n")])],
                    code: "insert_section_out_of_range",
                    message: "attempt to insert section 5 but there are only 3 sections after the update"),
        BatchRefusalCase(name: "insert and move to the same section",
                    operations: [.insertSections(at: [0], sections: [section("n")]), .moveSection(from: 1, to: 0)],
                    code: "insert_and_move_same_section",
                    message: "attempt to perform an insert and a move to the same section (0)"),
        BatchRefusalCase(name: "move an item into an inserted section",
                    operations: [.insertSections(at: [1], sections: [section("n")]),
                                 .moveItem(from: path(0, 0), to: path(1, 0))],
                    code: "move_into_inserted_section", message: "cannot move an item into a newly inserted section (1)"),
        BatchRefusalCase(name: "move an item into a reloaded section",
                    operations: [.reloadSections(at: [1], sections: nil), .moveItem(from: path(0, 0), to: path(1, 0))],
                    code: "move_into_inserted_section", message: "cannot move an item into a newly inserted section (1)"),
        BatchRefusalCase(name: "insert an item into a section that does not exist",
                    operations: [.insertItems(at: [path(4, 0)], items: [item("x")])],
                    code: "insert_item_section_out_of_range",
                    message: "attempt to insert item 0 into section 4, but there are only 2 sections after the update"),
        BatchRefusalCase(name: "insert an item past the end",
                    operations: [.insertItems(at: [path(0, 7)], items: [item("x")])], code: "insert_item_out_of_range",
                    message: "attempt to insert item 7 into section 0, but there are only 4 items in section 0 after the update"),
        BatchRefusalCase(name: "insert an item the data source does not have",
                    operations: [.insertItems(at: [path(0, 3)], items: [])], after: [["a", "b", "c"], ["d", "e"]],
                    code: "insert_item_out_of_range",
                    message: "attempt to insert item 3 into section 0, but there are only 3 items in section 0 after the update"),
        BatchRefusalCase(name: "the same index path inserted twice",
                    operations: [.insertItems(at: [path(0, 0), path(0, 0)], items: [item("x"), item("y")])],
                    code: "duplicate_insert_index_path",
                    message: "attempt to insert at the same index path more than once (\(ns(0, 0)))"),
        BatchRefusalCase(name: "the same section inserted twice",
                    operations: [.insertSections(at: [0, 0], sections: [section("n"), section("m")])],
                    code: "duplicate_insert_section", message: "attempt to insert section 0 more than once"),
        BatchRefusalCase(name: "insert and move to the same index path",
                    operations: [.insertItems(at: [path(0, 1)], items: [item("x")]),
                                 .moveItem(from: path(1, 0), to: path(0, 1))],
                    code: "insert_and_move_same_index_path",
                    message: "attempt to perform an insert and a move to the same index path (\(ns(0, 1)))"),
        // 4. moves
        BatchRefusalCase(name: "move a section that does not exist",
                    operations: [.moveSection(from: 3, to: 0)], code: "move_section_out_of_range",
                    message: "attempt to move section 3, but there are only 2 sections before the update"),
        BatchRefusalCase(name: "move a section past the end",
                    operations: [.moveSection(from: 0, to: 2)], code: "move_section_destination_out_of_range",
                    message: "attempt to to move section 0 to section 2, but there are only 2 sections after the update"),
        BatchRefusalCase(name: "move an item from a section that does not exist",
                    operations: [.moveItem(from: path(4, 0), to: path(0, 0))], code: "move_item_section_out_of_range",
                    message: "attempt to move index path (\(ns(4, 0))) from a section that does not exist - there are only 2 sections before the update"),
        BatchRefusalCase(name: "move an item that does not exist",
                    operations: [.moveItem(from: path(1, 5), to: path(0, 0))], code: "move_item_out_of_range",
                    message: "attempt to move index path (\(ns(1, 5))) that does not exist - there are only 2 items in section 1 before the update"),
        BatchRefusalCase(name: "move an item into a section that does not exist",
                    operations: [.moveItem(from: path(0, 0), to: path(3, 0))],
                    code: "move_item_destination_section_out_of_range",
                    message: "attempt to move index path (\(ns(0, 0))) to index path (\(ns(3, 0))) in section that does not exist - there are only 2 sections after the update"),
        BatchRefusalCase(name: "move an item past the end",
                    operations: [.moveItem(from: path(0, 0), to: path(1, 9))], code: "move_item_destination_out_of_range",
                    message: "attempt to move index path (\(ns(0, 0))) to index path (\(ns(1, 9))) that does not exist - there are only 3 items in section 1 after the update"),
        BatchRefusalCase(name: "move one item to two places",
                    operations: [.moveItem(from: path(0, 0), to: path(0, 2)), .moveItem(from: path(0, 0), to: path(0, 1))],
                    code: "move_item_to_two_destinations",
                    message: "attempt to move item at index path \(ns(0, 0)) to both \(ns(0, 1)) and \(ns(0, 2))"),
        BatchRefusalCase(name: "move two items to one place",
                    operations: [.moveItem(from: path(0, 1), to: path(0, 2)), .moveItem(from: path(0, 0), to: path(0, 2))],
                    code: "move_items_to_same_destination",
                    message: "attempt to move both item at index path \(ns(0, 0)) and \(ns(0, 1)) to \(ns(0, 2))"),
        BatchRefusalCase(name: "move one section to two places", data: [["a"], ["b"], ["c"]],
                    operations: [.moveSection(from: 0, to: 2), .moveSection(from: 0, to: 1)],
                    code: "move_section_to_two_destinations",
                    message: "attempt to move section 0 to both section 1 and section 2"),
        BatchRefusalCase(name: "move two sections to one place", data: [["a"], ["b"], ["c"]],
                    operations: [.moveSection(from: 1, to: 2), .moveSection(from: 0, to: 2)],
                    code: "move_sections_to_same_destination",
                    message: "attempt to move both section 0 and section 1 to section 2"),
        // 5–6. counts against a data source that disagrees
        BatchRefusalCase(name: "section count", operations: [.insertSections(at: [2], sections: []), .deleteSections(at: [0])],
                    after: [["a"], ["b"], ["c"]], code: "invalid_section_count",
                    message: "Invalid update: invalid number of sections.  The number of sections contained in the collection view after the update (3) must be equal to the number of sections contained in the collection view before the update (2), plus or minus the number of sections inserted or deleted (1 inserted, 1 deleted)."),
        BatchRefusalCase(name: "item count when the data source was not updated",
                    operations: [.insertItems(at: [path(0, 0)], items: [])], after: [["a", "b", "c"], ["d", "e"]],
                    code: "invalid_item_count",
                    message: "Invalid update: invalid number of items in section 0.  The number of items contained in an existing section after the update (3) must be equal to the number of items contained in that section before the update (3), plus or minus the number of items inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out)."),
        BatchRefusalCase(name: "item count with a move in and a reload (counted as 1 inserted, 1 deleted)",
                    operations: [.insertItems(at: [path(0, 0)], items: []), .deleteItems(at: [path(1, 1)]),
                                 .moveItem(from: path(1, 0), to: path(0, 1)), .reloadItems(at: [path(0, 2)], items: nil)],
                    after: [["x", "d", "a", "b"], []], code: "invalid_item_count",
                    message: "Invalid update: invalid number of items in section 0.  The number of items contained in an existing section after the update (4) must be equal to the number of items contained in that section before the update (3), plus or minus the number of items inserted or deleted from that section (2 inserted, 1 deleted) and plus or minus the number of items moved into or out of that section (1 moved in, 0 moved out)."),
        BatchRefusalCase(name: "item count with a move out",
                    operations: [.insertItems(at: [path(0, 0)], items: []), .deleteItems(at: [path(1, 1)]),
                                 .moveItem(from: path(1, 0), to: path(0, 1))],
                    after: [["x", "d", "a", "b", "c"], ["e"]], code: "invalid_item_count",
                    message: "Invalid update: invalid number of items in section 1.  The number of items contained in an existing section after the update (1) must be equal to the number of items contained in that section before the update (2), plus or minus the number of items inserted or deleted from that section (0 inserted, 1 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 1 moved out)."),
        BatchRefusalCase(name: "item count names the section's new index",
                    operations: [.moveSection(from: 0, to: 1), .insertItems(at: [path(0, 0)], items: [])],
                    after: [["d", "e"], ["a", "b", "c"]], code: "invalid_item_count",
                    message: "Invalid update: invalid number of items in section 0.  The number of items contained in an existing section after the update (2) must be equal to the number of items contained in that section before the update (2), plus or minus the number of items inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out)."),
        // our own refusals
        BatchRefusalCase(name: "items that do not match their index paths",
                    operations: [.insertItems(at: [path(0, 0), path(0, 1)], items: [item("x")])],
                    code: "payload_count_mismatch",
                    message: "insertItems was given 2 index paths but 1 item; give exactly one per position"),
        BatchRefusalCase(name: "sections that do not match their indices",
                    operations: [.reloadSections(at: [0], sections: [section("s0"), section("s9")])],
                    code: "payload_count_mismatch",
                    message: "reloadSections was given 1 section index but 2 sections; give exactly one per position"),
        BatchRefusalCase(name: "an insert without its item and without data after",
                    operations: [.insertItems(at: [path(0, 0)], items: [])], code: "missing_payload",
                    message: "insertItems was given 1 index path but no items, and the batch has no data after the update; give the items or the data after the update"),
        BatchRefusalCase(name: "a section insert without its section and without data after",
                    operations: [.insertSections(at: [0, 1], sections: [])], code: "missing_payload",
                    message: "insertSections was given 2 section indices but no sections, and the batch has no data after the update; give the sections or the data after the update"),
        BatchRefusalCase(name: "a reload that changes the item's identifier",
                    operations: [.reloadItems(at: [path(0, 1)], items: [item("z")])],
                    code: "reload_changes_item_identifier",
                    message: "attempt to reload the item at index path (\(ns(0, 1))) with a different identifier (z instead of b); delete it and insert the new item instead"),
        BatchRefusalCase(name: "a reload that changes the section's identifier",
                    operations: [.reloadSections(at: [1], sections: [section("t")])],
                    code: "reload_changes_section_identifier",
                    message: "attempt to reload section 1 with a different identifier (t instead of s1); delete it and insert the new section instead"),
        BatchRefusalCase(name: "an inserted item whose identifier stays in the data",
                    operations: [.insertItems(at: [path(1, 0), path(1, 1)], items: [item("e"), item("b")])],
                    code: "duplicate_item_identifiers",
                    message: "item identifiers must be unique across all sections; duplicated: b, e"),
        BatchRefusalCase(name: "two inserted items with one identifier",
                    operations: [.insertItems(at: [path(1, 0)], items: [item("q")]),
                                 .insertSections(at: [0], sections: [section("n", ["q"])])],
                    code: "duplicate_item_identifiers",
                    message: "item identifiers must be unique across all sections; duplicated: q"),
        BatchRefusalCase(name: "an inserted section whose identifier stays in the data",
                    operations: [.insertSections(at: [0], sections: [section("s1")])],
                    code: "duplicate_section_identifiers",
                    message: "section identifiers must be unique; duplicated: s1"),
    ]

    @Test(arguments: cases)
    func refusalHasUIKitsTextAndACode(_ fault: BatchRefusalCase) throws {
        let data = try batchData(fault.data)
        let after = try fault.after.map(batchData)
        let error = refusal(fault.operations, on: data, after: after)
        #expect(error?.code == fault.code)
        #expect(error?.message == fault.message)
        #expect(error?.description == fault.message)
    }

    @Test func negativeCountMessageMatchesUXK() {
        // Unreachable through apply (deletes and moves are checked first), so the text is checked directly.
        let error = UpdateError.negativeItemCount(section: 3)
        #expect(error.code == "negative_item_count")
        #expect(error.message == "Invalid update: invalid number of items in section 3.  Attempt to delete more items than exist in section.")
    }

    @Test func detailsCarryTheNumbers() throws {
        let data = try batchData([["a", "b", "c"], ["d", "e"]])
        let error = refusal([.insertItems(at: [path(0, 0)], items: []), .deleteItems(at: [path(1, 1)]),
                             .moveItem(from: path(1, 0), to: path(0, 1))],
                            on: data, after: try batchData([["x", "d", "a", "b", "c"], ["e"]]))
        #expect(error?.details == ["section": .int(1), "after": .int(1), "before": .int(2),
                                   "inserted": .int(0), "deleted": .int(1),
                                   "movedIn": .int(0), "movedOut": .int(1)])
        let move = refusal([.moveItem(from: path(0, 0), to: path(3, 0))], on: data)
        #expect(move?.details["indexPath"] == .indexPath(path(0, 0)))
        #expect(move?.details["toIndexPath"] == .indexPath(path(3, 0)))
        #expect(move?.details["sectionCount"] == .int(2))
    }
}

// MARK: - Which fault wins

@Suite struct BatchUpdateOrderTests {
    let data: CollectionData

    init() throws { data = try batchData([["a", "b", "c"], ["d", "e"]]) }

    @Test func reloadConflictBeforeDeleteRange() {
        let error = refusal([.deleteItems(at: [path(0, 9), path(0, 1)]), .reloadItems(at: [path(0, 1)], items: nil)],
                            on: data)
        #expect(error?.code == "delete_and_reload_same_index_path")
    }

    @Test func deletesBeforeInserts() {
        let error = refusal([.insertItems(at: [path(0, 9)], items: [Item(id: "x")]), .deleteItems(at: [path(0, 9)])],
                            on: data)
        #expect(error?.code == "delete_item_out_of_range")
    }

    @Test func insertsBeforeMoves() {
        let error = refusal([.moveItem(from: path(1, 9), to: path(0, 0)),
                             .insertItems(at: [path(7, 0)], items: [Item(id: "x")])], on: data)
        #expect(error?.code == "insert_item_section_out_of_range")
    }

    @Test func movesBeforeCounts() throws {
        let error = refusal([.moveItem(from: path(1, 9), to: path(0, 0))], on: data,
                            after: try batchData([["a"], ["b"], ["c"]]))
        #expect(error?.code == "move_item_out_of_range")
    }

    @Test func sectionCountBeforeItemCounts() throws {
        let error = refusal([.insertSections(at: [0], sections: [])], on: data, after: try batchData([["a"], ["b"]]))
        #expect(error?.code == "invalid_section_count")
    }

    @Test func deletesAreCheckedFromTheLastIndexPath() {
        let error = refusal([.deleteItems(at: [path(0, 10), path(0, 20)])], on: data)
        #expect(error?.message == "attempt to delete item 20 from section 0 which only contains 3 items before the update")
    }

    @Test func insertsAreCheckedFromTheFirstIndexPath() {
        let error = refusal([.insertItems(at: [path(1, 20), path(1, 10)], items: [Item(id: "x"), Item(id: "y")])],
                            on: data)
        #expect(error?.message == "attempt to insert item 10 into section 1, but there are only 4 items in section 1 after the update")
    }

    @Test func aSectionDeleteComesBeforeTheItemsInIt() {
        // The item delete inside it is out of range too: the section's own check comes first.
        let error = refusal([.deleteSections(at: [3]), .deleteItems(at: [path(3, 0)])], on: data)
        #expect(error?.code == "delete_section_out_of_range")
    }

    @Test func anItemMoveOutOfADeletedSectionIsReportedBeforeTheSectionMove() throws {
        let three = try batchData([["a", "b"], ["c"], ["d"]])
        let error = refusal([.deleteSections(at: [0]), .moveSection(from: 0, to: 1),
                             .moveItem(from: path(0, 1), to: path(1, 0))], on: three)
        #expect(error?.code == "move_from_deleted_section")
    }
}

// MARK: - What UIKit drops or tolerates

@Suite struct BatchUpdateToleranceTests {
    let data: CollectionData

    init() throws { data = try batchData([["a", "b", "c"], ["d", "e"]]) }

    @Test func itemDeletesInsideADeletedSectionAreDropped() throws {
        let result = try BatchUpdate([.deleteSections(at: [0]), .deleteItems(at: [path(0, 99), path(0, 1)]),
                                      .reloadItems(at: [path(0, 2)], items: nil)]).apply(to: data)
        #expect(itemIDs(result.data) == [["d", "e"]])
        #expect(result.deleted.isEmpty && result.reloaded.isEmpty)
        #expect(result.deletedSections == [0])
    }

    @Test func itemInsertsInsideAnInsertedSectionAreDropped() throws {
        let result = try BatchUpdate([.insertSections(at: [1], sections: [section("n", ["p"])]),
                                      .insertItems(at: [path(1, 50)], items: [Item(id: "x")])]).apply(to: data)
        #expect(itemIDs(result.data) == [["a", "b", "c"], ["p"], ["d", "e"]])
        #expect(result.inserted.isEmpty)
        #expect(result.insertedSections == [1])
    }

    @Test func exactDuplicateMovesCountOnce() throws {
        let move = UpdateOperation.moveItem(from: path(0, 0), to: path(1, 2))
        let result = try BatchUpdate([move, move]).apply(to: data)
        #expect(itemIDs(result.data) == [["b", "c"], ["d", "e", "a"]])
        #expect(result.moved == [.init(before: path(0, 0), after: path(1, 2))])
    }

    @Test func anIdentifierMayLeaveAndComeBackInOneBatch() throws {
        let result = try BatchUpdate([.deleteItems(at: [path(0, 0)]), .insertItems(at: [path(1, 0)], items: [Item(id: "a")])])
            .apply(to: data)
        #expect(itemIDs(result.data) == [["b", "c"], ["a", "d", "e"]])
        #expect(result.newIndexPath(for: path(0, 0)) == nil)
        #expect(result.oldIndexPath(for: path(1, 0)) == nil)
    }

    @Test func withDataAfterOnlyCountsRelateItToTheOperations() throws {
        // The client's data disagrees with which items survive; UIKit would not notice either.
        let after = try batchData([["z", "y"], ["x", "w", "v"]])
        let result = try BatchUpdate([.moveItem(from: path(0, 0), to: path(1, 2))], dataAfter: after).apply(to: data)
        #expect(result.data == after)
        #expect(result.newIndexPath(for: path(0, 0)) == path(1, 2))
    }

    @Test func emptyBatchIsTheIdentity() throws {
        let result = try BatchUpdate([]).apply(to: data)
        #expect(result.data == data)
        #expect(result.changedSections.isEmpty && !result.sectionCountChanged)
        #expect(result.newIndexPath(for: path(1, 1)) == path(1, 1))
        #expect(result.newIndexPath(for: path(1, 2)) == nil)
        #expect(result.sectionMapping == [0, 1])
    }
}

// MARK: - The data and mapping after a valid batch

@Suite struct BatchUpdateMappingTests {
    /// Deletes, inserts, moves both ways and a reload across two sections.
    static let mixed: [UpdateOperation] = [
        .deleteItems(at: [path(0, 1)]),                                   // b
        .insertItems(at: [path(1, 0)], items: [Item(id: "x")]),
        .moveItem(from: path(0, 3), to: path(1, 2)),                      // d
        .moveItem(from: path(1, 2), to: path(0, 0)),                      // g
        .reloadItems(at: [path(0, 2)], items: [Item(id: "c", size: Size(width: 7, height: 7))]),
    ]

    @Test func mixedBatchAcrossTwoSections() throws {
        let data = try batchData([["a", "b", "c", "d"], ["e", "f", "g"]])
        let result = try BatchUpdate(Self.mixed).apply(to: data)
        #expect(itemIDs(result.data) == [["g", "a", "c"], ["x", "e", "d", "f"]])
        #expect(result.data[path(0, 2)].size == Size(width: 7, height: 7))
        let forward: [(IndexPath, IndexPath?)] = [
            (path(0, 0), path(0, 1)), (path(0, 1), nil), (path(0, 2), path(0, 2)), (path(0, 3), path(1, 2)),
            (path(1, 0), path(1, 1)), (path(1, 1), path(1, 3)), (path(1, 2), path(0, 0)),
        ]
        for (old, new) in forward { #expect(result.newIndexPath(for: old) == new, "old \(old)") }
        let backward: [(IndexPath, IndexPath?)] = [
            (path(0, 0), path(1, 2)), (path(0, 1), path(0, 0)), (path(0, 2), path(0, 2)),
            (path(1, 0), nil), (path(1, 1), path(1, 0)), (path(1, 2), path(0, 3)), (path(1, 3), path(1, 1)),
        ]
        for (new, old) in backward { #expect(result.oldIndexPath(for: new) == old, "new \(new)") }
        #expect(result.newIndexPath(for: path(0, 4)) == nil && result.oldIndexPath(for: path(1, 4)) == nil)
        #expect(result.inserted == [path(1, 0)])
        #expect(result.deleted == [path(0, 1)])
        #expect(result.moved == [.init(before: path(0, 3), after: path(1, 2)), .init(before: path(1, 2), after: path(0, 0))])
        #expect(result.reloaded == [.init(before: path(0, 2), after: path(0, 2))])
        #expect(result.changedSections == [0, 1])
        #expect(!result.sectionCountChanged)
        #expect(result.sectionMapping == [0, 1])
    }

    @Test func dataAfterGivesTheSameMapping() throws {
        let data = try batchData([["a", "b", "c", "d"], ["e", "f", "g"]])
        let derived = try BatchUpdate(Self.mixed).apply(to: data)
        let given = try BatchUpdate(Self.mixed, dataAfter: derived.data).apply(to: data)
        #expect(given == derived)
    }

    @Test func reloadKeepsIdentityAndPosition() throws {
        let data = try batchData([["a", "b", "c"]])
        let result = try BatchUpdate([.reloadItems(at: [path(0, 2)], items: nil), .deleteItems(at: [path(0, 0)]),
                                      .insertItems(at: [path(0, 0), path(0, 1)], items: [Item(id: "x"), Item(id: "y")])])
            .apply(to: data)
        // UXK's adjusted insert: 2 - 1 deleted before it + 2 inserted at or before it = 3.
        #expect(itemIDs(result.data) == [["x", "y", "b", "c"]])
        #expect(result.reloaded == [.init(before: path(0, 2), after: path(0, 3))])
        #expect(result.newIndexPath(for: path(0, 2)) == path(0, 3))
        #expect(result.data[path(0, 3)] == data[path(0, 2)])
    }

    @Test func sectionOperations() throws {
        let data = try batchData([["a"], ["b", "c"], ["d"], ["e"]])
        let result = try BatchUpdate([
            .deleteSections(at: [0]),
            .insertSections(at: [1], sections: [section("n", ["p", "q"])]),
            .moveSection(from: 3, to: 0),
            .reloadSections(at: [2], sections: [section("s2", ["r", "d"])]),
            .insertItems(at: [path(2, 0)], items: [Item(id: "x")]),        // into old section 1, now 2
        ]).apply(to: data)
        #expect(result.data.sections.map(\.id.rawValue) == ["s3", "n", "s1", "s2"])
        #expect(itemIDs(result.data) == [["e"], ["p", "q"], ["x", "b", "c"], ["r", "d"]])
        #expect(result.sectionMapping == [nil, 2, 3, 0])
        #expect(result.oldSection(for: 1) == nil && result.oldSection(for: 3) == 2 && result.newSection(for: 9) == nil)
        #expect(result.insertedSections == [1] && result.deletedSections == [0])
        #expect(result.movedSections == [.init(before: 3, after: 0)])
        #expect(result.reloadedSections == [.init(before: 2, after: 3)])
        // Section 0 holds old section 3 now: its items did not change, but its index did.
        #expect(result.changedSections == [0, 1, 2, 3])
        #expect(!result.sectionCountChanged)
        // Items of a reloaded section correspond by identifier.
        #expect(result.newIndexPath(for: path(2, 0)) == path(3, 1))
        #expect(result.oldIndexPath(for: path(3, 0)) == nil)
        #expect(result.newIndexPath(for: path(1, 1)) == path(2, 2))
        #expect(result.newIndexPath(for: path(3, 0)) == path(0, 0))
        #expect(result.newIndexPath(for: path(0, 0)) == nil)
    }

    @Test func anItemMoveInsideAMovedSectionIsNotACrossSectionMove() throws {
        // Old section 0 becomes section 1: moving (0, 0) to (1, 1) stays in the section, so the
        // count check (dataAfter) sees no move in or out.
        let data = try batchData([["a", "b"], ["c"]])
        let after = try batchData([["c"], ["b", "a"]])
        let result = try BatchUpdate([.moveSection(from: 0, to: 1), .moveItem(from: path(0, 0), to: path(1, 1))],
                                     dataAfter: after).apply(to: data)
        #expect(result.newIndexPath(for: path(0, 0)) == path(1, 1))
        #expect(result.newIndexPath(for: path(0, 1)) == path(1, 0))
        #expect(result.newIndexPath(for: path(1, 0)) == path(0, 0))
    }

    @Test func aRefusedBatchLeavesTheDataUntouched() throws {
        let data = try batchData([["a", "b", "c"], ["d", "e"]])
        let before = data
        var update = BatchUpdate([.deleteItems(at: [path(0, 0)]), .insertItems(at: [path(0, 9)], items: [Item(id: "x")])])
        #expect(throws: UpdateError.self) { try update.apply(to: data) }
        #expect(data == before)
        update.operations.removeLast()
        #expect(try update.apply(to: data).data.totalItemCount == 4)
        #expect(data == before)
    }

    @Test func dataAfterThatChangesAnUntouchedSectionMarksItChanged() throws {
        let data = try batchData([["a", "b"], ["c"]])
        let after = try CollectionData(sections: [
            Section(id: "s0", items: [Item(id: "b")]),
            Section(id: "s1", items: [Item(id: "c", size: Size(width: 1, height: 2))]),
        ])
        let result = try BatchUpdate([.deleteItems(at: [path(0, 0)])], dataAfter: after).apply(to: data)
        #expect(result.changedSections == [0, 1])
    }
}
