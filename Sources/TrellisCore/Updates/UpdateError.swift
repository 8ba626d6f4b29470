/// Why a batch update was refused: UIKit's exception text, a stable code, and the numbers involved.
///
/// `message` is the reason UIKit would have raised (NSInternalInconsistencyException) for the same
/// batch, character for character, including the two spaces after "section N." in the count
/// messages and the "to to" of the section-move message. Where UIKit's text embeds an NSIndexPath
/// (`%@`), it prints as `<NSIndexPath> {length = 2, path = 0 - 94}`: UIKit prints the object's
/// address after "NSIndexPath:", which means nothing outside one process and would make messages
/// unstable, so the address is left out and everything else is kept.
///
/// Refusals UIKit has no text for (it crashes later, or our operations carry data it does not)
/// get messages in the same style, marked as ours on their factory below.
public struct UpdateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable name of the fault, one per message form (e.g. "invalid_item_count").
    public var code: String
    /// The human-readable reason (UIKit's text where UIKit has one).
    public var message: String
    /// The numbers and index paths named in the message (keys are camelCase).
    public var details: [String: UpdateErrorDetail]

    public init(code: String, message: String, details: [String: UpdateErrorDetail] = [:]) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { message }
}

// MARK: - Formatting

extension UpdateError {
    /// UIKit's section-level update items carry `item == NSNotFound` (NSIntegerMax on 64-bit), and
    /// that is what their index path prints.
    static let notFound = Int.max

    /// NSIndexPath's description without the object address (see the type's comment).
    static func describe(_ path: IndexPath) -> String {
        "<NSIndexPath> {length = 2, path = \(path.section) - \(path.item)}"
    }

    static func detail(_ value: Int) -> UpdateErrorDetail { .int(value) }

    static func detail(_ path: IndexPath) -> UpdateErrorDetail { .indexPath(path) }

    /// A refusal about one section: its code, message and the section as its details.
    static func about(section: Int, _ code: String, _ message: String) -> UpdateError {
        UpdateError(code: code, message: message, details: ["section": detail(section)])
    }

    /// A refusal about one section checked against the number of sections.
    static func about(section: Int, sectionCount: Int, _ code: String, _ message: String) -> UpdateError {
        UpdateError(code: code, message: message, details: ["section": detail(section), "sectionCount": detail(sectionCount)])
    }

    /// A refusal about one item checked against a count (`sectionCount` or `itemCount`).
    static func about(item path: IndexPath, _ countKey: String, _ count: Int, _ code: String, _ message: String) -> UpdateError {
        UpdateError(code: code, message: message,
                    details: ["section": detail(path.section), "item": detail(path.item), countKey: detail(count)])
    }

    /// A refusal about one index path: its code, message and the path as its details.
    static func about(indexPath: IndexPath, _ code: String, _ message: String) -> UpdateError {
        UpdateError(code: code, message: message, details: ["indexPath": detail(indexPath)])
    }
}

// MARK: - Reload conflicts (checked first)

extension UpdateError {
    /// UIKit: a reload index path that is also deleted.
    static func deleteAndReloadSameIndexPath(_ path: IndexPath) -> UpdateError {
        about(indexPath: path, "delete_and_reload_same_index_path", "attempt to delete and reload the same index path (\(describe(path)))")
    }

    /// A reloaded section that is also deleted. UIKit compares the two section-level update items
    /// with the same check as items (UXK), so the message prints the section's index path with
    /// NSNotFound as the item; a separate code keeps it distinguishable.
    static func deleteAndReloadSameSection(_ section: Int) -> UpdateError {
        about(section: section, "delete_and_reload_same_section", "attempt to delete and reload the same index path (\(describe(IndexPath(section, notFound))))")
    }

    /// Ours: the same index path reloaded twice (two replacements for one item would be ambiguous).
    static func duplicateReloadIndexPath(_ path: IndexPath) -> UpdateError {
        about(indexPath: path, "duplicate_reload_index_path", "attempt to reload the same index path more than once (\(describe(path)))")
    }

    /// Ours: the same section reloaded twice.
    static func duplicateReloadSection(_ section: Int) -> UpdateError {
        about(section: section, "duplicate_reload_section", "attempt to reload section \(section) more than once")
    }
}

// MARK: - Deletes (against the data before the update)

