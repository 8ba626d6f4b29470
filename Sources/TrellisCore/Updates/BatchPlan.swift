/// A batch that passed validation, resolved against the data before it: the operations that take
/// effect (after UIKit's silent drops and de-duplication), where every section goes, and how many
/// items each section holds afterwards. `BatchValidator` makes it; `apply(to:)` builds from it.
struct BatchPlan {
    /// An item operation's index path and, when the operation carried one, its item.
    struct ItemEntry {
        var path: IndexPath
        var item: Item?
    }

    /// A section operation's index and, when the operation carried one, its section.
    struct SectionEntry {
        var index: Int
        var section: Section?
    }

    /// An item move, from a path before the update to a path after it.
    struct ItemMove: Hashable {
        var from: IndexPath
        var to: IndexPath
    }

    /// Effective item inserts (new paths), ascending; none lies in an inserted or reloaded section.
    var itemInserts: [ItemEntry] = []
    /// Effective item deletes (old paths), ascending; none lies in a deleted or reloaded section.
    var itemDeletes: [IndexPath] = []
    /// Effective item moves, de-duplicated, ascending by source.
    var itemMoves: [ItemMove] = []
    /// Effective item reloads (old paths), ascending; none lies in a deleted or reloaded section.
    var itemReloads: [ItemEntry] = []
    /// Inserted sections (new indices), ascending.
    var sectionInserts: [SectionEntry] = []
    /// Deleted sections (old indices), ascending; reloaded sections are not listed here.
    var sectionDeletes: [Int] = []
    /// Section moves, de-duplicated, ascending by source.
    var sectionMoves: [(from: Int, to: Int)] = []
    /// Reloaded sections (old indices), ascending.
    var sectionReloads: [SectionEntry] = []

    /// Where each section after the update comes from.
    var placement: SectionPlacement
    /// The number of items in each section after the update (from `dataAfter` when given).
    var newItemCounts: [Int]
}
