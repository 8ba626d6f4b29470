import Testing
@testable import TrellisCore

/// A tiny deterministic generator (SplitMix64), so a failing random case replays from its seed.
fileprivate extension SplitMix64 {
    mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    mutating func shuffled<T>(_ values: [T]) -> [T] {
        var values = values
        for i in values.indices.reversed() where i > 0 { values.swapAt(i, below(i + 1)) }
        return values
    }
}

/// A random valid batch on random data, built from the arrangement it should produce: items and
/// sections that stay keep their order, everything the batch places (inserts, move destinations)
/// is put at a random place, and the operations are read back from where everything ended up.
private struct RandomBatch {
    var data: CollectionData
    var operations: [UpdateOperation]
    /// The arrangement the generator built, to cross-check the model below.
    var arranged: CollectionData

    private enum Slot {
        case old(Int)
        case new(Section)
    }

    init(_ rng: inout SplitMix64, maxSections: Int = 5, maxItems: Int = 9) throws {
        var fresh = 0
        func freshID(_ prefix: String) -> String {
            fresh += 1
            return "\(prefix)\(fresh)"
        }
        let old = (0..<rng.below(maxSections)).map { k in
            Section(id: SectionID("s\(k)"), items: (0..<rng.below(maxItems)).map { _ in Item(id: ItemID(freshID("o"))) })
        }
        data = try CollectionData(sections: old)
        var operations: [UpdateOperation] = []

        // Sections: delete, reload, move, insert.
        var order: [Slot] = []
        var deleted: [Int] = [], reloaded: [Int: Section?] = [:], moved: [Int] = []
        for k in old.indices {
            if rng.oneIn(6) { deleted.append(k); continue }
            if rng.oneIn(6) {
                let keep = old[k].items.filter { _ in rng.oneIn(2) }
                let added = (0..<rng.below(3)).map { _ in Item(id: ItemID(freshID("r"))) }
                // Section?? in the dictionary: a nil replacement (keep the content) is still a reload.
                reloaded.updateValue(rng.oneIn(3) ? nil : Section(id: old[k].id, items: rng.shuffled(keep + added)),
                                     forKey: k)
            } else if rng.oneIn(5) {
                moved.append(k)
                continue
            }
            order.append(.old(k))
        }
        for k in moved { order.insert(.old(k), at: rng.below(order.count + 1)) }
        for _ in 0..<rng.below(3) {
            let items = (0..<rng.below(4)).map { _ in Item(id: ItemID(freshID("n"))) }
            order.insert(.new(Section(id: SectionID(freshID("t")), items: items)), at: rng.below(order.count + 1))
        }
        for (index, slot) in order.enumerated() {
            switch slot {
            case .old(let k) where moved.contains(k): operations.append(.moveSection(from: k, to: index))
            case .new(let section): operations.append(.insertSections(at: [index], sections: [section]))
            case .old: break
            }
        }
        if !deleted.isEmpty { operations.append(.deleteSections(at: rng.shuffled(deleted))) }
        for k in reloaded.keys.sorted() {
            operations.append(.reloadSections(at: [k], sections: reloaded[k]!.map { [$0] }))
        }

        // Items, in the sections that continue (not reloaded): delete, move away, reload, stay.
        let targets = order.indices.filter { index in
            guard case .old(let k) = order[index] else { return false }
            return reloaded[k] == nil
        }
        var lists: [Int: [Item]] = [:]       // by new section
        var movedItems: [(from: IndexPath, item: Item)] = []
        for target in targets {
            guard case .old(let k) = order[target] else { continue }
            var list: [Item] = []
            for (i, item) in old[k].items.enumerated() {
                if rng.oneIn(5) {
                    operations.append(.deleteItems(at: [IndexPath(k, i)]))
                } else if rng.oneIn(5) {
                    movedItems.append((IndexPath(k, i), item))
                } else if rng.oneIn(6) {
                    let replacement = rng.oneIn(2) ? nil : Item(id: item.id, size: Size(width: Double(i + 1), height: 3))
                    operations.append(.reloadItems(at: [IndexPath(k, i)], items: replacement.map { [$0] }))
                    list.append(replacement ?? item)
                } else {
                    list.append(item)
                }
            }
            lists[target] = list
        }
        var placed: [(from: IndexPath?, item: Item)] = movedItems.map { ($0.from, $0.item) }
        if !targets.isEmpty {
            for _ in 0..<rng.below(5) { placed.append((nil, Item(id: ItemID(freshID("x"))))) }
        } else {
            placed = []
        }
        for entry in rng.shuffled(placed) {
            let target = targets[rng.below(targets.count)]
            let position = rng.below(lists[target]!.count + 1)
            lists[target]!.insert(entry.item, at: position)
        }
        var finalPath: [ItemID: IndexPath] = [:]
        for (section, list) in lists {
            for (i, item) in list.enumerated() { finalPath[item.id] = IndexPath(section, i) }
        }
        var inserts: [(IndexPath, Item)] = []
        for entry in placed {
            let to = finalPath[entry.item.id]!
            if let from = entry.from { operations.append(.moveItem(from: from, to: to)) } else { inserts.append((to, entry.item)) }
        }
        // Group some inserts into one call, as clients do.
        while !inserts.isEmpty {
            let take = min(inserts.count, 1 + rng.below(3))
            operations.append(.insertItems(at: inserts.prefix(take).map(\.0), items: inserts.prefix(take).map(\.1)))
            inserts.removeFirst(take)
        }
        self.operations = rng.shuffled(operations)

        arranged = try CollectionData(sections: order.enumerated().map { index, slot in
            switch slot {
            case .new(let section): return section
            case .old(let k):
                if let replacement = reloaded[k] { return replacement ?? old[k] }
                return Section(id: old[k].id, items: lists[index]!)
            }
        })
    }
}

