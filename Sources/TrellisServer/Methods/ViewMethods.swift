import TrellisCore
import TrellisProtocol

/// view.resize, scroll.to, scroll.toItem, gesture.tap, hit, select, deselect.
enum ViewMethods {
    static let entries: [Method] = [
        Method(name: "view.resize", mutates: true) { context throws(RPCError) in
            try context.allow(["session", "bounds"])
            let session = try context.session()
            let bounds = try context.numbers("bounds", ["width", "height"])
            guard bounds[0] > 0, bounds[1] > 0 else { throw .invalidParams("params.bounds: expected a positive width and height") }
            session.collectionView.resize(to: Size(bounds[0], bounds[1]))
            return offset(session)
        },
        Method(name: "scroll.to", mutates: true) { context throws(RPCError) in
            try context.allow(timingKeys.union(["session", "offset"]))
            let session = try context.session()
            let p = try context.numbers("offset", ["x", "y"])
            let timing = try context.timing(defaultAnimated: false, base: .scroll)
            let scroll: Int?
            do throws(EngineError) { scroll = try session.collectionView.setContentOffset(Point(p[0], p[1]), timing: timing) } catch { throw .from(error) }
            return offset(session, scroll: scroll)
        },
        Method(name: "scroll.toItem", mutates: true) { context throws(RPCError) in
            try context.allow(timingKeys.union(["session", "at", "position"]))
            let session = try context.session()
            let at = try context.indexPath("at")
            let name = try context.optionalString("position") ?? "top"
            guard let position = ScrollPosition(names: name) else {
                throw .invalidParams("params.position: expected top, centeredVertically, bottom, left, centeredHorizontally or right (one per axis, joined with ','), found \"\(name)\"")
            }
            let timing = try context.timing(defaultAnimated: false, base: .scroll)
            let scroll: Int?
            do throws(EngineError) { scroll = try session.collectionView.scrollToItem(at: at, position: position, timing: timing) } catch { throw .from(error) }
            return offset(session, scroll: scroll)
        },
        Method(name: "gesture.tap", mutates: true) { context throws(RPCError) in
            try context.allow(["session", "point"])
            let session = try context.session()
            let p = try context.numbers("point", ["x", "y"])
            let (hit, events) = session.collectionView.tap(at: Point(p[0], p[1]))
            return .object(["hit": hitJSON(hit), "events": .array(events.map(WireEncoding.selectionEvent)),
                            "selected": .array(session.collectionView.selectedItems.map { .string($0.rawValue) })])
        },
        Method(name: "hit", mutates: false) { context throws(RPCError) in
            try context.allow(["session", "point"])
            let session = try context.session()
            context.touched = nil
            let p = try context.numbers("point", ["x", "y"])
            return .object(["hit": hitJSON(session.collectionView.hitTest(Point(p[0], p[1])))])
        },
        Method(name: "select", mutates: true) { context throws(RPCError) in
            try context.allow(["session", "at"])
            let session = try context.session()
            let at = try context.indexPath("at")
            do throws(EngineError) { try session.collectionView.select(at) } catch { throw .from(error) }
            return .object(["selected": .array(session.collectionView.selectedItems.map { .string($0.rawValue) })])
        },
        Method(name: "deselect", mutates: true) { context throws(RPCError) in
            try context.allow(["session", "at"])
            let session = try context.session()
            let at = try context.indexPath("at")
            do throws(EngineError) { try session.collectionView.deselect(at) } catch { throw .from(error) }
            return .object(["selected": .array(session.collectionView.selectedItems.map { .string($0.rawValue) })])
        },
    ]

    /// The animation keys scroll.to and scroll.toItem take (not animated unless `animated`).
    static let timingKeys: Set<String> = ["animated", "duration", "delay", "curve", "damping", "velocity"]

    /// The model offset (the target while a scroll animates), the content size, and an animated
    /// scroll's id (its `scroll.completed` notification).
    static func offset(_ session: Session, scroll: Int? = nil) -> JSONValue {
        let s = session.collectionView.scroll
        var result: [String: JSONValue] = [
            "contentOffset": .array([.number(s.contentOffset.x), .number(s.contentOffset.y)]),
            "contentSize": .array([.number(s.contentSize.width), .number(s.contentSize.height)])]
        if let scroll { result["scroll"] = .number(Double(scroll)) }
        return .object(result)
    }

    static func hitJSON(_ hit: SceneView?) -> JSONValue {
        guard let hit else { return .null }
        var buffer = ByteBuffer(capacity: 256)
        WireEncoding.writeSceneView(hit, into: &buffer)
        return (try? JSONParser.parse(buffer.bytes)) ?? .null
    }
}
