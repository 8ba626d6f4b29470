import TrellisCore
import TrellisProtocol

/// query.attributes (model attributes, where the layout puts things) and query.scene
/// (presentation state, what is on screen now); both written straight into the reply's bytes.
enum QueryMethods {
    static let entries: [Method] = [
        Method("query.attributes", .reads) { context throws(RPCError) in
            try context.allow(["session", "rect", "at"])
            let view = try context.sessionBroughtToNow().collectionView
            let found: [LayoutAttributes]
            if context.params.field("at") != nil {
                let at = try context.indexPath("at")
                guard view.data.contains(at), let a = view.attributes(for: .cell(at)) else {
                    throw .from(EngineError.itemOutOfRange(at, sections: view.data.numberOfSections,
                                                           items: at.section < view.data.numberOfSections ? view.data.numberOfItems(inSection: at.section) : nil))
                }
                found = [a]
            } else {
                let r = try context.numbers("rect", ["x", "y", "width", "height"], in: ParamRanges.queryRect)
                found = view.attributes(in: Rect(r[0], r[1], r[2], r[3]))
            }
            return context.encoded(capacity: 64 + 160 * found.count) { b in
                var o = JSONObjectWriter(into: &b)
                o.key("attributes", into: &b)
                var list = JSONArrayWriter(into: &b)
                for a in found {
                    let itemID = a.element.isCell && view.data.contains(a.indexPath) ? view.data[a.indexPath].id : nil
                    list.element(into: &b)
                    WireEncoding.writeAttributes(a, itemID: itemID, into: &b)
                }
                list.end(into: &b)
                o.end(into: &b)
            }
        },
        Method("query.scene", .reads) { context throws(RPCError) in
            try context.allow(["session"])
            let scene = try context.sessionBroughtToNow().collectionView.scene
            return context.encoded(capacity: 4096) { b in WireEncoding.writeScene(scene, into: &b) }
        },
    ]
}
