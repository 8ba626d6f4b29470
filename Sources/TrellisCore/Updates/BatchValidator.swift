/// Checks a batch against the data before it, in UIKit's order, and resolves it into a `BatchPlan`.
///
/// The order is UIKit's `_endItemAnimations` as UXK reconstructs it (reference §1.3), and the
/// first fault is thrown with UIKit's text:
/// 0. our own shape checks (payload counts), which UIKit would raise at the call itself;
/// 1. reloads against deletes;
/// 2. deletes against the data before (section deletes drop the item deletes and reloads inside
///    them; moves out of a deleted section, or from a deleted index path, are refused);
/// 3. inserts against the data after (the mirror image, with inserted and reloaded sections);
/// 4. moves (source before, destination after; exact duplicates dropped; one source to two
///    destinations, or two sources to one destination, refused);
/// 5. the number of sections; 6. the number of items in every section that existed before.
///
/// Inside one step the operations are visited in UIKit's sorted order, so which of two faults is
/// reported never depends on the order of the calls: deletes descending, inserts, reloads and
/// moves ascending. Where UIKit's comparator leaves the order of a section operation and the item
/// operations inside that section undefined, the section operation goes first for deletes and
/// inserts (its items are then dropped whatever their index) and last for reloads and moves (as
/// NSNotFound sorts).
///
/// Decisions where UIKit is unconfirmed:
/// - A reload is UIKit's delete at the old path plus an insert where the item lands; that place is
///   computed exactly (among the items that stay, after the batch's deletes, moves and inserts),
///   which is UXK's adjustment when no moves are involved. Reload inserts are therefore not
///   range-checked as inserts (a wrong `dataAfter` is reported by the count check), but they do
///   count as 1 inserted and 1 deleted in the count message, as UIKit prints them.
/// - A reload of an item inside a deleted or reloaded section is dropped, like a delete there.
/// - Moves count as moved in/out when the destination section is not where the source section
///   goes (so a move inside a moved section is not a cross-section move); UXK compares the raw
///   section numbers, which refuses some consistent batches.
/// - Negative indices fail the same range checks as UIKit's unsigned ones and print as negative.
struct BatchValidator {
    let old: CollectionData
    let dataAfter: CollectionData?
    let operations: [UpdateOperation]

    init(old: CollectionData, batch: BatchUpdate) {
        self.old = old
        dataAfter = batch.dataAfter
        operations = batch.operations
    }

    func validate() throws(UpdateError) -> BatchPlan {
        let input = try gather()
        try checkReloads(input)
        let (deletes, reloads) = try checkDeletes(input)

        let oldCount = old.sections.count
        let newCount = dataAfter?.sections.count
            ?? oldCount - input.sectionDeletes.count + Set(input.sectionInserts.map(\.index)).count
        let reloadedSections = Set(input.sectionReloads.map(\.index))
        let sectionMoves = input.moves.filter(\.isSection).map { (from: $0.from.section, to: $0.to.section) }
        let placement = SectionPlacement(oldCount: oldCount, newCount: newCount,
                                         inserted: input.sectionInserts.map(\.index),
                                         deleted: Set(input.sectionDeletes), reloaded: reloadedSections,
                                         moves: sectionMoves)
        let reloadSlots = input.sectionReloads.compactMap { placement.newIndex[$0.index] }
        let insertedSections = Set(input.sectionInserts.map(\.index)).union(reloadSlots)
        let tally = Tally(old: old, newCount: newCount, placement: placement, deletes: deletes, reloads: reloads,
                          inserts: input.itemInserts, insertedSections: insertedSections, moves: input.moves)
        let newItemCounts = dataAfter?.sections.map(\.count)
            ?? derivedItemCounts(placement: placement, tally: tally, input: input)

        let inserts = try checkInserts(input, newCount: newCount, newItemCounts: newItemCounts,
                                       reloadSlots: reloadSlots, insertedSections: insertedSections)
        try checkMoves(input.moves, newCount: newCount, newItemCounts: newItemCounts)
        try checkSectionCount(input, newCount: newCount)
        try checkItemCounts(placement: placement, tally: tally, newItemCounts: newItemCounts)

        var plan = BatchPlan(placement: placement, newItemCounts: newItemCounts)
        plan.itemInserts = inserts
        plan.itemDeletes = deletes
        plan.itemReloads = reloads
        plan.itemMoves = input.moves.filter { !$0.isSection }.map { BatchPlan.ItemMove(from: $0.from, to: $0.to) }
        plan.sectionInserts = input.sectionInserts.sorted { $0.index < $1.index }
        plan.sectionDeletes = input.sectionDeletes.sorted()
        plan.sectionMoves = sectionMoves
        plan.sectionReloads = input.sectionReloads.sorted { $0.index < $1.index }
        return plan
    }
}

