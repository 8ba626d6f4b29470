import Testing
@testable import TrellisCore

// MARK: - Helpers

private func item(_ id: String, size: Size? = nil, reuse: String = Item.defaultReuseIdentifier,
                  data: String? = nil) -> Item {
    // The payload is opaque to the engine: its text stands in for the protocol's JSON.
    Item(id: ItemID(id), size: size, reuseIdentifier: reuse, data: data.map { ItemPayload(bytes: Array($0.utf8)) })
}

private func section(_ id: String, _ items: [Item]) -> Section { Section(id: SectionID(id), items: items) }

private func section(_ id: String, _ ids: [String]) -> Section { section(id, ids.map { item($0) }) }

private func data(_ sections: Section...) throws -> CollectionData { try CollectionData(sections: sections) }

private func path(_ s: Int, _ i: Int) -> IndexPath { IndexPath(s, i) }

/// A deterministic generator (SplitMix64), so a failing random case can be replayed by seed.
fileprivate extension SplitMix64 {
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func shuffle<T>(_ a: inout [T]) {
        guard a.count > 1 else { return }
        for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, below(i + 1)) }
    }
}

/// Why the model applier refused a batch.
private struct ModelError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A model of UIKit's batch semantics, independent of the engine: it checks the rules of
/// uikit-collection-semantics §1.2–1.3 strictly (stricter than UIKit: item operations inside
/// deleted or inserted sections are refused instead of dropped, because the diff never needs
/// them) and rebuilds the data from the operations alone, ignoring `dataAfter`. It follows the
/// normalised order: deletes (and move sources) leave holes that close up, then each final
/// section is laid out by placing inserts and move destinations at their new indices and filling
/// the other slots with the remaining elements in their old order.
private enum ModelApplier {
    static func apply(_ batch: BatchUpdate, to old: CollectionData) throws(ModelError) -> CollectionData {
        let oldSections = old.sections
        var deletedSections = Set<Int>(), insertedSections: [Int: Section] = [:]
        var sectionMoves: [Int: Int] = [:], sectionMoveTargets = Set<Int>()
        var deletedItems = Set<IndexPath>(), insertedItems: [IndexPath: Item] = [:]
        var itemMoves: [IndexPath: IndexPath] = [:], itemMoveTargets = Set<IndexPath>()
        var reloads: [IndexPath: Item] = [:]
        for op in batch.operations {
            switch op {
            case .deleteSections(let at):
                for s in at where !deletedSections.insert(s).inserted { throw ModelError("section \(s) deleted twice") }
            case .insertSections(let at, let sections):
                guard at.count == sections.count else { throw ModelError("insertSections count mismatch") }
                for (s, sec) in zip(at, sections) where insertedSections.updateValue(sec, forKey: s) != nil {
                    throw ModelError("section \(s) inserted twice")
                }
            case .moveSection(let from, let to):
                guard sectionMoves.updateValue(to, forKey: from) == nil else { throw ModelError("section \(from) moved twice") }
                guard sectionMoveTargets.insert(to).inserted else { throw ModelError("two sections moved to \(to)") }
            case .reloadSections:
                throw ModelError("the diff has no reason to reload sections")
            case .deleteItems(let at):
                for p in at where !deletedItems.insert(p).inserted { throw ModelError("item \(p) deleted twice") }
            case .insertItems(let at, let items):
                guard at.count == items.count else { throw ModelError("insertItems count mismatch") }
                for (p, it) in zip(at, items) where insertedItems.updateValue(it, forKey: p) != nil {
                    throw ModelError("item \(p) inserted twice")
                }
            case .moveItem(let from, let to):
                guard itemMoves.updateValue(to, forKey: from) == nil else { throw ModelError("item \(from) moved twice") }
                guard itemMoveTargets.insert(to).inserted else { throw ModelError("two items moved to \(to)") }
            case .reloadItems(let at, let items):
                guard let items, items.count == at.count else { throw ModelError("reloads must carry their items") }
                for (p, it) in zip(at, items) where reloads.updateValue(it, forKey: p) != nil {
                    throw ModelError("item \(p) reloaded twice")
                }
            }
        }

        // Sections.
        let newSectionCount = oldSections.count - deletedSections.count + insertedSections.count
        for s in deletedSections where !(0..<oldSections.count).contains(s) { throw ModelError("delete of section \(s) out of range") }
        for s in insertedSections.keys where !(0..<newSectionCount).contains(s) { throw ModelError("insert of section \(s) out of range") }
        for (from, to) in sectionMoves {
            guard (0..<oldSections.count).contains(from), (0..<newSectionCount).contains(to) else { throw ModelError("section move out of range") }
            guard !deletedSections.contains(from) else { throw ModelError("section \(from) deleted and moved") }
            guard insertedSections[to] == nil else { throw ModelError("section \(to) inserted and moved to") }
        }
        var oldOfNew = [Int?](repeating: nil, count: newSectionCount)
        for (from, to) in sectionMoves { oldOfNew[to] = from }
        var remaining = (0..<oldSections.count).filter { !deletedSections.contains($0) && sectionMoves[$0] == nil }[...]
        for n in 0..<newSectionCount where insertedSections[n] == nil && oldOfNew[n] == nil {
            guard let o = remaining.popFirst() else { throw ModelError("section counts do not add up") }
            oldOfNew[n] = o
        }
        guard remaining.isEmpty else { throw ModelError("section counts do not add up") }
        var newOfOld = [Int?](repeating: nil, count: oldSections.count)
        for (n, o) in oldOfNew.enumerated() { if let o { newOfOld[o] = n } }

        // Item sources, in old coordinates.
        func checkOld(_ p: IndexPath, _ what: String) throws(ModelError) {
            guard old.contains(p) else { throw ModelError("\(what) \(p) does not exist before the update") }
            guard !deletedSections.contains(p.section) else { throw ModelError("\(what) \(p) is in a deleted section") }
        }
        for p in deletedItems { try checkOld(p, "deleted item") }
        for (p, _) in reloads {
            try checkOld(p, "reloaded item")
            guard !deletedItems.contains(p) else { throw ModelError("delete and reload of \(p)") }
            guard itemMoves[p] == nil else { throw ModelError("reload and move of \(p)") }
        }
        for (from, to) in itemMoves {
            try checkOld(from, "moved item")
            guard !deletedItems.contains(from) else { throw ModelError("delete and move of \(from)") }
            guard (0..<newSectionCount).contains(to.section) else { throw ModelError("move to missing section \(to)") }
            guard insertedSections[to.section] == nil else { throw ModelError("move into inserted section \(to)") }
            guard insertedItems[to] == nil else { throw ModelError("insert and move to \(to)") }
        }
        for p in insertedItems.keys {
            guard (0..<newSectionCount).contains(p.section) else { throw ModelError("insert into missing section \(p)") }
            guard insertedSections[p.section] == nil else { throw ModelError("item insert \(p) into inserted section") }
        }

        // What stays of each surviving old section, in order.
        var staying = [[Item]](repeating: [], count: oldSections.count)
        for (o, sec) in oldSections.enumerated() where newOfOld[o] != nil {
            for (i, it) in sec.items.enumerated() {
                let p = IndexPath(o, i)
                if deletedItems.contains(p) || itemMoves[p] != nil { continue }
                staying[o].append(reloads[p] ?? it)
            }
        }
        var movedIn = [Int: [(Int, Item)]]()
        for (from, to) in itemMoves { movedIn[to.section, default: []].append((to.item, old[from])) }
        var insertedIn = [Int: [(Int, Item)]]()
        for (p, it) in insertedItems { insertedIn[p.section, default: []].append((p.item, it)) }

        var result: [Section] = []
        for n in 0..<newSectionCount {
            if let sec = insertedSections[n] { result.append(sec); continue }
            let o = oldOfNew[n]!
            let placed = (movedIn[n] ?? []) + (insertedIn[n] ?? [])
            let count = staying[o].count + placed.count
            var slots = [Item?](repeating: nil, count: count)
            for (i, it) in placed {
                guard (0..<count).contains(i) else { throw ModelError("item \(n):\(i) beyond the section's \(count) items") }
                slots[i] = it
            }
            var rest = staying[o][...]
            let items = slots.map { $0 ?? rest.popFirst()! }
            result.append(Section(id: oldSections[o].id, items: items))
        }
        do { return try CollectionData(sections: result) } catch { throw ModelError("result has duplicates: \(error)") }
    }
}

