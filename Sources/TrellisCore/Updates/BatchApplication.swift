extension BatchUpdate {
    /// Validates the batch against `data` in UIKit's order and returns the data after it, with
    /// where every item and section went. Throws the first fault, with UIKit's text; being a pure
    /// function, a refused batch changes nothing.
    ///
    /// With `dataAfter` the new data is `dataAfter` (only UIKit's count checks relate it to the
    /// operations: items it holds are not compared with the items the operations carry). Without
    /// it the new data is derived from the operations, as UIKit's normalised order applies them:
    /// deletes (descending), then moves, then inserts (ascending); an item that stays keeps its
    /// order among the other items that stay, and a reloaded item stays where it is.
    public func apply(to data: CollectionData) throws(UpdateError) -> UpdateResult {
        let plan = try BatchValidator(old: data, batch: self).validate()
        if dataAfter == nil { try plan.checkIdentifiers(against: data) }
        var assembly = BatchAssembly(plan: plan, old: data, dataAfter: dataAfter)
        return assembly.run()
    }
}

/// Builds the new sections and the old ↔ new mapping of a validated batch in one pass per
/// touched section: the items that stay fill, in order, the indices that inserts and move
/// destinations leave free (no per-operation insert or remove on the items array).
private struct BatchAssembly {
    let plan: BatchPlan
    let old: CollectionData
    let dataAfter: CollectionData?

    /// What occupies an index the batch names in a section after the update.
    enum Fixed {
        case insert(Item?)
        case move(from: IndexPath)
    }

    private var movedOut: [IndexPath: IndexPath] = [:]
    private var movedIn: [IndexPath: IndexPath] = [:]
    private var reloaded = Set<UpdateResult.Change<IndexPath>>()

    init(plan: BatchPlan, old: CollectionData, dataAfter: CollectionData?) {
        self.plan = plan
        self.old = old
        self.dataAfter = dataAfter
    }

    mutating func run() -> UpdateResult {
        let placement = plan.placement
        let newCount = placement.sources.count

        // The batch's item operations by section, each list ascending.
        var removedByOld: [Int: [Int]] = [:]     // deleted or moved away (re-placed as fixed)
        var reloadsByOld: [Int: [BatchPlan.ItemEntry]] = [:]
        var fixedByNew: [Int: [(index: Int, what: Fixed)]] = [:]
        for path in plan.itemDeletes { removedByOld[path.section, default: []].append(path.item) }
        for move in plan.itemMoves {
            removedByOld[move.from.section, default: []].append(move.from.item)
            fixedByNew[move.to.section, default: []].append((move.to.item, .move(from: move.from)))
        }
        for insert in plan.itemInserts {
            fixedByNew[insert.path.section, default: []].append((insert.path.item, .insert(insert.item)))
        }
        for reload in plan.itemReloads { reloadsByOld[reload.path.section, default: []].append(reload) }
        for key in removedByOld.keys { removedByOld[key]!.sort() }
        for key in fixedByNew.keys { fixedByNew[key]!.sort { $0.index < $1.index } }

        var insertedContent: [Int: Section] = [:]
        for insert in plan.sectionInserts { insertedContent[insert.index] = insert.section }
        var replacements: [Int: Section] = [:]
        for reload in plan.sectionReloads { replacements[reload.index] = reload.section }

        var sections: [Section] = []
        if dataAfter == nil { sections.reserveCapacity(newCount) }
        var oldTables = [ItemIndexMap.Table](repeating: .none, count: old.sections.count)
        var newTables = [ItemIndexMap.Table](repeating: .none, count: newCount)
        var oldSection = [Int?](repeating: nil, count: newCount)
        var changed = Set<Int>()
        var reloadedSections = Set<UpdateResult.Change<Int>>()

        for (new, source) in placement.sources.enumerated() {
            let content: Section
            switch source {
            case .inserted:
                content = dataAfter?.sections[new] ?? insertedContent[new] ?? Section(id: "")
                changed.insert(new)
            case .reloaded(let previous):
                let before = old.sections[previous]
                content = dataAfter?.sections[new] ?? replacements[previous] ?? before
                oldSection[new] = previous
                let table = Self.mapByIdentifier(before, content)
                oldTables[previous] = table
                newTables[new] = table
                changed.insert(new)
                reloadedSections.insert(.init(before: previous, after: new))
            case .survivor(let previous), .moved(let previous):
                oldSection[new] = previous
                let before = old.sections[previous]
                let removed = removedByOld[previous], fixed = fixedByNew[new], reloads = reloadsByOld[previous]
                if removed == nil && fixed == nil && reloads == nil {
                    content = dataAfter?.sections[new] ?? before
                    oldTables[previous] = .identity(count: before.count)
                    newTables[new] = .identity(count: before.count)
                    // dataAfter may change content without saying so; a layout must still see it.
                    if dataAfter != nil && content != before { changed.insert(new) }
                } else {
                    let walk = walk(from: previous, to: new, removed: removed ?? [], fixed: fixed ?? [],
                                    reloads: reloads ?? [])
                    content = dataAfter?.sections[new] ?? Section(id: before.id, items: walk.items)
                    let runs = ItemIndexMap.Table.runs(IndexRuns(inNewOrder: walk.runs))
                    oldTables[previous] = runs
                    newTables[new] = runs
                    changed.insert(new)
                }
            case .unfilled:
                // A validated batch fills every index; stay total rather than trap.
                assertionFailure("validated batch left section \(new) unfilled")
                content = dataAfter?.sections[new] ?? Section(id: "")
            }
            if dataAfter == nil { sections.append(content) }
        }

        // Layouts cache per section index, so an index now holding another section (moved, or
        // shifted by a move) must be measured again even when that section's items did not change.
        for (new, previous) in oldSection.enumerated() where previous != new { changed.insert(new) }

        var items = ItemIndexMap(oldTables: oldTables, newTables: newTables, newSection: placement.newIndex,
                                 oldSection: oldSection)
        items.movedOut = movedOut
        items.movedIn = movedIn
        return UpdateResult(
            data: dataAfter ?? CollectionData(uncheckedSections: sections),
            items: items,
            inserted: Set(plan.itemInserts.map(\.path)),
            deleted: Set(plan.itemDeletes),
            moved: Set(plan.itemMoves.map { .init(before: $0.from, after: $0.to) }),
            reloaded: reloaded,
            insertedSections: Set(plan.sectionInserts.map(\.index)),
            deletedSections: Set(plan.sectionDeletes),
            movedSections: Set(plan.sectionMoves.map { .init(before: $0.from, after: $0.to) }),
            reloadedSections: reloadedSections,
            changedSections: changed,
            sectionCountChanged: old.sections.count != newCount)
    }

