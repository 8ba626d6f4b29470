import TrellisCore
import TrellisProtocol

/// gesture.tap: UIKit's touch flow on the cell under a point (highlight, select, unhighlight);
/// gesture.pan (UIPanGestureRecognizer driving the scroll) and gesture.touch (a catch).
enum GestureMethods {
    static let entries: [Method] = [
        Method("gesture.pan", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "phase", "translation", "velocity", "location"])
            let session = try context.sessionBroughtToNow()
            let name = try context.string("phase")
            guard let phase = PanPhase(rawValue: name) else {
                throw .invalidParams("params.phase: expected \"began\", \"changed\", \"ended\" or \"cancelled\", found \"\(name)\"")
            }
            let t = try context.numbers("translation", ["x", "y"], in: ParamRanges.panTranslation)
            let v = try context.optionalNumbers("velocity", ["dx", "dy"], in: ParamRanges.panVelocity) ?? [0, 0]
            let l = try context.optionalNumbers("location", ["x", "y"], in: ParamRanges.coordinate)
            do throws(EngineError) {
                try session.collectionView.pan(phase, translation: Point(t[0], t[1]), velocity: Point(v[0], v[1]),
                                               location: l.map { Point($0[0], $0[1]) })
            } catch { throw .from(error) }
            // Who holds the finger: if that connection goes with the pan unfinished, the server
            // ends it (Connections.swift), as a touch whose window went away is cancelled.
            let dragging = session.collectionView.scrollDeceleration.dragging || session.collectionView.orthogonalScrolling.drag != nil
            session.panOwner = dragging ? context.client.connection?.id : nil
            return ScrollWire.state(session.collectionView)
        },
        Method("gesture.touch", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "phase", "at"])
            let session = try context.sessionBroughtToNow()
            let name = try context.string("phase")
            guard name == "down" || name == "up" else {
                throw .invalidParams("params.phase: expected \"down\" or \"up\", found \"\(name)\"")
            }
            // Where the finger touches down says which orthogonal band (if any) it catches too.
            let at = try context.optionalNumbers("at", ["x", "y"], in: ParamRanges.coordinate)
            session.collectionView.touch(down: name == "down", at: at.map { Point($0[0], $0[1]) })
            return ScrollWire.state(session.collectionView)
        },
        Method("gesture.tap", .changesSession) { context throws(RPCError) in
            try context.allow(["session", "point"])
            let session = try context.sessionBroughtToNow()
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