/// Diffs, then checks the batch three ways: the engine's applier accepts it with `dataAfter`
/// and installs the new data; the engine's applier without `dataAfter` and the model above both
/// rebuild exactly the new data from the operations alone. Also checks that the engine's
/// old → new item mapping follows every item the diff keeps, reloads or moves. Returns the diff
/// for exact expectations.
@discardableResult
private func diffChecked(_ old: CollectionData, _ new: CollectionData,
                         sourceLocation: SourceLocation = #_sourceLocation) -> SnapshotDiff {
    let diff = SnapshotDiff(from: old, to: new)
    #expect(diff.batch.dataAfter == new, sourceLocation: sourceLocation)
    do {
        let rebuilt = try ModelApplier.apply(diff.batch, to: old)
        #expect(rebuilt == new, sourceLocation: sourceLocation)
    } catch {
        Issue.record("model refused the batch: \(error)", sourceLocation: sourceLocation)
    }
    do {
        let result = try diff.batch.apply(to: old)
        #expect(result.data == new, sourceLocation: sourceLocation)
        // Every item that keeps its identity must be followed to where it is in `new`.
        let replaced = Set(diff.replacedItems.map(\.before))
        var newPath: [ItemID: IndexPath] = [:]
        for (s, sec) in new.sections.enumerated() { for (i, it) in sec.items.enumerated() { newPath[it.id] = IndexPath(s, i) } }
        let oldIDs = Set(old.sections.map(\.id))
        for (s, sec) in old.sections.enumerated() {
            for (i, it) in sec.items.enumerated() {
                let p = IndexPath(s, i), mapped = result.newIndexPath(for: p)
                guard let q = newPath[it.id], !replaced.contains(p), result.newSection(for: s) != nil,
                      oldIDs.contains(new.sections[q.section].id) else {
                    #expect(mapped == nil, "\(it.id) at \(p) should not survive", sourceLocation: sourceLocation)
                    continue
                }
                #expect(mapped == q, "\(it.id) at \(p) should map to \(q)", sourceLocation: sourceLocation)
            }
        }
    } catch {
        Issue.record("engine refused the batch: \(error)", sourceLocation: sourceLocation)
    }
    var operationsOnly = diff.batch
    operationsOnly.dataAfter = nil
    do {
        #expect(try operationsOnly.apply(to: old).data == new, sourceLocation: sourceLocation)
    } catch {
        Issue.record("engine refused the batch without dataAfter: \(error)", sourceLocation: sourceLocation)
    }
    return diff
}

