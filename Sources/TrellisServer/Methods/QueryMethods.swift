import TrellisCore
import TrellisProtocol

/// query.attributes (model attributes, where the layout puts things) and query.scene
/// (presentation state, what is on screen now); both written straight into the reply's bytes.
enum QueryMethods {
    static let entries: [Method] = [
        Method("query.attributes", .reads) { context throws(RPCError) in
            try context.allow(["session", "rect", "at", "limit", "after"])
            let view = try context.sessionBroughtToNow().collectionView
            var found: [LayoutAttributes]
            var truncated = false
            // Checked whichever form is asked: a bad value is an error even where it is not used.
            let limit: Int
            do throws(ParamError) {
                limit = try context.reader.int("limit", ParamRanges.queryLimit, default: ParamRanges.queryLimitDefault)
            } catch { throw .invalidParams(error) }
            let after = try resumeElement(context)
            if context.params.field("at") != nil {
                let at = try context.indexPath("at")
                guard view.data.contains(at), let a = view.attributes(for: .cell(at)) else {
                    throw .from(EngineError.itemOutOfRange(at, sections: view.data.numberOfSections,
                                                           items: at.section < view.data.numberOfSections ? view.data.numberOfItems(inSection: at.section) : nil))
                }
                found = [a]
            } else {
                let r = try context.numbers("rect", ["x", "y", "width", "height"], in: ParamRanges.queryRect)
                // One more than the page says whether there is more, without counting the rest.
                found = view.attributes(in: Rect(r[0], r[1], r[2], r[3]), after: after, limit: limit + 1)
                if found.count > limit {
                    found.removeLast(found.count - limit)
                    truncated = true
                }
            }
            return context.encoded(capacity: 64 + 160 * found.count) { b in
                var o = JSONObjectWriter(into: &b)
                o.key("attributes", into: &b)
                var list = JSONArrayWriter(into: &b)
                for a in found {
                    let itemID = a.element.isCell && view.data.contains(a.indexPath) ? view.data.id(at: a.indexPath) : nil
                    list.element(into: &b)
                    WireEncoding.writeAttributes(a, itemID: itemID, into: &b)
                }
                list.end(into: &b)
                if truncated { o.field("truncated", true, into: &b) }
                o.end(into: &b)
            }
        },
        Method("query.scene", .reads) { context throws(RPCError) in
            try context.allow(["session"])
            let scene = try context.sessionBroughtToNow().collectionView.scene
            return context.encoded(capacity: 4096) { b in WireEncoding.writeScene(scene, into: &b) }
        },
    ]

    /// `params.after`: the element a rect query goes on after (an `element` as replies write it).
    private static func resumeElement(_ context: MethodContext) throws(RPCError) -> ElementID? {
        guard let value = context.params.field("after"), value != .null else { return nil }
        do throws(ParamError) {
            guard case .object = value else {
                throw ParamError(path: "params.after", .mismatch(expected: "an element object as a reply writes it ({\"kind\", \"section\", \"item\"?, \"elementKind\"?}): the last attribute's element of the page before", found: value.kindDescription))
            }
            try value.rejectUnknownKeys(allowed: ["kind", "section", "item", "id", "elementKind"], path: "params.after")
            let (element, _) = try WireScene.element(value, path: "params.after")
            let numbers = [element.indexPath.section, element.bodyNumber ?? element.indexPath.item]
            guard numbers.allSatisfy({ $0 >= 0 && $0 <= ParamRanges.elementIndexMaximum }) else {
                throw ParamError(path: "params.after", .mismatch(expected: "a section and item from 0 to \(ParamRanges.elementIndexMaximum)", found: "[\(numbers[0]), \(numbers[1])]"))
            }
            return element
        } catch { throw .invalidParams(error) }
    }
}