/// `0..<count` containment that does not trap when an inconsistent batch makes `count` negative.
@inline(__always) fileprivate func isIndex(_ index: Int, below count: Int) -> Bool { index >= 0 && index < count }

// MARK: - Gathering

extension BatchValidator {
    /// A move during validation; section moves use item 0 on both sides and never equal an item move.
    struct Move: Hashable {
        var isSection: Bool
        var from: IndexPath
        var to: IndexPath

        /// Ascending by source; a section's own move after the item moves out of it (NSNotFound
        /// sorts last), then by destination so that exact duplicates are neighbours.
        static func ascending(_ a: Move, _ b: Move) -> Bool {
            if a.from.section != b.from.section { return a.from.section < b.from.section }
            if a.isSection != b.isSection { return !a.isSection }
            if a.from.item != b.from.item { return a.from.item < b.from.item }
            return a.to < b.to
        }
    }

    /// The batch's operations by kind, before any check of UIKit's.
    struct Input {
        var itemInserts: [BatchPlan.ItemEntry] = []
        var itemDeletes: [IndexPath] = []
        var itemReloads: [BatchPlan.ItemEntry] = []
        var sectionInserts: [BatchPlan.SectionEntry] = []
        var sectionDeletes: [Int] = []
        var sectionReloads: [BatchPlan.SectionEntry] = []
        /// Sorted with `Move.ascending`, exact duplicates removed.
        var moves: [Move] = []
    }

    /// A sort key shared by the per-step orders: `rank` places a section's own operation
    /// before or after the item operations inside that section.
    struct Key: Comparable {
        var section: Int
        var rank: Int
        var item: Int

        static func < (a: Key, b: Key) -> Bool {
            (a.section, a.rank, a.item) < (b.section, b.rank, b.item)
        }
    }

    func gather() throws(UpdateError) -> Input {
        var input = Input()
        var moves: [Move] = []
        for operation in operations {
            switch operation {
            case .insertItems(let paths, let items):
                try checkPayload(operation: "insertItems", indices: paths.count, payloads: items.count,
                                 required: true, noun: "item")
                for (k, path) in paths.enumerated() {
                    input.itemInserts.append(.init(path: path, item: items.isEmpty ? nil : items[k]))
                }
            case .deleteItems(let paths):
                input.itemDeletes += paths
            case .moveItem(let from, let to):
                moves.append(Move(isSection: false, from: from, to: to))
            case .reloadItems(let paths, let items):
                if let items {
                    try checkPayload(operation: "reloadItems", indices: paths.count, payloads: items.count,
                                     required: false, noun: "item")
                }
                for (k, path) in paths.enumerated() {
                    input.itemReloads.append(.init(path: path, item: items.map { $0[k] }))
                }
            case .insertSections(let indices, let sections):
                try checkPayload(operation: "insertSections", indices: indices.count, payloads: sections.count,
                                 required: true, noun: "section")
                for (k, index) in indices.enumerated() {
                    input.sectionInserts.append(.init(index: index, section: sections.isEmpty ? nil : sections[k]))
                }
            case .deleteSections(let indices):
                input.sectionDeletes += indices
            case .moveSection(let from, let to):
                moves.append(Move(isSection: true, from: IndexPath(from, 0), to: IndexPath(to, 0)))
            case .reloadSections(let indices, let sections):
                if let sections {
                    try checkPayload(operation: "reloadSections", indices: indices.count, payloads: sections.count,
                                     required: false, noun: "section")
                }
                for (k, index) in indices.enumerated() {
                    input.sectionReloads.append(.init(index: index, section: sections.map { $0[k] }))
                }
            }
        }
        moves.sort(by: Move.ascending)
        input.moves.reserveCapacity(moves.count)
        for move in moves where move != input.moves.last { input.moves.append(move) }
        return input
    }

    /// An empty payload means "take it from `dataAfter`", so it is only an error without one.
    private func checkPayload(operation: String, indices: Int, payloads: Int, required: Bool,
                              noun: String) throws(UpdateError) {
        if payloads == 0 && indices > 0 && required {
            if dataAfter == nil { throw .missingPayload(operation: operation, positions: indices, noun: noun) }
        } else if payloads != indices {
            throw .payloadCountMismatch(operation: operation, positions: indices, payloads: payloads, noun: noun)
        }
    }
}

