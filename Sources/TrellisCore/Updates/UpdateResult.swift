/// The outcome of an applied batch update: the new data and where every item and section went.
///
/// Index paths follow UIKit's update items: `deleted` and the `before` side of pairs are paths in
/// the old data; `inserted` and the `after` side are paths in the new data. Item-level sets list
/// only item operations; items of inserted, deleted or reloaded sections are covered by the
/// section-level sets instead.
public struct UpdateResult: Hashable, Sendable {
    /// A position before the update and the same element's position after it.
    public struct Change<Position: Hashable & Sendable>: Hashable, Sendable {
        public var before: Position
        public var after: Position

        public init(before: Position, after: Position) {
            self.before = before
            self.after = after
        }
    }

    /// The data after the update.
    public let data: CollectionData
    /// Old section index → new section index; nil for a deleted section. A reloaded section maps
    /// to its new index (its identity survives).
    public let sectionMapping: [Int?]
    /// Inserted items (new paths).
    public let inserted: Set<IndexPath>
    /// Deleted items (old paths).
    public let deleted: Set<IndexPath>
    /// Moved items (old → new paths).
    public let moved: Set<Change<IndexPath>>
    /// Reloaded items (old → new paths: the item keeps its identity and may shift like any other).
    public let reloaded: Set<Change<IndexPath>>
    /// Inserted sections (new indices).
    public let insertedSections: Set<Int>
    /// Deleted sections (old indices).
    public let deletedSections: Set<Int>
    /// Moved sections (old → new indices).
    public let movedSections: Set<Change<Int>>
    /// Reloaded sections (old → new indices).
    public let reloadedSections: Set<Change<Int>>
    /// New section indices a layout must measure again: those whose items changed (inserted,
    /// deleted, moved in, out or within, reloaded, or the whole section inserted or reloaded), and
    /// those that now hold a different section than before (a moved section, or one shifted by
    /// section inserts, deletes or moves), since layouts cache per section index. With `dataAfter`,
    /// also a section the batch did not touch whose content differs anyway.
    public let changedSections: Set<Int>
    /// True when the number of sections differs from before.
    public let sectionCountChanged: Bool

    let items: ItemIndexMap

    init(data: CollectionData, items: ItemIndexMap, inserted: Set<IndexPath>, deleted: Set<IndexPath>,
         moved: Set<Change<IndexPath>>, reloaded: Set<Change<IndexPath>>, insertedSections: Set<Int>,
         deletedSections: Set<Int>, movedSections: Set<Change<Int>>, reloadedSections: Set<Change<Int>>,
         changedSections: Set<Int>, sectionCountChanged: Bool) {
        self.data = data
        self.items = items
        sectionMapping = items.newSection
        self.inserted = inserted
        self.deleted = deleted
        self.moved = moved
        self.reloaded = reloaded
        self.insertedSections = insertedSections
        self.deletedSections = deletedSections
        self.movedSections = movedSections
        self.reloadedSections = reloadedSections
        self.changedSections = changedSections
        self.sectionCountChanged = sectionCountChanged
    }

    /// Where the item at `old` (before the update) is after it; nil when it was deleted, or its
    /// section was deleted, or it belonged to a reloaded section whose new content lacks its identifier.
    public func newIndexPath(for old: IndexPath) -> IndexPath? { items.newIndexPath(for: old) }

    /// Where the item at `new` (after the update) was before it; nil for an inserted item.
    public func oldIndexPath(for new: IndexPath) -> IndexPath? { items.oldIndexPath(for: new) }

    /// The new index of old section `old`; nil when it was deleted or does not exist.
    public func newSection(for old: Int) -> Int? {
        items.newSection.indices.contains(old) ? items.newSection[old] : nil
    }

    /// The old index of new section `new`; nil when it was inserted or does not exist.
    public func oldSection(for new: Int) -> Int? {
        items.oldSection.indices.contains(new) ? items.oldSection[new] : nil
    }
}
