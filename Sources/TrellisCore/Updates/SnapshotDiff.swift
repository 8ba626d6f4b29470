/// The difference between two snapshots of the data, as one batch update that UIKit would accept.
///
/// Sections are matched by `SectionID` and items by `ItemID`, across sections, the way
/// Heckel's algorithm matches lines: one hash table from identifier to old position, one pass
/// over the new data, one pass over the old. Moves are kept few: the surviving sections, and the
/// items that stay in the same section, that form a longest increasing run of old positions in
/// new order do not move; only the others get a move. So the cost is O(n log n) in the worst case
/// and O(n) when nothing moved, and a few shuffled items yield a few moves.
///
/// How the result is expressed, where UIKit forbids the direct form:
/// - An item leaving a deleted section, or entering an inserted section, cannot be a move:
///   it is covered by the section delete or insert plus an item insert or delete on the other side.
/// - A surviving item whose content (`size`, `reuseIdentifier`, `data`) changed is a reload
///   when it stays in place, and a delete plus an insert of the new item when it also moves
///   (UIKit cannot reload and move one item). Such items are also listed in `replacedItems`.
/// - Inserted sections carry their whole new content; no item operation names them.
/// The operations alone therefore rebuild `new` exactly; the batch carries `dataAfter: new` too,
/// so the engine checks counts against it and installs it as is.
public struct SnapshotDiff: Hashable, Sendable {
    /// A surviving element's position before the update and after it; the same pair type as
    /// the applier's result, so a diff and the result of applying it read alike.
    public typealias Match<Position: Hashable & Sendable> = UpdateResult.Change<Position>

    /// Old indices of the sections that are gone, ascending.
    public private(set) var deletedSections: [Int] = []
    /// New indices of the sections that are new, ascending (their items come with them).
    public private(set) var insertedSections: [Int] = []
    /// The surviving sections that move (the others keep their relative order).
    public private(set) var movedSections: [Match<Int>] = []
    /// Old index paths of the items to delete, ascending (none inside deleted sections).
    public private(set) var deletedItems: [IndexPath] = []
    /// New index paths of the items to insert, ascending (none inside inserted sections).
    public private(set) var insertedItems: [IndexPath] = []
    /// The surviving items that move, with unchanged content.
    public private(set) var movedItems: [Match<IndexPath>] = []
    /// The surviving items that stay in place with changed content (reloaded at `before`).
    public private(set) var reloadedItems: [Match<IndexPath>] = []
    /// The surviving items that moved and changed: expressed as a delete at `before` and an
    /// insert at `after`, so they are also in `deletedItems` and `insertedItems`.
    public private(set) var replacedItems: [Match<IndexPath>] = []
    /// The batch update: the operations above, with `dataAfter` set to the new data.
    public private(set) var batch: BatchUpdate

    /// True when the two snapshots hold the same sections and items with the same content.
    public var isEmpty: Bool { batch.operations.isEmpty }

    /// The batch update that turns `old` into `new`.
    public static func batch(from old: CollectionData, to new: CollectionData) -> BatchUpdate {
        SnapshotDiff(from: old, to: new).batch
    }

