import TrellisCore
import TrellisProtocol

/// select and deselect: programmatic selection (selectItem / deselectItem, no delegate steps).
enum SelectionMethods {
    static let entries: [Method] = [
        Method("select", .changesSession) { context throws(RPCError) in
            try change(&context) { view, at throws(EngineError) in try view.select(at) }
        },
        Method("deselect", .changesSession) { context throws(RPCError) in
            try change(&context) { view, at throws(EngineError) in try view.deselect(at) }
        },
    ]

    private static func change(_ context: inout MethodContext,
                               _ body: (inout CollectionView, IndexPath) throws(EngineError) -> Void) throws(RPCError) -> JSONValue {
        try context.allow(["session", "at"])
        let session = try context.sessionBroughtToNow()
        let at = try context.indexPath("at")
        do throws(EngineError) { try body(&session.collectionView, at) } catch { throw .from(error) }
        return .object(["selected": .array(session.collectionView.selectedItems.map { .string($0.rawValue) })])
    }
}
