import TrellisCore
import TrellisProtocol

/// select and deselect: programmatic selection (selectItem / deselectItem, no delegate steps);
/// `deselect` with `all` clears it, as UIKit's `selectItem(at: nil, …)` does.
enum SelectionMethods {
    static let entries: [Method] = [
        Method("select", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "at"])
            return try change(&context) { view, at throws(EngineError) in try view.select(at) }
        },
        Method("deselect", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "at", "all"])
            if try context.optionalBool("all") == true {
                guard context.params.field("at") == nil else {
                    throw .invalidParams("params: expected either at (one item) or all: true, found both")
                }
                let session = try context.sessionBroughtToNow()
                session.collectionView.deselectAll()
                return selection(session)
            }
            return try change(&context) { view, at throws(EngineError) in try view.deselect(at) }
        },
    ]

    private static func change(_ context: inout MethodContext,
                               _ body: (inout CollectionView, IndexPath) throws(EngineError) -> Void) throws(RPCError) -> JSONValue {
        let session = try context.sessionBroughtToNow()
        let at = try context.indexPath("at")
        do throws(EngineError) { try body(&session.collectionView, at) } catch { throw .from(error) }
        return selection(session)
    }

    private static func selection(_ session: Session) -> JSONValue {
        .object(["selected": .array(session.collectionView.selectedItems.map { .string($0.rawValue) })])
    }
}