// MARK: - Steps 1–2: reloads, deletes

extension BatchValidator {
    func checkReloads(_ input: Input) throws(UpdateError) {
        let deletedPaths = Set(input.itemDeletes), deletedSections = Set(input.sectionDeletes)
        var keys = input.itemReloads.map { Key(section: $0.path.section, rank: 0, item: $0.path.item) }
        keys += input.sectionReloads.map { Key(section: $0.index, rank: 1, item: 0) }
        keys.sort()
        var previous: Key?
        for key in keys {
            if key.rank == 1 {
                if key == previous { throw .duplicateReloadSection(key.section) }
                if deletedSections.contains(key.section) { throw .deleteAndReloadSameSection(key.section) }
            } else {
                let path = IndexPath(key.section, key.item)
                if key == previous { throw .duplicateReloadIndexPath(path) }
                if deletedPaths.contains(path) { throw .deleteAndReloadSameIndexPath(path) }
            }
            previous = key
        }
    }

    /// Returns the item deletes and reloads that take effect, each ascending.
    func checkDeletes(_ input: Input) throws(UpdateError) -> (deletes: [IndexPath], reloads: [BatchPlan.ItemEntry]) {
        let sectionCount = old.sections.count
        let goneSections = Set(input.sectionDeletes).union(input.sectionReloads.map(\.index))
        var firstMoveFrom: [Int: Move] = [:]
        var movedFrom = Set<IndexPath>()
        for move in input.moves {
            if firstMoveFrom[move.from.section] == nil { firstMoveFrom[move.from.section] = move }
            if !move.isSection { movedFrom.insert(move.from) }
        }

        // rank 1 for sections so that, descending, a section comes before the items inside it;
        // `reload` indexes input.itemReloads for a reload's delete half.
        var entries: [(key: Key, reload: Int?)] = []
        entries.reserveCapacity(input.itemDeletes.count + input.itemReloads.count + input.sectionDeletes.count)
        for path in input.itemDeletes { entries.append((Key(section: path.section, rank: 0, item: path.item), nil)) }
        for (k, reload) in input.itemReloads.enumerated() {
            entries.append((Key(section: reload.path.section, rank: 0, item: reload.path.item), k))
        }
        for section in input.sectionDeletes { entries.append((Key(section: section, rank: 1, item: 0), nil)) }
        for reload in input.sectionReloads { entries.append((Key(section: reload.index, rank: 1, item: 0), nil)) }
        entries.sort { $0.key > $1.key }

        var deletes: [IndexPath] = [], reloads: [BatchPlan.ItemEntry] = []
        var previous: Key?
        for (key, reload) in entries {
            if key.rank == 1 {
                let section = key.section
                guard isIndex(section, below: sectionCount) else {
                    throw .deleteSectionOutOfRange(section, sectionCount: sectionCount)
                }
                if key == previous { throw .duplicateDeleteSection(section) }
                if let move = firstMoveFrom[section] {
                    throw move.isSection ? .deleteAndMoveSameSection(section) : .moveFromDeletedSection(section)
                }
            } else {
                let path = IndexPath(key.section, key.item)
                if goneSections.contains(path.section) { continue }
                guard isIndex(path.section, below: sectionCount) else {
                    throw .deleteItemSectionOutOfRange(path, sectionCount: sectionCount)
                }
                let itemCount = old.sections[path.section].count
                guard isIndex(path.item, below: itemCount) else { throw .deleteItemOutOfRange(path, itemCount: itemCount) }
                if key == previous { throw .duplicateDeleteIndexPath(path) }
                if movedFrom.contains(path) { throw .deleteAndMoveSameIndexPath(path) }
                if let reload { reloads.append(input.itemReloads[reload]) } else { deletes.append(path) }
            }
            previous = key
        }
        return (deletes.reversed(), reloads.reversed())
    }
}

// MARK: - Step 3: inserts