// MARK: - Exact cases

@Suite struct SnapshotDiffTests {
    @Test func identicalSnapshotsGiveAnEmptyBatch() throws {
        let d = try data(section("s0", ["a", "b"]), section("s1", ["c"]))
        let diff = diffChecked(d, d)
        #expect(diff.isEmpty)
        #expect(diff.batch == BatchUpdate([], dataAfter: d))
    }

    @Test func insertAtFront() throws {
        let old = try data(section("s0", ["a", "b", "c"]))
        let new = try data(section("s0", ["x", "a", "b", "c"]))
        let diff = diffChecked(old, new)
        #expect(diff.batch.operations == [.insertItems(at: [path(0, 0)], items: [item("x")])])
        #expect(diff.movedItems.isEmpty)
    }

    @Test func deleteOne() throws {
        let old = try data(section("s0", ["a", "b", "c"]))
        let new = try data(section("s0", ["a", "c"]))
        #expect(diffChecked(old, new).batch.operations == [.deleteItems(at: [path(0, 1)])])
    }

    @Test func swapTwoNeighboursIsOneMove() throws {
        let old = try data(section("s0", ["a", "b", "c", "d"]))
        let new = try data(section("s0", ["a", "c", "b", "d"]))
        let diff = diffChecked(old, new)
        #expect(diff.batch.operations.count == 1)
        #expect(diff.movedItems.count == 1)
    }

