/// One operation of a batch update, in UIKit's coordinate rules: deletes, reloads and move
/// sources name index paths before the update; inserts and move destinations name index paths
/// after it. The order of operations inside a batch does not matter.
public enum UpdateOperation: Hashable, Sendable {
    /// insertItems(at:): the items to insert, one per index path (after the update).
    case insertItems(at: [IndexPath], items: [Item])
    /// deleteItems(at:) (before the update).
    case deleteItems(at: [IndexPath])
    /// moveItem(at:to:): from before, to after.
    case moveItem(from: IndexPath, to: IndexPath)
    /// reloadItems(at:) (before): a delete plus an insert of the same item identity for
    /// animation; `items` replaces their content (same count as `at`), nil keeps it.
    case reloadItems(at: [IndexPath], items: [Item]?)
    /// insertSections(_:): the sections to insert, one per index (after the update).
    case insertSections(at: [Int], sections: [Section])
    /// deleteSections(_:) (before the update).
    case deleteSections(at: [Int])
    /// moveSection(_:toSection:): from before, to after.
    case moveSection(from: Int, to: Int)
    /// reloadSections(_:) (before); `sections` replaces their content, nil keeps it.
    case reloadSections(at: [Int], sections: [Section]?)
}

/// A batch update: operations applied atomically, whole or not at all, as performBatchUpdates.
public struct BatchUpdate: Hashable, Sendable {
    public var operations: [UpdateOperation]
    /// The data source's state after the update, when the client gives it (UIKit asks its data
    /// source for the counts after the update block): the count checks then compare against it,
    /// and on success it becomes the data. Without it the new data is derived from the operations.
    public var dataAfter: CollectionData?

    public init(_ operations: [UpdateOperation], dataAfter: CollectionData? = nil) {
        self.operations = operations
        self.dataAfter = dataAfter
    }
}