extension UpdateError {
    static func deleteSectionOutOfRange(_ section: Int, sectionCount: Int) -> UpdateError {
        about(section: section, sectionCount: sectionCount, "delete_section_out_of_range", "attempt to delete section \(section), but there are only \(sectionCount) sections before the update")
    }

    static func deleteAndMoveSameSection(_ section: Int) -> UpdateError {
        about(section: section, "delete_and_move_same_section", "attempt to perform a delete and a move from the same section (\(section))")
    }

    static func deleteAndMoveSameIndexPath(_ path: IndexPath) -> UpdateError {
        about(indexPath: path, "delete_and_move_same_index_path", "attempt to perform a delete and a move from the same index path (\(describe(path)))")
    }

    static func moveFromDeletedSection(_ section: Int) -> UpdateError {
        about(section: section, "move_from_deleted_section", "cannot move an item from a deleted section (\(section))")
    }

    static func deleteItemSectionOutOfRange(_ path: IndexPath, sectionCount: Int) -> UpdateError {
        about(item: path, "sectionCount", sectionCount, "delete_item_section_out_of_range", "attempt to delete item \(path.item) from section \(path.section), but there are only \(sectionCount) sections before the update")
    }

    static func deleteItemOutOfRange(_ path: IndexPath, itemCount: Int) -> UpdateError {
        about(item: path, "itemCount", itemCount, "delete_item_out_of_range", "attempt to delete item \(path.item) from section \(path.section) which only contains \(itemCount) items before the update")
    }

    /// Ours: UIKit accepts the same index path twice in one batch and then crashes with
    /// EXC_BAD_ACCESS while laying out (radar 31786176), so there is no UIKit text to copy.
    static func duplicateDeleteIndexPath(_ path: IndexPath) -> UpdateError {
        about(indexPath: path, "duplicate_delete_index_path", "attempt to delete the same index path more than once (\(describe(path)))")
    }

    /// Ours: UIKit would count the section twice and fail the section count check with a
    /// misleading total; naming the duplicate is more useful.
    static func duplicateDeleteSection(_ section: Int) -> UpdateError {
        about(section: section, "duplicate_delete_section", "attempt to delete section \(section) more than once")
    }
}

// MARK: - Inserts (against the data after the update)

extension UpdateError {
    /// UIKit's text has no comma here, unlike the delete message.
    static func insertSectionOutOfRange(_ section: Int, sectionCount: Int) -> UpdateError {
        about(section: section, sectionCount: sectionCount, "insert_section_out_of_range", "attempt to insert section \(section) but there are only \(sectionCount) sections after the update")
    }

    static func insertAndMoveSameSection(_ section: Int) -> UpdateError {
        about(section: section, "insert_and_move_same_section", "attempt to perform an insert and a move to the same section (\(section))")
    }

    static func insertAndMoveSameIndexPath(_ path: IndexPath) -> UpdateError {
        about(indexPath: path, "insert_and_move_same_index_path", "attempt to perform an insert and a move to the same index path (\(describe(path)))")
    }

    static func moveIntoInsertedSection(_ section: Int) -> UpdateError {
        about(section: section, "move_into_inserted_section", "cannot move an item into a newly inserted section (\(section))")
    }

    static func insertItemSectionOutOfRange(_ path: IndexPath, sectionCount: Int) -> UpdateError {
        about(item: path, "sectionCount", sectionCount, "insert_item_section_out_of_range", "attempt to insert item \(path.item) into section \(path.section), but there are only \(sectionCount) sections after the update")
    }

    public static func insertItemOutOfRange(_ path: IndexPath, itemCount: Int) -> UpdateError {
        about(item: path, "itemCount", itemCount, "insert_item_out_of_range", "attempt to insert item \(path.item) into section \(path.section), but there are only \(itemCount) items in section \(path.section) after the update")
    }

    /// Ours: UIKit counts a repeated insert twice; two items cannot occupy one index path, so the
    /// result could not be built.
    public static func duplicateInsertIndexPath(_ path: IndexPath) -> UpdateError {
        about(indexPath: path, "duplicate_insert_index_path", "attempt to insert at the same index path more than once (\(describe(path)))")
    }

    /// Ours: the same section index inserted twice.
    static func duplicateInsertSection(_ section: Int) -> UpdateError {
        about(section: section, "duplicate_insert_section", "attempt to insert section \(section) more than once")
    }
}

// MARK: - Moves