    /// Computes the difference; `new` has unique identifiers because it is a `CollectionData`.
    public init(from old: CollectionData, to new: CollectionData) {
        batch = BatchUpdate([], dataAfter: new)
        let oldSections = old.sections, newSections = new.sections
        var lis = IncreasingRun()

        // Sections: match by identifier.
        var oldSectionIndex = [SectionID: Int](minimumCapacity: oldSections.count)
        for (s, section) in oldSections.enumerated() { oldSectionIndex[section.id] = s }
        var newSectionOfOld = [Int](repeating: -1, count: oldSections.count)
        var oldSectionOfNew = [Int](repeating: -1, count: newSections.count)
        var survivingOld: [Int] = [], survivingNew: [Int] = []
        for (s, section) in newSections.enumerated() {
            guard let o = oldSectionIndex[section.id] else { insertedSections.append(s); continue }
            newSectionOfOld[o] = s
            oldSectionOfNew[s] = o
            survivingOld.append(o)
            survivingNew.append(s)
        }
        for (o, n) in newSectionOfOld.enumerated() where n < 0 { deletedSections.append(o) }
        lis.mark(survivingOld)
        for k in survivingOld.indices where !lis.kept[k] {
            movedSections.append(Match(before: survivingOld[k], after: survivingNew[k]))
        }

        // Items: one table from identifier to old position, packed as section << 32 | item.
        // Items of deleted sections stay out of it: wherever they reappear, they are inserts.
        var oldStart = [Int](), oldTotal = 0, indexed = 0
        oldStart.reserveCapacity(oldSections.count)
        for (s, section) in oldSections.enumerated() {
            oldStart.append(oldTotal)
            oldTotal += section.count
            if newSectionOfOld[s] >= 0 { indexed += section.count }
        }
        var oldPosition = IdentifierTable(capacity: indexed)
        for s in oldSections.indices where newSectionOfOld[s] >= 0 {
            // Buffer access reads each identifier in place instead of copying whole items.
            oldSections[s].items.forEachChunk { start, ids in
                for i in ids.indices { oldPosition.insert(ids[i], s << Self.sectionShift | (start + i)) }
            }
        }
        // Whether each old item still needs an explicit delete; cleared when it is kept or moved.
        var deleteOld = [Bool](repeating: true, count: oldTotal)
        var deletedItems: [IndexPath] = [], insertedItems: [IndexPath] = []
        var movedItems: [Match<IndexPath>] = [], reloadedItems: [Match<IndexPath>] = []
        var replacedItems: [Match<IndexPath>] = []

        var found = [Int](), run = [Int](), runAt = [Int]()
        let oldPlain = oldSections.map { $0.items.holdsOnlyPlainItems }
        for s in newSections.indices where oldSectionOfNew[s] >= 0 {
            let o = oldSectionOfNew[s]
            // First pass: look each item up; the ones that stay in this section pair form
            // the sequence whose longest increasing run keeps its place.
            found.removeAll(keepingCapacity: true)
            run.removeAll(keepingCapacity: true)
            runAt.removeAll(keepingCapacity: true)
            found.reserveCapacity(newSections[s].count)
            newSections[s].items.forEachChunk { start, ids in
                for i in ids.indices {
                    guard let p = oldPosition.value(for: ids[i]) else { found.append(-1); continue }
                    found.append(p)
                    if p >> Self.sectionShift == o { run.append(p & Self.itemMask); runAt.append(start + i) }
                }
            }
            lis.mark(run)
            for k in run.indices where lis.kept[k] { found[runAt[k]] |= Self.keptFlag }
            // Second pass, in new order so inserts come out ascending. Contents are compared in
            // place in the chunks' columns (building both items copied a chunk's columns, a
            // retain and release of each, per item), the new item found through a cursor; two
            // lists of plain items need no comparison at all.
            let items = newSections[s].items, plain = items.holdsOnlyPlainItems
            var cursor = ItemList.Cursor(items)
            for i in 0..<items.count {
                let to = IndexPath(s, i)
                guard found[i] >= 0 else { insertedItems.append(to); continue }
                let kept = found[i] & Self.keptFlag != 0, p = found[i] & ~Self.keptFlag
                let from = IndexPath(p >> Self.sectionShift, p & Self.itemMask)
                let flat = oldStart[from.section] + from.item
                let changed = !(plain && oldPlain[from.section])
                    && !cursor.sameContent(at: i, as: oldSections[from.section].items, at: from.item)
                if kept {
                    deleteOld[flat] = false
                    if changed { reloadedItems.append(Match(before: from, after: to)) }
                } else if changed {
                    insertedItems.append(to)
                    replacedItems.append(Match(before: from, after: to))
                } else {
                    deleteOld[flat] = false
                    movedItems.append(Match(before: from, after: to))
                }
            }
        }
        for (o, section) in oldSections.enumerated() where newSectionOfOld[o] >= 0 {
            let start = oldStart[o]
            for i in 0..<section.count where deleteOld[start + i] { deletedItems.append(IndexPath(o, i)) }
        }
        self.deletedItems = deletedItems
        self.insertedItems = insertedItems
        self.movedItems = movedItems
        self.reloadedItems = reloadedItems
        self.replacedItems = replacedItems
        batch.operations = operations(new)
    }

    /// The operations in UIKit's vocabulary (their order inside a batch does not matter).
    private func operations(_ new: CollectionData) -> [UpdateOperation] {
        var ops: [UpdateOperation] = []
        ops.reserveCapacity(5 + movedSections.count + movedItems.count)
        if !deletedSections.isEmpty { ops.append(.deleteSections(at: deletedSections)) }
        if !insertedSections.isEmpty {
            ops.append(.insertSections(at: insertedSections, sections: insertedSections.map { new.sections[$0] }))
        }
        for m in movedSections { ops.append(.moveSection(from: m.before, to: m.after)) }
        if !deletedItems.isEmpty { ops.append(.deleteItems(at: deletedItems)) }
        if !insertedItems.isEmpty {
            ops.append(.insertItems(at: insertedItems, items: insertedItems.map { new[$0] }))
        }
        for m in movedItems { ops.append(.moveItem(from: m.before, to: m.after)) }
        if !reloadedItems.isEmpty {
            ops.append(.reloadItems(at: reloadedItems.map(\.before), items: reloadedItems.map { new[$0.after] }))
        }
        return ops
    }

    // An old position packs its section above bit 32 and its item below; bit 62 marks the
    // items kept in place. Sections and items each stay far below 2^30 in practice.
    private static let sectionShift = 32
    private static let itemMask = (1 << 32) - 1
    private static let keptFlag = 1 << 62
}

/// Finds a longest strictly increasing subsequence (patience sorting, O(n log n), O(n) when the
/// input is already increasing), reusing its buffers between calls.
struct IncreasingRun {
    /// After `mark`, whether each element of the input is in the run.
    private(set) var kept: [Bool] = []
    private var tails: [Int] = []
    private var previous: [Int] = []

    /// Marks one longest increasing run of `values` (distinct integers) in `kept`.
    mutating func mark(_ values: [Int]) {
        let n = values.count
        kept.removeAll(keepingCapacity: true)
        kept.append(contentsOf: repeatElement(false, count: n))
        tails.removeAll(keepingCapacity: true)
        previous.removeAll(keepingCapacity: true)
        previous.reserveCapacity(n)
        for (i, v) in values.enumerated() {
            // tails[k] is the index of the smallest value ending a run of length k + 1.
            if let last = tails.last, values[last] > v {
                var lo = 0, hi = tails.count - 1
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
                }
                previous.append(lo > 0 ? tails[lo - 1] : -1)
                tails[lo] = i
            } else {
                previous.append(tails.last ?? -1)
                tails.append(i)
            }
        }
        var i = tails.last ?? -1
        while i >= 0 { kept[i] = true; i = previous[i] }
    }
}