    /// One section that continues: fixed entries (inserts, move destinations) sit at their
    /// indices, and the old items that stay fill the other indices in order. Those come in runs
    /// (between two fixed indices or two removed items) that are copied in bulk and recorded as
    /// one `IndexRun` each, so the mapping costs O(operations), not O(items in the section).
    private mutating func walk(from previous: Int, to new: Int, removed: [Int], fixed: [(index: Int, what: Fixed)],
                               reloads: [BatchPlan.ItemEntry]) -> (items: ItemList, runs: [IndexRun]) {
        let oldItems = old.sections[previous].items
        let count = plan.newItemCounts[new]
        let buildsItems = dataAfter == nil
        // Built from runs of the old items, so the chunks a run covers whole stay shared with
        // the old data (kept for the animation) instead of being copied.
        var items = ItemList(chunkCapacity: oldItems.chunkCapacity)
        var runs: [IndexRun] = []
        runs.reserveCapacity(2 * (fixed.count + removed.count) + 1)
        var index = 0, nextOld = 0, nextRemoved = 0, nextFixed = 0, nextReload = 0
        while index < count {
            if nextFixed < fixed.count && fixed[nextFixed].index == index {
                switch fixed[nextFixed].what {
                case .insert(let item):
                    if buildsItems, let item { items.append(item) }
                case .move(let from):
                    if from.section == previous {
                        runs.append(IndexRun(old: from.item, new: index, count: 1))
                    } else {
                        movedIn[IndexPath(new, index)] = from
                        movedOut[from] = IndexPath(new, index)
                    }
                    if buildsItems { items.append(old[from]) }
                }
                nextFixed += 1
                index += 1
                continue
            }
            while nextRemoved < removed.count && removed[nextRemoved] == nextOld {
                nextRemoved += 1
                nextOld += 1
            }
            var length = min(count - index, oldItems.count - nextOld)
            if nextFixed < fixed.count { length = min(length, fixed[nextFixed].index - index) }
            if nextRemoved < removed.count { length = min(length, removed[nextRemoved] - nextOld) }
            guard length > 0 else {
                assertionFailure("validated batch ran out of items in section \(previous)")
                break
            }
            runs.append(IndexRun(old: nextOld, new: index, count: length))
            if buildsItems { items.append(contentsOf: oldItems, range: nextOld..<nextOld + length) }
            while nextReload < reloads.count && reloads[nextReload].path.item < nextOld + length {
                let reload = reloads[nextReload]
                let at = index + reload.path.item - nextOld
                reloaded.insert(.init(before: reload.path, after: IndexPath(new, at)))
                if buildsItems, let replacement = reload.item { items.replace(at: at, with: replacement) }
                nextReload += 1
            }
            index += length
            nextOld += length
        }
        return (items, runs)
    }

    /// A reloaded section's items correspond by identifier (the section was replaced wholesale,
    /// so this is O(items in it), as the request that carried it was).
    private static func mapByIdentifier(_ before: Section, _ after: Section) -> ItemIndexMap.Table {
        if before.items == after.items { return .identity(count: before.count) }
        var oldIndex: [ItemID: Int] = [:]
        oldIndex.reserveCapacity(before.count)
        for (index, item) in before.items.enumerated() { oldIndex[item.id] = index }
        let oldByNew = after.items.map { oldIndex[$0.id] ?? -1 }
        return .runs(IndexRuns(oldIndexByNew: oldByNew, oldCount: before.count))
    }
}
