import TrellisCore
import TrellisProtocol

/// The snapshot's `motion` object: what was in flight in a session (`MotionState`), so that
/// compaction never waits for stillness and a restart resumes mid-motion. Numbers are written
/// exact (shortest round-trip decimals), not rounded as the wire's geometry is.
///
/// `{"transactions":[{id, kind, remaining, cancelled, interactive}], "nextTransaction",
///   "views":[VIEW], "leaving":[{view: VIEW, id?, data?}], "scroll"?: ANIMATION of [x, y],
///   "transition"?: {transaction, oldLayout, oldOffset, progress}}`, where VIEW is
/// `{element, reuseId, attributes, order, animation?: ANIMATION of attributes}` and ANIMATION is
/// `{from, to, start (s), timing: {duration, delay, curve, damping?, velocity?}, transaction, interactive}`.
enum MotionStateCoding {
    static func json(_ m: MotionState, session: String) throws(PersistenceError) -> JSONValue {
        var members: [String: JSONValue] = [
            "transactions": .array(m.transactions.map { t in
                .object(["id": int(t.id), "kind": .string(t.kind.rawValue), "remaining": int(t.remaining),
                         "cancelled": .bool(t.cancelled), "interactive": .bool(t.interactive)])
            }),
            "nextTransaction": int(m.nextTransactionID),
            "views": .array(m.views.map(view)),
            "leaving": .array(m.leaving.map { l in
                var o: [String: JSONValue] = ["view": view(l.view)]
                if let id = l.itemID { o["id"] = .string(id.rawValue) }
                if let data = l.data { o["data"] = data.json }
                return .object(o)
            }),
        ]
        if let s = m.scroll { members["scroll"] = animation(s, value: point) }
        if let t = m.transition {
            guard let old = LayoutEncoding.json(t.oldLayout) else {
                throw PersistenceError("session '\(session)' is in a transition from a '\(t.oldLayout.typeName)' layout, which the snapshot cannot write")
            }
            members["transition"] = .object(["transaction": int(t.transaction), "oldLayout": old,
                                             "oldOffset": point(t.oldOffset), "progress": .number(t.progress)])
        }
        return .object(members)
    }

    static func motion(_ v: JSONValue, path: String) throws(ParamError) -> MotionState {
        try v.rejectUnknownKeys(allowed: ["transactions", "nextTransaction", "views", "leaving", "scroll", "transition"], path: path)
        var m = MotionState()
        for (n, t) in try v.requireArray("transactions", in: path).enumerated() {
            let p = "\(path).transactions[\(n)]"
            let kindName = try t.requireString("kind", in: p)
            guard let kind = AnimationTransaction.Kind(rawValue: kindName) else {
                throw ParamError(path: "\(p).kind", .mismatch(expected: "update, layout or scroll", found: "\"\(kindName)\""))
            }
            m.transactions.append(AnimationTransaction(id: try t.requireInt("id", in: p), kind: kind,
                                                       remaining: try t.requireInt("remaining", in: p),
                                                       cancelled: try t.requireBool("cancelled", in: p),
                                                       interactive: try t.requireBool("interactive", in: p)))
        }
        m.nextTransactionID = try v.requireInt("nextTransaction", in: path)
        for (n, e) in try v.requireArray("views", in: path).enumerated() {
            m.views.append(try view(e, path: "\(path).views[\(n)]"))
        }
        for (n, e) in try v.requireArray("leaving", in: path).enumerated() {
            let p = "\(path).leaving[\(n)]"
            let leaving = try view(try e.requireObject("view", in: p), path: "\(p).view")
            guard leaving.animation != nil else {
                throw ParamError(path: "\(p).view.animation", .missing(expected: "the animation of a view on its way out"))
            }
            m.leaving.append(MotionState.LeavingView(view: leaving, itemID: try e.optionalString("id", in: p).map { ItemID($0) },
                                                     data: e.field("data").map(ItemPayload.init)))
        }
        if let s = try v.optionalObject("scroll", in: path) {
            m.scroll = try animation(s, path: "\(path).scroll") { value, p throws(ParamError) in try point(value, path: p) }
        }
        if let t = try v.optionalObject("transition", in: path) {
            let p = "\(path).transition"
            m.transition = MotionState.Transition(
                transaction: try t.requireInt("transaction", in: p),
                oldLayout: try LayoutSpec.layout(try t.requireObject("oldLayout", in: p), path: "\(p).oldLayout"),
                oldOffset: try point(try required(t, "oldOffset", p), path: "\(p).oldOffset"),
                progress: try t.requireNumber("progress", in: p))
        }
        return m
    }

    // MARK: Parts

    private static func int(_ n: Int) -> JSONValue { .number(Double(n)) }
    private static func point(_ p: Point) -> JSONValue { .array([.number(p.x), .number(p.y)]) }

    private static func required(_ v: JSONValue, _ key: String, _ path: String) throws(ParamError) -> JSONValue {
        guard let value = v.field(key) else { throw ParamError(path: "\(path).\(key)", .missing(expected: "a value")) }
        return value
    }

    private static func point(_ v: JSONValue, path: String) throws(ParamError) -> Point {
        let xy = try JSONValue.object(["p": v]).requireNumbers("p", count: 2, labels: ["x", "y"], in: path)
        return Point(xy[0], xy[1])
    }