extension BatchValidator {
    /// Returns the item inserts that take effect, ascending.
    func checkInserts(_ input: Input, newCount: Int, newItemCounts: [Int], reloadSlots: [Int],
                      insertedSections: Set<Int>) throws(UpdateError) -> [BatchPlan.ItemEntry] {
        var firstMoveInto: [Int: Move] = [:]
        var movedTo = Set<IndexPath>()
        for move in input.moves {
            if firstMoveInto[move.to.section] == nil { firstMoveInto[move.to.section] = move }
            if !move.isSection { movedTo.insert(move.to) }
        }

        // rank 0 for sections so that, ascending, a section comes before the items inside it;
        // `insert` indexes input.itemInserts.
        var entries: [(key: Key, insert: Int?)] = []
        entries.reserveCapacity(input.itemInserts.count + input.sectionInserts.count + reloadSlots.count)
        for (k, insert) in input.itemInserts.enumerated() {
            entries.append((Key(section: insert.path.section, rank: 1, item: insert.path.item), k))
        }
        for insert in input.sectionInserts { entries.append((Key(section: insert.index, rank: 0, item: 0), nil)) }
        for slot in reloadSlots { entries.append((Key(section: slot, rank: 0, item: 0), nil)) }
        entries.sort { $0.key < $1.key }

        var inserts: [BatchPlan.ItemEntry] = []
        var previous: Key?
        for (key, insert) in entries {
            if let insert {
                let path = IndexPath(key.section, key.item)
                if insertedSections.contains(path.section) { continue }
                guard isIndex(path.section, below: newCount) else {
                    throw .insertItemSectionOutOfRange(path, sectionCount: newCount)
                }
                let itemCount = newItemCounts[path.section]
                guard isIndex(path.item, below: itemCount) else { throw .insertItemOutOfRange(path, itemCount: itemCount) }
                if key == previous { throw .duplicateInsertIndexPath(path) }
                if movedTo.contains(path) { throw .insertAndMoveSameIndexPath(path) }
                inserts.append(input.itemInserts[insert])
            } else {
                let section = key.section
                guard isIndex(section, below: newCount) else {
                    throw .insertSectionOutOfRange(section, sectionCount: newCount)
                }
                if key == previous { throw .duplicateInsertSection(section) }
                if let move = firstMoveInto[section] {
                    throw move.isSection ? .insertAndMoveSameSection(section) : .moveIntoInsertedSection(section)
                }
            }
            previous = key
        }
        return inserts
    }
}

// MARK: - Step 4: moves

extension BatchValidator {
    func checkMoves(_ moves: [Move], newCount: Int, newItemCounts: [Int]) throws(UpdateError) {
        let oldCount = old.sections.count
        // For each move, the next later move with the same destination (sources are neighbours
        // already, thanks to the sort).
        struct Target: Hashable { var isSection: Bool; var to: IndexPath }
        var nextSameTarget = [Int?](repeating: nil, count: moves.count)
        var laterByTarget: [Target: Int] = [:]
        for k in moves.indices.reversed() {
            let target = Target(isSection: moves[k].isSection, to: moves[k].to)
            nextSameTarget[k] = laterByTarget[target]
            laterByTarget[target] = k
        }

        for (k, move) in moves.enumerated() {
            let from = move.from, to = move.to
            if move.isSection {
                guard isIndex(from.section, below: oldCount) else {
                    throw .moveSectionOutOfRange(from.section, sectionCount: oldCount)
                }
                guard isIndex(to.section, below: newCount) else {
                    throw .moveSectionDestinationOutOfRange(from: from.section, to: to.section, sectionCount: newCount)
                }
            } else {
                guard isIndex(from.section, below: oldCount) else {
                    throw .moveItemSectionOutOfRange(from, sectionCount: oldCount)
                }
                let oldItems = old.sections[from.section].count
                guard isIndex(from.item, below: oldItems) else { throw .moveItemOutOfRange(from, itemCount: oldItems) }
                guard isIndex(to.section, below: newCount) else {
                    throw .moveItemDestinationSectionOutOfRange(from, to: to, sectionCount: newCount)
                }
                let newItems = newItemCounts[to.section]
                guard isIndex(to.item, below: newItems) else {
                    throw .moveItemDestinationOutOfRange(from, to: to, itemCount: newItems)
                }
            }

            var conflict = nextSameTarget[k]
            if k + 1 < moves.count, moves[k + 1].isSection == move.isSection, moves[k + 1].from == from {
                conflict = k + 1
            }
            guard let conflict else { continue }
            let other = moves[conflict]
            if other.from == from {
                throw move.isSection ? .moveSectionToTwoDestinations(from.section, to.section, other.to.section)
                    : .moveItemToTwoDestinations(from, to, other.to)
            } else {
                throw move.isSection ? .moveSectionsToSameDestination(from.section, other.from.section, to.section)
                    : .moveItemsToSameDestination(from, other.from, to)
            }
        }
    }
}