/// UIKit's normalised order applied literally to arrays: reloads in place, then item deletes and
/// move sources (descending), section deletes and move sources (descending), section inserts and
/// move destinations (ascending), item inserts and move destinations (ascending).
private func normalisedApply(_ operations: [UpdateOperation], to data: CollectionData) throws -> CollectionData {
    var ids = data.sections.map(\.id)
    var items = data.sections.map { Array($0.items) }
    var itemRemovals: [IndexPath] = [], itemPlacements: [(IndexPath, Item?, IndexPath?)] = []
    var sectionRemovals: [Int] = [], sectionPlacements: [(Int, Section?, Int?)] = []
    for operation in operations {
        switch operation {
        case .reloadItems(let paths, let replacements):
            for (k, path) in paths.enumerated() { items[path.section][path.item] = replacements?[k] ?? items[path.section][path.item] }
        case .reloadSections(let indices, let replacements):
            for (k, index) in indices.enumerated() where replacements != nil { items[index] = Array(replacements![k].items) }
        case .deleteItems(let paths): itemRemovals += paths
        case .moveItem(let from, let to):
            itemRemovals.append(from)
            itemPlacements.append((to, nil, from))
        case .insertItems(let paths, let inserted):
            for (k, path) in paths.enumerated() { itemPlacements.append((path, inserted[k], nil)) }
        case .deleteSections(let indices): sectionRemovals += indices
        case .moveSection(let from, let to):
            sectionRemovals.append(from)
            sectionPlacements.append((to, nil, from))
        case .insertSections(let indices, let sections):
            for (k, index) in indices.enumerated() { sectionPlacements.append((index, sections[k], nil)) }
        }
    }
    var movedItems: [IndexPath: Item] = [:]
    for path in itemRemovals.sorted(by: >) { movedItems[path] = items[path.section].remove(at: path.item) }
    var movedSections: [Int: (SectionID, [Item])] = [:]
    for index in sectionRemovals.sorted(by: >) { movedSections[index] = (ids.remove(at: index), items.remove(at: index)) }
    for (index, section, from) in sectionPlacements.sorted(by: { $0.0 < $1.0 }) {
        let (id, content) = section.map { ($0.id, Array($0.items)) } ?? movedSections[from!]!
        ids.insert(id, at: index)
        items.insert(content, at: index)
    }
    for (path, item, from) in itemPlacements.sorted(by: { $0.0 < $1.0 }) {
        items[path.section].insert(item ?? movedItems[from!]!, at: path.item)
    }
    return try CollectionData(sections: zip(ids, items).map { Section(id: $0, items: $1) })
}

