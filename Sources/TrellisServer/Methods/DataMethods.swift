import TrellisCore
import TrellisProtocol

/// data.reload, data.apply (snapshot diff), batch (explicit UIKit operations).
enum DataMethods {
    static let animationKeys: Set<String> = ["animated", "duration", "delay", "curve", "damping", "velocity"]

    static let entries: [Method] = [
        Method(name: "data.reload", mutates: true) { context throws(RPCError) in
            try context.allow(["session", "sections"])
            let session = try context.session()
            let data: CollectionData
            do throws(WireError) { data = try WireDecoding.data(context.params) } catch { throw .from(error) }
            session.collectionView.reloadData(data)
            return .object(["sections": .number(Double(data.numberOfSections)), "items": .number(Double(data.totalItemCount))])
        },
        Method(name: "data.apply", mutates: true) { context throws(RPCError) in
            try context.allow(animationKeys.union(["session", "sections"]))
            let session = try context.session()
            let snapshot: CollectionData
            do throws(WireError) { snapshot = try WireDecoding.data(context.params) } catch { throw .from(error) }
            let timing = try context.timing()
            let before = session.collectionView.data
            do throws(UpdateError) {
                let (update, _, result) = try session.collectionView.applySnapshot(snapshot, animation: timing)
                return WireEncoding.updateResult(result, update: update, oldData: before)
            } catch { throw .from(error) }
        },
        Method(name: "batch", mutates: true) { context throws(RPCError) in
            try context.allow(animationKeys.union(["session", "ops", "sections"]))
            let session = try context.session()
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
