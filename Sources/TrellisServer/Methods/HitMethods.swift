import TrellisCore
import TrellisProtocol

/// hit: the topmost view at a point (UIView.hitTest), without touching anything.
enum HitMethods {
    static let entries: [Method] = [
        Method("hit", .reads) { context throws(RPCError) in
            try context.allow(["session", "point"])
            let session = try context.sessionBroughtToNow()
            let p = try context.numbers("point", ["x", "y"], in: ParamRanges.coordinate)
            let hit = session.collectionView.hitTest(Point(p[0], p[1]))
            return context.encoded(capacity: 256) { b in
                var o = JSONObjectWriter(into: &b)
                writeHit(hit, key: "hit", &o, into: &b)
                o.end(into: &b)
            }
        },
    ]

    /// `key`: the scene view hit, or null.
    static func writeHit(_ hit: SceneView?, key: StaticString, _ o: inout JSONObjectWriter, into b: inout ByteBuffer) {
        guard let hit else { return o.field(key, JSONValue.null, into: &b) }
        o.key(key, into: &b)
        WireEncoding.writeSceneView(hit, into: &b)
    }
}