@Suite struct BatchUpdateRandomTests {
    /// Every check of one random batch, collected as messages so one failure reports all of them.
    private static func mismatches(_ batch: RandomBatch, seed: UInt64) throws -> [String] {
        var problems: [String] = []
        let result: UpdateResult
        do {
            result = try BatchUpdate(batch.operations).apply(to: batch.data)
        } catch {
            return ["seed \(seed): refused: \(error.message)\n\(batch.operations)"]
        }
        let expected = try normalisedApply(batch.operations, to: batch.data)
        if expected != batch.arranged { problems.append("seed \(seed): generator and model disagree") }
        if result.data != expected { problems.append("seed \(seed): data \(itemIDs(result.data)) != \(itemIDs(expected))") }

        var oldPaths: [ItemID: IndexPath] = [:], newPaths: [ItemID: IndexPath] = [:]
        for (s, section) in batch.data.sections.enumerated() {
            for (i, item) in section.items.enumerated() { oldPaths[item.id] = IndexPath(s, i) }
        }
        for (s, section) in expected.sections.enumerated() {
            for (i, item) in section.items.enumerated() { newPaths[item.id] = IndexPath(s, i) }
        }
        for (id, old) in oldPaths where result.newIndexPath(for: old) != newPaths[id] {
            problems.append("seed \(seed): \(id) at \(old) maps to \(String(describing: result.newIndexPath(for: old)))")
        }
        for (id, new) in newPaths where result.oldIndexPath(for: new) != oldPaths[id] {
            problems.append("seed \(seed): \(id) at \(new) maps back to \(String(describing: result.oldIndexPath(for: new)))")
        }

        var inserted = Set<IndexPath>(), deleted = Set<IndexPath>(), moved = Set<UpdateResult.Change<IndexPath>>()
        var reloaded = Set<UpdateResult.Change<IndexPath>>()
        var insertedSections = Set<Int>(), deletedSections = Set<Int>(), movedSections = Set<UpdateResult.Change<Int>>()
        var reloadedSections = Set<UpdateResult.Change<Int>>()
        let sectionIndex = Dictionary(uniqueKeysWithValues: expected.sections.enumerated().map { ($1.id, $0) })
        for operation in batch.operations {
            switch operation {
            case .insertItems(let paths, _): inserted.formUnion(paths)
            case .deleteItems(let paths): deleted.formUnion(paths)
            case .moveItem(let from, let to): moved.insert(.init(before: from, after: to))
            case .reloadItems(let paths, _):
                for old in paths { reloaded.insert(.init(before: old, after: newPaths[batch.data[old].id]!)) }
            case .insertSections(let indices, _): insertedSections.formUnion(indices)
            case .deleteSections(let indices): deletedSections.formUnion(indices)
            case .moveSection(let from, let to): movedSections.insert(.init(before: from, after: to))
            case .reloadSections(let indices, _):
                for old in indices {
                    reloadedSections.insert(.init(before: old, after: sectionIndex[batch.data.sections[old].id]!))
                }
            }
        }
        if result.inserted != inserted { problems.append("seed \(seed): inserted \(result.inserted) != \(inserted)") }
        if result.deleted != deleted { problems.append("seed \(seed): deleted \(result.deleted) != \(deleted)") }
        if result.moved != moved { problems.append("seed \(seed): moved \(result.moved) != \(moved)") }
        if result.reloaded != reloaded { problems.append("seed \(seed): reloaded \(result.reloaded) != \(reloaded)") }
        if result.insertedSections != insertedSections || result.deletedSections != deletedSections
            || result.movedSections != movedSections || result.reloadedSections != reloadedSections {
            problems.append("seed \(seed): section sets differ")
        }
        let sectionMapping = batch.data.sections.map { sectionIndex[$0.id] }
        if result.sectionMapping != sectionMapping {
            problems.append("seed \(seed): section mapping \(result.sectionMapping) != \(sectionMapping)")
        }
        if result.sectionCountChanged != (batch.data.sections.count != expected.sections.count) {
            problems.append("seed \(seed): sectionCountChanged")
        }
        // Every index whose section differs from the one it held before must be marked changed
        // (what an index-keyed layout cache needs). Touched sections may be listed although they
        // end up equal (a reload keeping its content, a move to where the item was).
        for (new, section) in expected.sections.enumerated() {
            let before = new < batch.data.sections.count ? batch.data.sections[new] : nil
            if before != section && !result.changedSections.contains(new) {
                problems.append("seed \(seed): section \(new) changed but is not listed")
            }
        }

        // The mapping as runs: expanded, exactly the items whose index path changed (by
        // identifier), ascending by old path; no run empty, none continuing the one before it.
        var changes: [UpdateResult.Change<IndexPath>] = []
        for (id, old) in oldPaths { if let new = newPaths[id], new != old { changes.append(.init(before: old, after: new)) } }
        changes.sort { $0.before < $1.before }
        let runs = result.changedPathRuns()
        if runs.flatMap({ Array($0.changes) }) != changes {
            problems.append("seed \(seed): runs \(runs) expand to something else than \(changes)")
        }
        if runs.contains(where: { $0.count < 1 }) { problems.append("seed \(seed): an empty run in \(runs)") }
        for (a, b) in zip(runs, runs.dropFirst()) where a.isContinued(by: b) {
            problems.append("seed \(seed): runs \(a) and \(b) are one")
        }

        // The client's own data after the update gives the same result.
        let given = try BatchUpdate(batch.operations, dataAfter: expected).apply(to: batch.data)
        if given != result { problems.append("seed \(seed): result with dataAfter differs") }
        return problems
    }

