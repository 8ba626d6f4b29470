import TrellisCore
import TrellisProtocol

/// gesture.tap: UIKit's touch flow on the cell under a point (highlight, select, unhighlight).
enum GestureMethods {
    static let entries: [Method] = [
        Method("gesture.tap", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "point"])
            let session = try context.session()
            let p = try context.numbers("point", ["x", "y"], in: ParamRanges.coordinate)
            let (hit, events) = session.collectionView.tap(at: Point(p[0], p[1]))
            let selected = session.collectionView.selectedItems
            return context.encoded(capacity: 512) { b in
                var o = JSONObjectWriter(into: &b)
                o.field("events", .array(events.map(WireEncoding.selectionEvent)), into: &b)
                HitMethods.writeHit(hit, key: "hit", &o, into: &b)
                o.field("selected", .array(selected.map { .string($0.rawValue) }), into: &b)
                o.end(into: &b)
            }
        },
    ]
}
