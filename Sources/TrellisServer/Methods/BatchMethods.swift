import TrellisCore
import TrellisProtocol

/// batch: performBatchUpdates with explicit operations, validated as UIKit validates them.
enum BatchMethods {
    static let entries: [Method] = [
        Method("batch", .changesSession) { context throws(RPCError) in
            try context.allow(WireDecoding.timingKeys + ["session", "ops", "sections", "mapping"])
            let session = try context.sessionBroughtToNow()
            let batch: BatchUpdate
            do throws(WireError) { batch = try BatchDecoding.batch(context.params) } catch { throw .from(error) }
            let timing = try context.timing()
            let form = try context.mappingForm()
            do throws(UpdateError) {
                let (update, result) = try session.collectionView.performBatchUpdates(batch, animation: timing)
                return context.updateResult(result, update: update, mapping: form)
            } catch { throw .from(error) }
        },
    ]
}

extension MethodContext {
    /// `params.mapping`: how the reply lists where items went.
    func mappingForm() throws(RPCError) -> MappingForm {
        do { return try MappingForm.from(params) } catch { throw .invalidParams(error) }
    }

    /// A batch's reply (`batch`, `data.apply`), written straight into the result buffer: with
    /// the mapping as ranges it is O(changes), whatever the size of the data.
    mutating func updateResult(_ result: UpdateResult, update: Int, mapping form: MappingForm) -> JSONValue {
        encoded(capacity: 512) { b in WireEncoding.writeUpdateResult(result, update: update, mapping: form, into: &b) }
    }
}
