/// Items of a batch that shifted together: `count` consecutive items of one section from `old`
/// (before the update) are consecutive items of one section from `new` after it. A batch's
/// old → new mapping as runs costs O(operations) where the per-item form costs O(items).
public struct ItemPathRun: Hashable, Sendable {
    /// The first item of the run before the update.
    public var old: IndexPath
    /// Where that item is after the update.
    public var new: IndexPath
    /// How many items the run holds (at least 1).
    public var count: Int

    public init(old: IndexPath, new: IndexPath, count: Int) {
        self.old = old
        self.new = new
        self.count = count
    }

    /// The run's items one by one, as `[old, new]` changes.
    public var changes: some Sequence<UpdateResult.Change<IndexPath>> {
        (0..<count).lazy.map { [old, new] k in
            UpdateResult.Change(before: IndexPath(old.section, old.item + k), after: IndexPath(new.section, new.item + k))
        }
    }

    /// True when `next` continues this run: the item after its last, on both sides.
    func isContinued(by next: ItemPathRun) -> Bool {
        next.old.section == old.section && next.old.item == old.item + count
            && next.new.section == new.section && next.new.item == new.item + count
    }
}
