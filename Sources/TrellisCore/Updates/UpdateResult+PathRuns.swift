extension UpdateResult {
    /// Every item that survived the update and whose index path changed, as maximal runs in old
    /// order: expanded, exactly the `[old, new]` pairs of `newIndexPath(for:)` for each such item,
    /// ascending by old path. Read off the runs the batch recorded, so it costs O(runs) — one
    /// insert at 0:0 on a million items is one run — plus O(sections).
    public func changedPathRuns() -> [ItemPathRun] {
        // Items that crossed to another section, in old order (at most one per move).
        let crossed = items.movedOut.sorted { $0.key < $1.key }
        var nextCrossed = 0
        var runs: [ItemPathRun] = []
        var pending: ItemPathRun?

        func add(_ run: ItemPathRun) {
            guard run.count > 0 else { return }
            if let last = pending, last.isContinued(by: run) {
                pending!.count += run.count
                return
            }
            flush()
            pending = run
        }
        func flush() {
            // A run that did not move is left out: its items kept their index paths.
            if let last = pending, last.old != last.new { runs.append(last) }
            pending = nil
        }
        /// Crossed items of section `s` before old index `limit`.
        func addCrossed(section s: Int, before limit: Int) {
            while nextCrossed < crossed.count, crossed[nextCrossed].key.section == s, crossed[nextCrossed].key.item < limit {
                add(ItemPathRun(old: crossed[nextCrossed].key, new: crossed[nextCrossed].value, count: 1))
                nextCrossed += 1
            }
        }

        for (s, table) in items.oldTables.enumerated() {
            guard let t = items.newSection[s] else { continue }
            switch table {
            case .identity(let count):
                add(ItemPathRun(old: IndexPath(s, 0), new: IndexPath(t, 0), count: count))
            case .none:
                break
            case .runs(let sectionRuns):
                for run in sectionRuns.byOld {
                    addCrossed(section: s, before: run.old)
                    add(ItemPathRun(old: IndexPath(s, run.old), new: IndexPath(t, run.new), count: run.count))
                }
            }
            addCrossed(section: s, before: Int.max)
            // Runs never continue across an old section's end.
            flush()
        }
        flush()
        return runs
    }
}