    @Test func randomValidBatchesGiveTheModelsDataAndMapping() throws {
        var problems: [String] = []
        for seed in UInt64(1)...400 {
            var rng = SplitMix64(seed: seed)
            let batch = try RandomBatch(&rng)
            problems += try Self.mismatches(batch, seed: seed)
        }
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
    }

    @Test func randomBatchesOnLargerSections() throws {
        var problems: [String] = []
        for seed in UInt64(1_000)...1_005 {
            var rng = SplitMix64(seed: seed)
            let batch = try RandomBatch(&rng, maxSections: 3, maxItems: 600)
            problems += try Self.mismatches(batch, seed: seed)
        }
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
    }

    @Test func callOrderDoesNotChangeTheResult() throws {
        for seed in UInt64(500)...540 {
            var rng = SplitMix64(seed: seed)
            let batch = try RandomBatch(&rng)
            let expected = try BatchUpdate(batch.operations).apply(to: batch.data)
            for _ in 0..<5 {
                #expect(try BatchUpdate(rng.shuffled(batch.operations)).apply(to: batch.data) == expected)
            }
        }
    }

    @Test func callOrderDoesNotChangeTheFault() throws {
        let data = try CollectionData(sections: [
            Section(id: "s0", items: [Item(id: "a"), Item(id: "b"), Item(id: "c")]),
            Section(id: "s1", items: [Item(id: "d"), Item(id: "e")]),
        ])
        let operations: [UpdateOperation] = [
            .deleteItems(at: [IndexPath(0, 5)]), .deleteItems(at: [IndexPath(1, 7)]),
            .insertItems(at: [IndexPath(9, 0)], items: [Item(id: "x")]),
            .moveItem(from: IndexPath(0, 0), to: IndexPath(0, 1)), .moveItem(from: IndexPath(0, 0), to: IndexPath(0, 2)),
        ]
        func fault(_ operations: [UpdateOperation]) -> UpdateError? {
            do { _ = try BatchUpdate(operations).apply(to: data); return nil } catch { return error }
        }
        let expected = fault(operations)
        #expect(expected?.message == "attempt to delete item 7 from section 1 which only contains 2 items before the update")
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20 { #expect(fault(rng.shuffled(operations)) == expected) }
    }

    @Test func randomlyBrokenBatchesAreRefusedWithoutTrapping() throws {
        // Index paths off by a little in every direction: whatever is refused must be refused
        // cleanly, and whatever is accepted must satisfy the counts.
        for seed in UInt64(2_000)...2_300 {
            var rng = SplitMix64(seed: seed)
            let batch = try RandomBatch(&rng)
            var operations = batch.operations
            guard !operations.isEmpty else { continue }
            let k = rng.below(operations.count)
            func nudge(_ p: IndexPath) -> IndexPath { IndexPath(p.section + rng.below(3) - 1, p.item + rng.below(3) - 1) }
            switch operations[k] {
            case .deleteItems(let paths): operations[k] = .deleteItems(at: paths.map(nudge))
            case .insertItems(let paths, let items): operations[k] = .insertItems(at: paths.map(nudge), items: items)
            case .moveItem(let from, let to): operations[k] = .moveItem(from: nudge(from), to: nudge(to))
            case .reloadItems(let paths, let items): operations[k] = .reloadItems(at: paths.map(nudge), items: items)
            case .moveSection(let from, let to): operations[k] = .moveSection(from: from + rng.below(3) - 1, to: to)
            default: operations.append(operations[k])
            }
            if let result = try? BatchUpdate(operations).apply(to: batch.data) {
                #expect(result.data.totalItemCount >= 0)
            }
        }
    }
}

private func itemIDs(_ data: CollectionData) -> [[String]] { data.sections.map { $0.items.map(\.id.rawValue) } }
