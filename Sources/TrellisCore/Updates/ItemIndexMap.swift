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
            if var last = byNew.last, last.old + last.count == old, last.new + last.count == new {
                last.count += 1
                byNew[byNew.count - 1] = last
            } else {
                byNew.append(IndexRun(old: old, new: new, count: 1))
            }
        }
        var byOld: [IndexRun] = []
        for (old, new) in newByOld.enumerated() where new >= 0 {
            if var last = byOld.last, last.old + last.count == old, last.new + last.count == new {
                last.count += 1
                byOld[byOld.count - 1] = last
            } else {
                byOld.append(IndexRun(old: old, new: new, count: 1))
            }
        }
        self.byNew = byNew
        self.byOld = byOld
    }

    func newIndex(of old: Int) -> Int? {
        // The last run starting at or before `old`.
        var low = 0, high = byOld.count
        while low < high {
            let mid = (low + high) / 2
            if byOld[mid].old <= old { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let run = byOld[low - 1]
        return old < run.old + run.count ? run.new + (old - run.old) : nil
    }

    func oldIndex(of new: Int) -> Int? {
        var low = 0, high = byNew.count
        while low < high {
            let mid = (low + high) / 2
            if byNew[mid].new <= new { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let run = byNew[low - 1]
        return new < run.new + run.count ? run.old + (new - run.new) : nil
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
