import TrellisCore
import TrellisProtocol

/// data.reload (reloadData) and data.apply (a snapshot, diffed into a batch update).
enum DataMethods {
    static let entries: [Method] = [
        Method("data.reload", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "sections"])
            let session = try context.sessionBroughtToNow()
            let data: CollectionData
            do throws(WireError) { data = try WireDecoding.data(context.params) } catch { throw .from(error) }
            session.collectionView.reloadData(data)
            return .object(["sections": .number(Double(data.numberOfSections)), "items": .number(Double(data.totalItemCount))])
        },
        Method("data.apply", .changesSession) { context throws(RPCError) in
            try context.allow(WireDecoding.timingKeys + ["session", "sections", "mapping"])
            let session = try context.sessionBroughtToNow()
            let snapshot: CollectionData
            do throws(WireError) { snapshot = try WireDecoding.data(context.params) } catch { throw .from(error) }
            let timing = try context.timing()
            let form = try context.mappingForm()
            do throws(UpdateError) {
                let (update, _, result) = try session.collectionView.applySnapshot(snapshot, animation: timing)
                return context.updateResult(result, update: update, mapping: form)
            } catch { throw .from(error) }
        },
    ]
}