// MARK: - Steps 5–6: counts

extension BatchValidator {
    /// Per-section numbers for the count check, as UIKit counts them (a reload is 1 deleted
    /// from its old section and 1 inserted into its new one).
    struct Tally {
        /// By new section: item inserts that take effect.
        var inserted: [Int]
        /// By new section: items moved in from another section.
        var movedIn: [Int]
        /// By old section: item deletes that take effect.
        var deleted: [Int]
        /// By old section: item reloads that take effect.
        var reloaded: [Int]
        /// By old section: items moved out to another section.
        var movedOut: [Int]

        init(old: CollectionData, newCount: Int, placement: SectionPlacement, deletes: [IndexPath],
             reloads: [BatchPlan.ItemEntry], inserts: [BatchPlan.ItemEntry], insertedSections: Set<Int>,
             moves: [Move]) {
            let oldCount = old.sections.count
            inserted = [Int](repeating: 0, count: max(newCount, 0))
            movedIn = inserted
            deleted = [Int](repeating: 0, count: oldCount)
            reloaded = deleted
            movedOut = deleted
            for path in deletes { deleted[path.section] += 1 }
            for reload in reloads { reloaded[reload.path.section] += 1 }
            // Inserts are not validated yet: count each valid-looking path once (a duplicate is
            // refused later anyway).
            var seen = Set<IndexPath>()
            for insert in inserts {
                let path = insert.path
                guard inserted.indices.contains(path.section), !insertedSections.contains(path.section),
                      seen.insert(path).inserted else { continue }
                inserted[path.section] += 1
            }
            for move in moves where !move.isSection {
                guard isIndex(move.from.section, below: oldCount), movedIn.indices.contains(move.to.section),
                      let home = placement.newIndex[move.from.section], home != move.to.section else { continue }
                movedOut[move.from.section] += 1
                movedIn[move.to.section] += 1
            }
        }
    }

    /// Without `dataAfter`, the counts after the update are what the operations imply.
    func derivedItemCounts(placement: SectionPlacement, tally: Tally, input: Input) -> [Int] {
        var insertedSections: [Int: Section] = [:]
        for insert in input.sectionInserts where insertedSections[insert.index] == nil {
            insertedSections[insert.index] = insert.section
        }
        var replacements: [Int: Section] = [:]
        for reload in input.sectionReloads { replacements[reload.index] = reload.section }
        return placement.sources.enumerated().map { newSection, source in
            switch source {
            case .inserted:
                return insertedSections[newSection]?.count ?? 0
            case .reloaded(let old):
                return (replacements[old] ?? self.old.sections[old]).count
            case .survivor(let old), .moved(let old):
                return self.old.sections[old].count - tally.deleted[old] - tally.movedOut[old]
                    + tally.inserted[newSection] + tally.movedIn[newSection]
            case .unfilled:
                return tally.inserted[newSection] + tally.movedIn[newSection]
            }
        }
    }

    func checkSectionCount(_ input: Input, newCount: Int) throws(UpdateError) {
        let oldCount = old.sections.count
        let inserted = input.sectionInserts.count + input.sectionReloads.count
        let deleted = input.sectionDeletes.count + input.sectionReloads.count
        if newCount != oldCount + inserted - deleted {
            throw .invalidSectionCount(after: newCount, before: oldCount, inserted: inserted, deleted: deleted)
        }
    }

    /// Only sections that existed before are checked; inserted and reloaded ones are new to UIKit.
    func checkItemCounts(placement: SectionPlacement, tally: Tally, newItemCounts: [Int]) throws(UpdateError) {
        for (newSection, source) in placement.sources.enumerated() {
            guard let oldSection = source.continuedSection else { continue }
            let before = old.sections[oldSection].count
            let inserted = tally.inserted[newSection] + tally.reloaded[oldSection]
            let deleted = tally.deleted[oldSection] + tally.reloaded[oldSection]
            let movedIn = tally.movedIn[newSection], movedOut = tally.movedOut[oldSection]
            let expected = before + inserted + movedIn - deleted - movedOut
            // Unreachable once deletes and moves are checked (each old item leaves at most once),
            // kept because UIKit has the message.
            if expected < 0 { throw .negativeItemCount(section: oldSection) }
            let after = newItemCounts[newSection]
            if after != expected {
                throw .invalidItemCount(section: newSection, after: after, before: before, inserted: inserted,
                                        deleted: deleted, movedIn: movedIn, movedOut: movedOut)
            }
        }
    }
}