    private static func view(_ v: MotionState.View) -> JSONValue {
        var o: [String: JSONValue] = ["element": element(v.element), "reuseId": .string(v.reuseIdentifier),
                                      "attributes": attributes(v.attributes), "order": int(v.order)]
        if let a = v.animation { o["animation"] = animation(a, value: attributes) }
        return .object(o)
    }

    private static func view(_ v: JSONValue, path: String) throws(ParamError) -> MotionState.View {
        try v.rejectUnknownKeys(allowed: ["element", "reuseId", "attributes", "order", "animation"], path: path)
        let (element, _) = try WireScene.element(try v.requireObject("element", in: path), path: "\(path).element")
        var animated: MotionState.Animation<LayoutAttributes>?
        if let a = try v.optionalObject("animation", in: path) {
            animated = try animation(a, path: "\(path).animation") { value, p throws(ParamError) in try attributes(value, path: p) }
        }
        return MotionState.View(element: element, reuseIdentifier: try v.requireString("reuseId", in: path),
                                attributes: try attributes(try v.requireObject("attributes", in: path), path: "\(path).attributes"),
                                order: try v.requireInt("order", in: path), animation: animated)
    }

    private static func element(_ e: ElementID) -> JSONValue {
        var o: [String: JSONValue] = ["kind": .string(e.kind.category), "section": int(e.indexPath.section)]
        if let number = e.bodyNumber { o["item"] = int(number) } else if e.isCell { o["item"] = int(e.indexPath.item) } else if let kind = e.kind.elementKind { o["elementKind"] = .string(kind) }
        return .object(o)
    }

    private static func attributes(_ a: LayoutAttributes) -> JSONValue {
        var o: [String: JSONValue] = [
            "element": element(a.element),
            "frame": .array([.number(a.frame.minX), .number(a.frame.minY), .number(a.frame.width), .number(a.frame.height)]),
            "alpha": .number(a.alpha), "zIndex": int(a.zIndex), "hidden": .bool(a.isHidden),
        ]
        if a.hasTransform { o["transform"] = .array(a.transform.values.map(JSONValue.number)) }
        return .object(o)
    }

    private static func attributes(_ v: JSONValue, path: String) throws(ParamError) -> LayoutAttributes {
        try v.rejectUnknownKeys(allowed: ["element", "frame", "alpha", "zIndex", "hidden", "transform"], path: path)
        let (element, _) = try WireScene.element(try v.requireObject("element", in: path), path: "\(path).element")
        let f = try v.requireNumbers("frame", count: 4, in: path)
        var transform = Transform3D.identity
        if let t = try v.optionalNumbers("transform", count: 16, in: path) {
            guard let parsed = Transform3D(t) else {
                throw ParamError(path: "\(path).transform", .mismatch(expected: "16 numbers", found: "\(t.count)"))
            }
            transform = parsed
        }
        return LayoutAttributes(element: element, frame: Rect(f[0], f[1], f[2], f[3]), transform: transform,
                                alpha: try v.requireNumber("alpha", in: path), zIndex: try v.requireInt("zIndex", in: path),
                                isHidden: try v.requireBool("hidden", in: path))
    }

    private static func animation<Value>(_ a: MotionState.Animation<Value>, value: (Value) -> JSONValue) -> JSONValue {
        var timing: [String: JSONValue] = ["duration": .number(a.timing.duration), "delay": .number(a.timing.delay),
                                           "curve": .string(a.timing.curve.name)]
        if case .spring(let damping, let velocity) = a.timing.curve {
            timing["damping"] = .number(damping)
            timing["velocity"] = .number(velocity)
        }
        return .object(["from": value(a.from), "to": value(a.to), "start": .number(a.startTime), "timing": .object(timing),
                        "transaction": int(a.transaction), "interactive": .bool(a.interactive)])
    }

    private static func animation<Value>(_ v: JSONValue, path: String,
                                         value: (JSONValue, String) throws(ParamError) -> Value) throws(ParamError) -> MotionState.Animation<Value> {
        try v.rejectUnknownKeys(allowed: ["from", "to", "start", "timing", "transaction", "interactive"], path: path)
        let t = try v.requireObject("timing", in: path)
        let tp = "\(path).timing"
        try t.rejectUnknownKeys(allowed: ["duration", "delay", "curve", "damping", "velocity"], path: tp)
        let name = try t.requireString("curve", in: tp)
        guard let curve = TimingCurve(name: name, dampingRatio: try t.optionalNumber("damping", in: tp) ?? 1,
                                      initialVelocity: try t.optionalNumber("velocity", in: tp) ?? 0) else {
            throw ParamError(path: "\(tp).curve", .mismatch(expected: "linear, easeIn, easeOut, easeInEaseOut or spring", found: "\"\(name)\""))
        }
        return MotionState.Animation(
            from: try value(try required(v, "from", path), "\(path).from"),
            to: try value(try required(v, "to", path), "\(path).to"),
            startTime: try v.requireNumber("start", in: path),
            timing: AnimationTiming(duration: try t.requireNumber("duration", in: tp), delay: try t.requireNumber("delay", in: tp), curve: curve),
            transaction: try v.requireInt("transaction", in: path), interactive: try v.requireBool("interactive", in: path))
    }
}
