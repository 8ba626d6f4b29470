/// The old ↔ new item index paths of one batch, stored per section so that sections the batch did
/// not touch cost nothing, and a touched section costs one entry per run of items that kept their
/// order (a batch of k operations leaves O(k) runs, however many items the section holds).
///
/// An item in no run of its section was removed, or crossed to another section: those are looked
/// up in a small dictionary (there are at most as many of them as move operations).
struct ItemIndexMap: Hashable, Sendable {
    enum Table: Hashable, Sendable {
        /// Every item keeps its index (`count` items).
        case identity(count: Int)
        /// No item maps (a deleted or inserted section).
        case none
        /// The items that continue in the section, as runs.
        case runs(IndexRuns)
    }

    /// By old section: where its items go, inside `newSection[old]`.
    var oldTables: [Table]
    /// By new section: where its items come from, inside `oldSection[new]`.
    var newTables: [Table]
    /// Old section → new section.
    var newSection: [Int?]
    /// New section → old section.
    var oldSection: [Int?]
    /// Items that moved to another section: old path → new path, and back.
    var movedOut: [IndexPath: IndexPath] = [:]
    var movedIn: [IndexPath: IndexPath] = [:]

    func newIndexPath(for old: IndexPath) -> IndexPath? {
        guard oldTables.indices.contains(old.section), let section = newSection[old.section], old.item >= 0 else { return nil }
        switch oldTables[old.section] {
        case .identity(let count):
            return old.item < count ? IndexPath(section, old.item) : nil
        case .none:
            return nil
        case .runs(let runs):
            if let index = runs.newIndex(of: old.item) { return IndexPath(section, index) }
            return movedOut[old]
        }
    }

    func oldIndexPath(for new: IndexPath) -> IndexPath? {
        guard newTables.indices.contains(new.section), let section = oldSection[new.section], new.item >= 0 else { return nil }
        switch newTables[new.section] {
        case .identity(let count):
            return new.item < count ? IndexPath(section, new.item) : nil
        case .none:
            return nil
        case .runs(let runs):
            if let index = runs.oldIndex(of: new.item) { return IndexPath(section, index) }
            return movedIn[new]
        }
    }
}

/// A stretch of consecutive items of one section that stay consecutive after a batch: `count`
/// items from index `old` before it are at the indices from `new` after it.
struct IndexRun: Hashable, Sendable {
    var old: Int
    var new: Int
    var count: Int
}

/// The runs of one section that continues, sorted both ways for lookups in either direction.
/// Runs do not overlap on either side; indices in no run are removed (old) or placed (new).
struct IndexRuns: Hashable, Sendable {
    /// Ascending by `old`.
    private(set) var byOld: [IndexRun]
    /// Ascending by `new`.
    private(set) var byNew: [IndexRun]

    /// Runs given in new order (as a section is assembled); they are sorted by old here.
    init(inNewOrder runs: [IndexRun]) {
        byNew = runs
        byOld = runs
        // Runs of items that stay are already in old order; only moves within the section
        // (one item each) are out of place, so this is usually a check of a sorted array.
        if !byOld.isSortedByOld { byOld.sort { $0.old < $1.old } }
    }

    /// Runs read off a table of old indices by new index (negative: none).
    init(oldIndexByNew table: [Int], oldCount: Int) {
        var byNew: [IndexRun] = []
        var newByOld = [Int](repeating: -1, count: oldCount)
        for (new, old) in table.enumerated() where old >= 0 {
            newByOld[old] = new
            Self.extend(&byNew, old: old, new: new)
        }
        var byOld: [IndexRun] = []
        for (old, new) in newByOld.enumerated() where new >= 0 { Self.extend(&byOld, old: old, new: new) }
        self.byNew = byNew
        self.byOld = byOld
    }

    /// Adds the pair `old → new` to `runs`: to the last run when it goes on from it on both sides.
    private static func extend(_ runs: inout [IndexRun], old: Int, new: Int) {
        if let last = runs.last, last.old + last.count == old, last.new + last.count == new {
            runs[runs.count - 1].count += 1
        } else {
            runs.append(IndexRun(old: old, new: new, count: 1))
        }
    }

    func newIndex(of old: Int) -> Int? { Self.map(old, in: byOld, fromOld: true) }

    func oldIndex(of new: Int) -> Int? { Self.map(new, in: byNew, fromOld: false) }

    /// The index on the other side of `index`, read off the last run of `runs` (sorted by the
    /// side `index` is on) that starts at or before it; nil when that run ends before it.
    @inline(__always)
    private static func map(_ index: Int, in runs: [IndexRun], fromOld: Bool) -> Int? {
        var low = 0, high = runs.count
        while low < high {
            let mid = (low + high) / 2
            if (fromOld ? runs[mid].old : runs[mid].new) <= index { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let run = runs[low - 1]
        let (from, to) = fromOld ? (run.old, run.new) : (run.new, run.old)
        return index < from + run.count ? to + (index - from) : nil
    }
}

private extension Array where Element == IndexRun {
    var isSortedByOld: Bool {
        var previous = Int.min
        for run in self {
            if run.old < previous { return false }
            previous = run.old
        }
        return true
    }
}