extension UpdateError {
    static func moveSectionOutOfRange(_ section: Int, sectionCount: Int) -> UpdateError {
        about(section: section, sectionCount: sectionCount, "move_section_out_of_range", "attempt to move section \(section), but there are only \(sectionCount) sections before the update")
    }

    /// "to to" is UIKit's typo, kept so messages compare equal.
    static func moveSectionDestinationOutOfRange(from: Int, to: Int, sectionCount: Int) -> UpdateError {
        UpdateError(code: "move_section_destination_out_of_range",
                    message: "attempt to to move section \(from) to section \(to), but there are only \(sectionCount) sections after the update",
                    details: ["section": detail(from), "toSection": detail(to), "sectionCount": detail(sectionCount)])
    }

    static func moveItemSectionOutOfRange(_ from: IndexPath, sectionCount: Int) -> UpdateError {
        UpdateError(code: "move_item_section_out_of_range",
                    message: "attempt to move index path (\(describe(from))) from a section that does not exist - there are only \(sectionCount) sections before the update",
                    details: ["indexPath": detail(from), "sectionCount": detail(sectionCount)])
    }

    static func moveItemOutOfRange(_ from: IndexPath, itemCount: Int) -> UpdateError {
        UpdateError(code: "move_item_out_of_range",
                    message: "attempt to move index path (\(describe(from))) that does not exist - there are only \(itemCount) items in section \(from.section) before the update",
                    details: ["indexPath": detail(from), "itemCount": detail(itemCount)])
    }

    static func moveItemDestinationSectionOutOfRange(_ from: IndexPath, to: IndexPath, sectionCount: Int) -> UpdateError {
        UpdateError(code: "move_item_destination_section_out_of_range",
                    message: "attempt to move index path (\(describe(from))) to index path (\(describe(to))) in section that does not exist - there are only \(sectionCount) sections after the update",
                    details: ["indexPath": detail(from), "toIndexPath": detail(to), "sectionCount": detail(sectionCount)])
    }

    static func moveItemDestinationOutOfRange(_ from: IndexPath, to: IndexPath, itemCount: Int) -> UpdateError {
        UpdateError(code: "move_item_destination_out_of_range",
                    message: "attempt to move index path (\(describe(from))) to index path (\(describe(to))) that does not exist - there are only \(itemCount) items in section \(to.section) after the update",
                    details: ["indexPath": detail(from), "toIndexPath": detail(to), "itemCount": detail(itemCount)])
    }

    static func moveItemToTwoDestinations(_ from: IndexPath, _ to: IndexPath, _ otherTo: IndexPath) -> UpdateError {
        UpdateError(code: "move_item_to_two_destinations",
                    message: "attempt to move item at index path \(describe(from)) to both \(describe(to)) and \(describe(otherTo))",
                    details: ["indexPath": detail(from), "toIndexPath": detail(to), "otherToIndexPath": detail(otherTo)])
    }

    static func moveItemsToSameDestination(_ from: IndexPath, _ otherFrom: IndexPath, _ to: IndexPath) -> UpdateError {
        UpdateError(code: "move_items_to_same_destination",
                    message: "attempt to move both item at index path \(describe(from)) and \(describe(otherFrom)) to \(describe(to))",
                    details: ["indexPath": detail(from), "otherIndexPath": detail(otherFrom), "toIndexPath": detail(to)])
    }

    static func moveSectionToTwoDestinations(_ from: Int, _ to: Int, _ otherTo: Int) -> UpdateError {
        UpdateError(code: "move_section_to_two_destinations",
                    message: "attempt to move section \(from) to both section \(to) and section \(otherTo)",
                    details: ["section": detail(from), "toSection": detail(to), "otherToSection": detail(otherTo)])
    }

    static func moveSectionsToSameDestination(_ from: Int, _ otherFrom: Int, _ to: Int) -> UpdateError {
        UpdateError(code: "move_sections_to_same_destination",
                    message: "attempt to move both section \(from) and section \(otherFrom) to section \(to)",
                    details: ["section": detail(from), "otherSection": detail(otherFrom), "toSection": detail(to)])
    }
}

// MARK: - Counts (checked last)

extension UpdateError {
    static func invalidSectionCount(after: Int, before: Int, inserted: Int, deleted: Int) -> UpdateError {
        UpdateError(code: "invalid_section_count",
                    message: "Invalid update: invalid number of sections.  The number of sections contained in the collection view after the update (\(after)) must be equal to the number of sections contained in the collection view before the update (\(before)), plus or minus the number of sections inserted or deleted (\(inserted) inserted, \(deleted) deleted).",
                    details: ["after": detail(after), "before": detail(before), "inserted": detail(inserted), "deleted": detail(deleted)])
    }