    @Test func swapEndsIsTwoMoves() throws {
        let old = try data(section("s0", ["a", "b", "c", "d"]))
        let new = try data(section("s0", ["d", "b", "c", "a"]))
        let diff = diffChecked(old, new)
        #expect(Set(diff.batch.operations) == [.moveItem(from: path(0, 3), to: path(0, 0)),
                                               .moveItem(from: path(0, 0), to: path(0, 3))])
    }

    @Test func moveToTheEndIsOneMove() throws {
        let old = try data(section("s0", ["a", "b", "c", "d", "e"]))
        let new = try data(section("s0", ["b", "c", "d", "e", "a"]))
        #expect(diffChecked(old, new).batch.operations == [.moveItem(from: path(0, 0), to: path(0, 4))])
    }

    @Test func moveAcrossSections() throws {
        let old = try data(section("s0", ["a", "b"]), section("s1", ["c"]))
        let new = try data(section("s0", ["a"]), section("s1", ["b", "c"]))
        #expect(diffChecked(old, new).batch.operations == [.moveItem(from: path(0, 1), to: path(1, 0))])
    }

    @Test func insertSection() throws {
        let old = try data(section("s0", ["a"]))
        let new = try data(section("s0", ["a"]), section("s1", ["x", "y"]))
        #expect(diffChecked(old, new).batch.operations
                == [.insertSections(at: [1], sections: [section("s1", ["x", "y"])])])
    }

    @Test func deleteSection() throws {
        let old = try data(section("s0", ["a"]), section("s1", ["b"]))
        let new = try data(section("s1", ["b"]))
        #expect(diffChecked(old, new).batch.operations == [.deleteSections(at: [0])])
    }

    @Test func moveSectionIsOneMove() throws {
        let old = try data(section("s0", ["a"]), section("s1", ["b"]), section("s2", ["c"]))
        let new = try data(section("s2", ["c"]), section("s0", ["a"]), section("s1", ["b"]))
        let diff = diffChecked(old, new)
        #expect(diff.batch.operations == [.moveSection(from: 2, to: 0)])
        #expect(diff.movedItems.isEmpty)
    }

    @Test func payloadChangeIsAReload() throws {
        let old = try data(section("s0", [item("a"), item("b", data: "1")]))
        let new = try data(section("s0", [item("a"), item("b", data: "2")]))
        #expect(diffChecked(old, new).batch.operations
                == [.reloadItems(at: [path(0, 1)], items: [item("b", data: "2")])])
    }

    @Test func sizeAndReuseIdentifierChangesAreReloads() throws {
        let old = try data(section("s0", [item("a"), item("b"), item("c")]))
        let new = try data(section("s0", [item("a", size: Size(10, 20)), item("b"), item("c", reuse: "big")]))
        let diff = diffChecked(old, new)
        #expect(diff.batch.operations == [.reloadItems(at: [path(0, 0), path(0, 2)],
                                                       items: [item("a", size: Size(10, 20)), item("c", reuse: "big")])])
    }

    @Test func emptyToFull() throws {
        let new = try data(section("s0", ["a", "b"]), section("s1", ["c"]))
        #expect(diffChecked(CollectionData(), new).batch.operations
                == [.insertSections(at: [0, 1], sections: new.sections)])
    }

    @Test func fullToEmpty() throws {
        let old = try data(section("s0", ["a", "b"]), section("s1", ["c"]))
        #expect(diffChecked(old, CollectionData()).batch.operations == [.deleteSections(at: [0, 1])])
    }

    @Test func itemIntoAnInsertedSectionIsDeletedFromItsOldOne() throws {
        let old = try data(section("s0", ["a", "b"]))
        let new = try data(section("s0", ["a"]), section("s1", ["b"]))
        let diff = diffChecked(old, new)
        #expect(Set(diff.batch.operations) == [.insertSections(at: [1], sections: [section("s1", ["b"])]),
                                               .deleteItems(at: [path(0, 1)])])
    }

    @Test func itemOutOfADeletedSectionIsInserted() throws {
        let old = try data(section("s0", ["a", "b"]), section("s1", ["c"]))
        let new = try data(section("s1", ["a", "c"]))
        let diff = diffChecked(old, new)
        #expect(Set(diff.batch.operations) == [.deleteSections(at: [0]),
                                               .insertItems(at: [path(0, 0)], items: [item("a")])])
    }

    @Test func changedItemThatMovesIsDeletedAndInserted() throws {
        let old = try data(section("s0", [item("a"), item("b"), item("c", data: "false")]))
        let new = try data(section("s0", [item("c", data: "true"), item("a"), item("b")]))
        let diff = diffChecked(old, new)
        #expect(Set(diff.batch.operations) == [.deleteItems(at: [path(0, 2)]),
                                               .insertItems(at: [path(0, 0)], items: [item("c", data: "true")])])
        #expect(diff.replacedItems == [.init(before: path(0, 2), after: path(0, 0))])
        #expect(diff.reloadedItems.isEmpty && diff.movedItems.isEmpty)
    }

    @Test func reloadInsideAMovedSectionUsesTheOldIndexPath() throws {
        let old = try data(section("s0", ["a"]), section("s1", [item("b"), item("c")]))
        let new = try data(section("s1", [item("b"), item("c", data: "null")]), section("s0", ["a"]))
        let diff = diffChecked(old, new)
        #expect(diff.movedSections.count == 1)
        #expect(diff.reloadedItems == [.init(before: path(1, 1), after: path(0, 1))])
    }

    @Test func mixedSectionAndItemChanges() throws {
        let old = try data(section("s0", ["a", "b", "c"]), section("s1", ["d", "e"]), section("s2", ["f"]))
        let new = try data(section("s3", ["g", "e"]), section("s2", ["f", "a"]), section("s0", ["c", "b", "h"]))
        let diff = diffChecked(old, new)
        #expect(diff.deletedSections == [1])
        #expect(diff.insertedSections == [0])
        // s0 and s2 swap order: one of them moves.
        #expect(diff.movedSections.count == 1)
    }

    @Test func batchConvenienceMatchesTheDiff() throws {
        let old = try data(section("s0", ["a", "b"]))
        let new = try data(section("s0", ["b", "c"]))
        #expect(SnapshotDiff.batch(from: old, to: new) == SnapshotDiff(from: old, to: new).batch)
    }

    // MARK: Longest increasing run

    @Test func increasingRunIsLongestAndIncreasing() {
        var rng = SplitMix64(seed: 7)
        var run = IncreasingRun()
        for _ in 0..<300 {
            var values = Array(0..<rng.below(40))
            rng.shuffle(&values)
            values = values.filter { _ in rng.chance(80) }
            run.mark(values)
            let picked = values.indices.filter { run.kept[$0] }.map { values[$0] }
            #expect(zip(picked, picked.dropFirst()).allSatisfy { $0 < $1 })
            // Quadratic reference for the length.
            var best = [Int](repeating: 1, count: values.count)
            for i in values.indices {
                for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
            }
            #expect(picked.count == (best.max() ?? 0))
        }
    }

    // MARK: Properties

    /// Random old/new pairs built by editing the old one: section deletes, inserts and shuffles,
    /// item deletes, inserts, moves within and across sections, content changes, and items that
    /// reappear out of deleted sections or into new ones.
    private static func editedPair(_ rng: inout SplitMix64) throws -> (CollectionData, CollectionData) {
        var nextID = 0
        func fresh() -> Int { nextID += 1; return nextID }
        func content(_ id: String) -> Item {
            item(id, size: rng.chance(30) ? Size(Double(rng.below(3)) * 10, 10) : nil,
                 reuse: rng.chance(20) ? "big" : Item.defaultReuseIdentifier,
                 data: rng.chance(50) ? "\(rng.below(3))" : nil)
        }
        var oldSections: [(SectionID, [Item])] = []
        for _ in 0..<rng.below(6) {
            oldSections.append((SectionID("s\(fresh())"), (0..<rng.below(12)).map { _ in content("i\(fresh())") }))
        }
        var sections = oldSections
        var loose: [Item] = []
        sections = sections.filter { sec in
            if rng.chance(15) { if rng.chance(50) { loose += sec.1 }; return false }
            return true
        }
        for _ in 0..<rng.below(3) {
            let at = rng.below(sections.count + 1)
            sections.insert((SectionID("s\(fresh())"), (0..<rng.below(5)).map { _ in content("i\(fresh())") }), at: at)
        }
        if rng.chance(30) { rng.shuffle(&sections) } else if sections.count > 1, rng.chance(40) {
            let moved = sections.remove(at: rng.below(sections.count))
            sections.insert(moved, at: rng.below(sections.count + 1))
        }
        // Per item: delete, lift out to move, change content, or keep.
        for s in sections.indices {
            sections[s].1 = sections[s].1.compactMap { it in
                switch rng.below(100) {
                case ..<10: return nil
                case ..<25: loose.append(rng.chance(30) ? content(it.id.rawValue) : it); return nil
                case ..<35: return content(it.id.rawValue)
                default: return it
                }
            }
            if sections[s].1.count > 1, rng.chance(30) {
                for _ in 0..<rng.below(3) {
                    sections[s].1.swapAt(rng.below(sections[s].1.count), rng.below(sections[s].1.count))
                }
            }
        }
        for _ in 0..<rng.below(6) { loose.append(content("i\(fresh())")) }
        if !sections.isEmpty {
            for it in loose where rng.chance(85) {
                let s = rng.below(sections.count)
                sections[s].1.insert(it, at: rng.below(sections[s].1.count + 1))
            }
        }
        let old = try CollectionData(sections: oldSections.map { Section(id: $0.0, items: $0.1) })
        let new = try CollectionData(sections: sections.map { Section(id: $0.0, items: $0.1) })
        return (old, new)
    }

    /// Random old/new pairs drawn independently from one small pool of ids: heavy churn.
    private static func independentPair(_ rng: inout SplitMix64) throws -> (CollectionData, CollectionData) {
        func snapshot() throws -> CollectionData {
            var sectionIDs = (0..<6).map { SectionID("s\($0)") }
            rng.shuffle(&sectionIDs)
            sectionIDs = Array(sectionIDs.prefix(rng.below(6)))
            var sections = sectionIDs.map { Section(id: $0) }
            if !sections.isEmpty {
                for i in 0..<30 where rng.chance(60) {
                    let s = rng.below(sections.count)
                    sections[s].insert(item("i\(i)", data: rng.chance(20) ? "true" : nil),
                                       at: rng.below(sections[s].count + 1))
                }
            }
            return try CollectionData(sections: sections)
        }
        return (try snapshot(), try snapshot())
    }

    @Test(arguments: 0..<4)
    func editedSnapshotsRoundTrip(batch: Int) throws {
        // How often each kind of change came up, so the generator is known to reach them all.
        var seen = [String: Int]()
        for k in 0..<150 {
            var rng = SplitMix64(seed: UInt64(batch * 1000 + k))
            let (old, new) = try Self.editedPair(&rng)
            let diff = diffChecked(old, new)
            seen["deletedSections", default: 0] += diff.deletedSections.count
            seen["insertedSections", default: 0] += diff.insertedSections.count
            seen["movedSections", default: 0] += diff.movedSections.count
            seen["deletedItems", default: 0] += diff.deletedItems.count
            seen["insertedItems", default: 0] += diff.insertedItems.count
            seen["movedItems", default: 0] += diff.movedItems.count
            seen["crossSectionMoves", default: 0] += diff.movedItems.filter {
                old.sections[$0.before.section].id != new.sections[$0.after.section].id
            }.count
            seen["reloadedItems", default: 0] += diff.reloadedItems.count
            seen["replacedItems", default: 0] += diff.replacedItems.count
        }
        #expect(seen.count == 9 && seen.values.allSatisfy { $0 > 0 }, "\(seen)")
    }

    @Test func independentSnapshotsRoundTrip() throws {
        for k in 0..<300 {
            var rng = SplitMix64(seed: UInt64(50_000 + k))
            let (old, new) = try Self.independentPair(&rng)
            diffChecked(old, new)
        }
    }

    /// Contents are compared in place in the chunks' columns: the diff of lists cut into small
    /// chunks (contents compared across chunk boundaries, old and new cut differently) is the
    /// diff of the same data in one chunk per section.
    @Test func sameDiffWhateverTheChunking() throws {
        func rechunked(_ data: CollectionData, _ capacity: Int) throws -> CollectionData {
            try CollectionData(sections: data.sections.map {
                Section(id: $0.id, items: ItemList(Array($0.items), chunkCapacity: capacity))
            })
        }
        var reloads = 0
        for k in 0..<150 {
            var rng = SplitMix64(seed: UInt64(70_000 + k))
            let (old, new) = try Self.editedPair(&rng)
            let whole = SnapshotDiff(from: old, to: new)
            let chunked = SnapshotDiff(from: try rechunked(old, 2), to: try rechunked(new, 3))
            #expect(chunked == whole, "seed \(70_000 + k)")
            reloads += whole.reloadedItems.count + whole.replacedItems.count
        }
        #expect(reloads > 0)
    }

    @Test func reverseRoundTrip() throws {
        for k in 0..<100 {
            var rng = SplitMix64(seed: UInt64(90_000 + k))
            let (old, new) = try Self.editedPair(&rng)
            diffChecked(new, old)
        }
    }

    // MARK: DifferenceKit's benchmark shape, at a tenth of its size

    @Test func differenceKitShapeAtReducedSize() throws {
        var rng = SplitMix64(seed: 2024)
        let old = CollectionData.generated(count: 10_000)
        var ids = old.sections[0].items.map(\.id)
        var deleted = Set<Int>()
        while deleted.count < 1_000 { deleted.insert(rng.below(ids.count)) }
        ids = ids.indices.filter { !deleted.contains($0) }.map { ids[$0] }
        for n in 0..<1_000 { ids.insert(ItemID("new\(n)"), at: rng.below(ids.count + 1)) }
        // 200 shuffled: 100 swaps of distinct random positions.
        var touched = Set<Int>()
        while touched.count < 200 {
            let a = rng.below(ids.count), b = rng.below(ids.count)
            guard a != b, !touched.contains(a), !touched.contains(b) else { continue }
            touched.insert(a); touched.insert(b)
            ids.swapAt(a, b)
        }
        let new = try CollectionData(sections: [Section(id: "s0", items: ids.map { Item(id: $0) })])
        let diff = diffChecked(old, new)
        #expect(diff.deletedItems.count == 1_000)
        #expect(diff.insertedItems.count == 1_000)
        #expect(diff.reloadedItems.isEmpty && diff.replacedItems.isEmpty)
        // Each swap needs at most two moves, and at least one.
        #expect((100...200).contains(diff.movedItems.count))
    }

    @Test func movingOneItemInALongListIsOneMove() {
        let old = CollectionData.generated(count: 10_000)
        var items = old.sections[0].items
        let first = items.remove(at: 0)
        items.append(first)
        let new = try! CollectionData(sections: [Section(id: "s0", items: items)])
        let diff = diffChecked(old, new)
        #expect(diff.batch.operations == [.moveItem(from: path(0, 0), to: path(0, 9_999))])
    }
}
