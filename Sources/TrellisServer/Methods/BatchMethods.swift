import TrellisCore
import TrellisProtocol

/// batch: performBatchUpdates with explicit operations, validated as UIKit validates them.
enum BatchMethods {
    static let entries: [Method] = [
        Method("batch", .changesSession) { context throws(RPCError) in
            try context.allow(WireDecoding.timingKeys + ["session", "ops", "sections"])
            let session = try context.sessionBroughtToNow()
            let batch: BatchUpdate
            do throws(WireError) { batch = try BatchDecoding.batch(context.params) } catch { throw .from(error) }
            let timing = try context.timing()
            let before = session.collectionView.data
            do throws(UpdateError) {
                let (update, result) = try session.collectionView.performBatchUpdates(batch, animation: timing)
                return WireEncoding.updateResult(result, update: update, oldData: before)
            } catch { throw .from(error) }
        },
    ]
}