    /// `section` is the section's index after the update, as UIKit prints it.
    static func invalidItemCount(section: Int, after: Int, before: Int, inserted: Int, deleted: Int,
                                 movedIn: Int, movedOut: Int) -> UpdateError {
        UpdateError(code: "invalid_item_count",
                    message: "Invalid update: invalid number of items in section \(section).  The number of items contained in an existing section after the update (\(after)) must be equal to the number of items contained in that section before the update (\(before)), plus or minus the number of items inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of items moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out).",
                    details: ["section": detail(section), "after": detail(after), "before": detail(before),
                              "inserted": detail(inserted), "deleted": detail(deleted),
                              "movedIn": detail(movedIn), "movedOut": detail(movedOut)])
    }

    /// `section` is the section's index before the update, as UXK prints it.
    static func negativeItemCount(section: Int) -> UpdateError {
        about(section: section, "negative_item_count", "Invalid update: invalid number of items in section \(section).  Attempt to delete more items than exist in section.")
    }
}

// MARK: - Our operations' own data (no UIKit counterpart)

extension UpdateError {
    /// `operation` names the call ("insertItems", "reloadItems", "insertSections", "reloadSections");
    /// `positions` counts its index paths (or section indices), `payloads` the items (or sections).
    static func payloadCountMismatch(operation: String, positions: Int, payloads: Int, noun: String) -> UpdateError {
        UpdateError(code: "payload_count_mismatch",
                    message: "\(operation) was given \(positions) \(positionNoun(operation, positions)) but \(payloads) \(plural(noun, payloads)); give exactly one per position",
                    details: ["operation": .string(operation), "positions": detail(positions), "payloads": detail(payloads)])
    }

    /// Without the data after the update, inserted items and sections can only come from the operation.
    static func missingPayload(operation: String, positions: Int, noun: String) -> UpdateError {
        UpdateError(code: "missing_payload",
                    message: "\(operation) was given \(positions) \(positionNoun(operation, positions)) but no \(noun)s, and the batch has no data after the update; give the \(noun)s or the data after the update",
                    details: ["operation": .string(operation), "positions": detail(positions)])
    }

    private static func positionNoun(_ operation: String, _ count: Int) -> String {
        operation.hasSuffix("Sections") ? plural("section index", count, "section indices") : plural("index path", count)
    }

    private static func plural(_ noun: String, _ count: Int, _ many: String? = nil) -> String {
        count == 1 ? noun : many ?? noun + "s"
    }

    /// A reload keeps the item's identity (UpdateOperation's contract); only its content changes.
    static func reloadChangesItemIdentifier(_ path: IndexPath, old: ItemID, new: ItemID) -> UpdateError {
        UpdateError(code: "reload_changes_item_identifier",
                    message: "attempt to reload the item at index path (\(describe(path))) with a different identifier (\(new.rawValue) instead of \(old.rawValue)); delete it and insert the new item instead",
                    details: ["indexPath": detail(path), "identifier": .string(old.rawValue), "newIdentifier": .string(new.rawValue)])
    }

    /// A reload keeps the section's identity; only its items change.
    static func reloadChangesSectionIdentifier(_ section: Int, old: SectionID, new: SectionID) -> UpdateError {
        UpdateError(code: "reload_changes_section_identifier",
                    message: "attempt to reload section \(section) with a different identifier (\(new.rawValue) instead of \(old.rawValue)); delete it and insert the new section instead",
                    details: ["section": detail(section), "identifier": .string(old.rawValue), "newIdentifier": .string(new.rawValue)])
    }

    /// Same wording as `DataError`, so a client sees one message for one fault wherever it arises.
    static func duplicateItemIdentifiers(_ ids: [ItemID]) -> UpdateError {
        UpdateError(code: "duplicate_item_identifiers",
                    message: DataError.duplicateItemIdentifiers(ids).description,
                    details: ["identifiers": .strings(ids.map(\.rawValue))])
    }

    static func duplicateSectionIdentifiers(_ ids: [SectionID]) -> UpdateError {
        UpdateError(code: "duplicate_section_identifiers",
                    message: DataError.duplicateSectionIdentifiers(ids).description,
                    details: ["identifiers": .strings(ids.map(\.rawValue))])
    }
}
