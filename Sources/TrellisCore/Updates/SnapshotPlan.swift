/// A snapshot's diff and the update it makes, worked out apart from the engine, so that a server
/// can do it off its loop (a million items take about a second) and install it later with
/// `CollectionView.applySnapshot(_:animation:)`. Pure: it reads two copy-on-write data sets.
public struct SnapshotPlan: Sendable {
    /// The data the plan was worked out from.
    public let base: CollectionData
    /// The data to arrive at.
    public let snapshot: CollectionData
    public let batch: BatchUpdate
    public let result: UpdateResult

    public init(from base: CollectionData, to snapshot: CollectionData) throws(UpdateError) {
        self.base = base
        self.snapshot = snapshot
        batch = SnapshotDiff.batch(from: base, to: snapshot)
        result = try batch.apply(to: base)
    }
}
