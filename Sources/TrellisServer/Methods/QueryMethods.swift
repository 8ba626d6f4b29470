import TrellisCore
import TrellisProtocol

/// query.attributes (model attributes, where the layout puts things) and query.scene
/// (presentation state, what is on screen now).
enum QueryMethods {
    static let entries: [Method] = [
        Method(name: "query.attributes", mutates: false) { context throws(RPCError) in
            try context.allow(["session", "rect", "at"])
            let session = try context.session()
            context.touched = nil
            let view = session.collectionView
            var buffer = ByteBuffer(capacity: 1024)
            var list = JSONArrayWriter(into: &buffer)
            func itemID(_ a: LayoutAttributes) -> ItemID? {
                a.element.isCell && view.data.contains(a.indexPath) ? view.data[a.indexPath].id : nil
            }
            if context.params.field("at") != nil {
                let at = try context.indexPath("at")
                guard view.data.contains(at), let a = view.attributes(for: .cell(at)) else {
                    throw .from(EngineError.itemOutOfRange(at, sections: view.data.numberOfSections,
                                                           items: at.section < view.data.numberOfSections ? view.data.numberOfItems(inSection: at.section) : nil))
                }
                list.element(into: &buffer); WireEncoding.writeAttributes(a, itemID: itemID(a), into: &buffer)
            } else {
                let r = try context.numbers("rect", ["x", "y", "width", "height"])
                for a in view.attributes(in: Rect(r[0], r[1], r[2], r[3])) {
                    list.element(into: &buffer); WireEncoding.writeAttributes(a, itemID: itemID(a), into: &buffer)
                }
            }
            list.end(into: &buffer)
            do throws(JSONParseError) { return .object(["attributes": try JSONParser.parse(buffer.bytes, limits: .init(maximumDepth: 16, maximumStringBytes: 1 << 20, maximumElements: 1 << 24))]) }
            catch { throw RPCError(code: -32603, message: "internal error: \(error.message)") }
        },
        Method(name: "query.scene", mutates: false) { context throws(RPCError) in
            try context.allow(["session"])
            let session = try context.session()
            context.touched = nil
            var buffer = ByteBuffer(capacity: 4096)
            WireEncoding.writeScene(session.collectionView.scene, into: &buffer)
            do throws(JSONParseError) { return try JSONParser.parse(buffer.bytes, limits: .init(maximumDepth: 16, maximumStringBytes: 1 << 20, maximumElements: 1 << 24)) }
            catch { throw RPCError(code: -32603, message: "internal error: \(error.message)") }
        },
    ]
}
