import TrellisCore
import TrellisDynamics
import TrellisGeometry
import TrellisProtocol

/// A session's dynamic state in the snapshot file (StateSnapshot's `dynamics`):
/// `{bodies: [{name, number, center, size, angle, reuseId, zIndex, data?}], nextBody,
///   elements: [{element, item}], nextItem, behaviors: [{behavior, spec}],
///   items: [{item, center, size, angle, velocity, angularVelocity, material…}]}`.
/// Behaviours are kept in their wire form and decoded again on restore, through the same
/// decoder as dynamics.add.
enum DynamicsStateCoding {
    static func json(_ s: DynamicsSnapshot) -> JSONValue {
        .object([
            "bodies": .array(s.bodies.map { b in
                var o: [String: JSONValue] = ["name": .string(b.name), "number": int(b.number), "center": pair(b.center.x, b.center.y),
                                              "size": pair(b.size.width, b.size.height), "angle": .number(b.angle),
                                              "reuseId": .string(b.reuseIdentifier), "zIndex": int(b.zIndex)]
                if let data = b.data { o["data"] = data.json }
                return .object(o)
            }),
            "nextBody": int(s.nextBodyNumber),
            "elements": .array(s.elements.map { .object(["element": $0.element.wire, "item": int($0.item.rawValue)]) }),
            "nextItem": int(s.nextItem),
            "behaviors": .array(s.behaviors.map { entry in
                var o: [String: JSONValue] = ["behavior": int(entry.id.rawValue), "spec": WireBehaviorSpec.json(entry.spec)]
                if let reason = entry.stopped { o["stopped"] = .string(reason) }
                if !entry.carryOver.isEmpty { o["carryOver"] = .array(entry.carryOver.map(JSONValue.number)) }
                return .object(o)
            }),
            "solver": s.carryOver.map { solver($0, timestep: s.timestep) } ?? .null,
            "items": .array(s.items.map { entry in
                let b = entry.state, p = b.properties
                return .object([
                    "item": int(entry.item.rawValue), "center": pair(b.center.x, b.center.y), "size": pair(b.size.width, b.size.height),
                    "angle": .number(b.angle), "velocity": pair(b.velocity.dx, b.velocity.dy), "angularVelocity": .number(b.angularVelocity),
                    "density": .number(p.density), "elasticity": .number(p.elasticity), "friction": .number(p.friction),
                    "resistance": .number(p.resistance), "angularResistance": .number(p.angularResistance),
                    "allowsRotation": .bool(p.allowsRotation), "anchored": .bool(p.isAnchored), "charge": .number(p.charge),
                ])
            }),
        ])
    }

    static func snapshot(_ v: JSONValue, path: String) throws(ParamError) -> DynamicsSnapshot {
        try v.rejectUnknownKeys(allowed: ["bodies", "nextBody", "elements", "nextItem", "behaviors", "items", "solver"], path: path)
        var s = DynamicsSnapshot()
        for (n, b) in try v.requireArray("bodies", in: path).enumerated() {
            let p = "\(path).bodies[\(n)]"
            try b.rejectUnknownKeys(allowed: ["name", "number", "center", "size", "angle", "reuseId", "zIndex", "data"], path: p)
            s.bodies.append(FreeBody(name: try b.requireString("name", in: p), number: try b.requireInt("number", in: p),
                                     center: try point(b, "center", p), size: try size(b, "size", p),
                                     angle: try b.requireNumber("angle", in: p), reuseIdentifier: try b.requireString("reuseId", in: p),
                                     data: b.field("data").map(ItemPayload.init), zIndex: try b.requireInt("zIndex", in: p)))
        }
        s.nextBodyNumber = try v.requireInt("nextBody", in: path)
        for (n, e) in try v.requireArray("elements", in: path).enumerated() {
            let p = "\(path).elements[\(n)]"
            guard let element = e.field("element") else { throw ParamError(path: "\(p).element", .missing(expected: "an element")) }
            s.elements.append((try DynamicElement.decode(element, path: "\(p).element"), DynamicItemID(try e.requireInt("item", in: p))))
        }
        s.nextItem = try v.requireInt("nextItem", in: path)
        for (n, b) in try v.requireArray("behaviors", in: path).enumerated() {
            let p = "\(path).behaviors[\(n)]"
            try b.rejectUnknownKeys(allowed: ["behavior", "spec", "stopped", "carryOver"], path: p)
            let carryOver = try b.optionalArray("carryOver", in: p) ?? []
            s.behaviors.append((BehaviorID(try b.requireInt("behavior", in: p)), WireBehaviorSpec(try b.requireObject("spec", in: p)),
                                try b.optionalString("stopped", in: p), try numbers(carryOver, "\(p).carryOver")))
        }
        for (n, i) in try v.requireArray("items", in: path).enumerated() {
            let p = "\(path).items[\(n)]"
            var body = DynamicBody(center: try point(i, "center", p), size: try size(i, "size", p))
            body.angle = try i.requireNumber("angle", in: p)
            let velocity = try i.requireNumbers("velocity", count: 2, in: p)
            body.velocity = Vector(velocity[0], velocity[1])
            body.angularVelocity = try i.requireNumber("angularVelocity", in: p)
            body.properties.density = try i.requireNumber("density", in: p)
            body.properties.elasticity = try i.requireNumber("elasticity", in: p)
            body.properties.friction = try i.requireNumber("friction", in: p)
            body.properties.resistance = try i.requireNumber("resistance", in: p)
            body.properties.angularResistance = try i.requireNumber("angularResistance", in: p)
            body.properties.allowsRotation = try i.requireBool("allowsRotation", in: p)
            body.properties.isAnchored = try i.requireBool("anchored", in: p)
            body.properties.charge = try i.requireNumber("charge", in: p)
            s.items.append((DynamicItemID(try i.requireInt("item", in: p)), body))
        }
        if let solver = v.field("solver"), solver != .null {
            (s.carryOver, s.timestep) = try carryOver(solver, path: "\(path).solver")
        }
        return s
    }

    // MARK: What the animator carries from step to step

    /// `{elapsedTime, steps, paused, restTimesCleared, nextBehavior, restTimes, contacts: [[a, b,
    /// boundary, feature, normalImpulse, tangentImpulse]], touching: [{key: [behavior, first,
    /// second, boundary], point, id?}], found: [[…]], joints: {ropes, pins, welds, slides: [[a, b,
    /// h, impulses…]]}, accumulated, lastTime, kicks?: [[item, dx, dy, angular, step]]}`; -1 stands
    /// for no item (a boundary's or the world's); `kicks` only while springs between items step some.
    static func solver(_ c: AnimatorCarryOver, timestep: (accumulated: Double, lastTime: Double?)?) -> JSONValue {
        func joints(_ list: [JointImpulse]) -> JSONValue {
            .array(list.map { .array([int($0.a ?? -1), int($0.b), .number($0.h)] + $0.values.map(JSONValue.number)) })
        }
        func key(_ k: TouchKey) -> JSONValue { .array([int(k.behavior), int(k.first), int(k.second ?? -1), int(k.boundary)]) }
        var o: [String: JSONValue] = [
            "elapsedTime": .number(c.elapsedTime), "steps": int(c.steps), "paused": .bool(c.isPaused),
            "restTimesCleared": .bool(c.restTimesCleared), "nextBehavior": int(c.nextBehavior),
            "restTimes": .array(c.restTimes.map(JSONValue.number)),
            "contacts": .array(c.contacts.map { .array([int($0.a ?? -1), int($0.b), int($0.boundary), int($0.feature),
                                                         .number($0.normalImpulse), .number($0.tangentImpulse)]) }),
            "touching": .array(c.touching.map { t in
                var o: [String: JSONValue] = ["key": key(t.key), "point": pair(t.point.x, t.point.y)]
                if let id = t.identifier { o["id"] = .string(id) }
                return .object(o)
            }),
            "found": .array(c.found.map(key)),
            "joints": .object(["ropes": joints(c.joints.ropes), "pins": joints(c.joints.pins), "welds": joints(c.joints.welds),
                               "slides": joints(c.joints.slides)]),
            "accumulated": .number(timestep?.accumulated ?? 0), "lastTime": timestep?.lastTime.map(JSONValue.number) ?? .null,
        ]
        if !c.kicks.isEmpty {
            o["kicks"] = .array(c.kicks.map { .array([int($0.index), .number($0.kick.velocity.dx), .number($0.kick.velocity.dy),
                                                      .number($0.kick.angular), .number($0.kick.step)]) })
        }
        return .object(o)
    }

    static func carryOver(_ v: JSONValue, path: String) throws(ParamError) -> (AnimatorCarryOver, (accumulated: Double, lastTime: Double?)) {
        try v.rejectUnknownKeys(allowed: ["elapsedTime", "steps", "paused", "restTimesCleared", "nextBehavior", "restTimes", "contacts",
                                          "touching", "found", "joints", "accumulated", "lastTime", "kicks"], path: path)
        func rows(_ key: String, width: ClosedRange<Int>) throws(ParamError) -> [[Double]] {
            var result: [[Double]] = []
            for (n, row) in try v.requireArray(key, in: path).enumerated() {
                let values = try numbers(row.arrayValue ?? [], "\(path).\(key)[\(n)]")
                guard width.contains(values.count) else {
                    throw ParamError(path: "\(path).\(key)[\(n)]", .mismatch(expected: "\(width.lowerBound)…\(width.upperBound) numbers", found: "\(values.count)"))
                }
                result.append(values)
            }
            return result
        }
        func whole(_ x: Double, _ p: String) throws(ParamError) -> Int {
            guard x == x.rounded(), abs(x) < 1e15 else { throw ParamError(path: p, .mismatch(expected: "a whole number", found: "\(x)")) }
            return Int(x)
        }
        func optionalItem(_ x: Double, _ p: String) throws(ParamError) -> Int? {
            let n = try whole(x, p)
            return n < 0 ? nil : n
        }
        var contacts: [CachedContact] = []
        for (n, r) in try rows("contacts", width: 6...6).enumerated() {
            let p = "\(path).contacts[\(n)]"
            contacts.append(CachedContact(a: try optionalItem(r[0], p), b: try whole(r[1], p), boundary: try whole(r[2], p),
                                          feature: try whole(r[3], p), normalImpulse: r[4], tangentImpulse: r[5]))
        }
        func key(_ value: JSONValue, _ p: String) throws(ParamError) -> TouchKey {
            let k = try numbers(value.arrayValue ?? [], p)
            guard k.count == 4 else { throw ParamError(path: p, .mismatch(expected: "4 numbers", found: "\(k.count)")) }
            return TouchKey(behavior: try whole(k[0], p), first: try whole(k[1], p), second: try optionalItem(k[2], p), boundary: try whole(k[3], p))
        }
        var touching: [TouchingContact] = []
        for (n, t) in try v.requireArray("touching", in: path).enumerated() {
            let p = "\(path).touching[\(n)]"
            try t.rejectUnknownKeys(allowed: ["key", "point", "id"], path: p)
            guard let k = t.field("key") else { throw ParamError(path: "\(p).key", .missing(expected: "a key")) }
            touching.append(TouchingContact(key: try key(k, "\(p).key"), point: try point(t, "point", p), identifier: try t.optionalString("id", in: p)))
        }
        var found: [TouchKey] = []
        for (n, k) in try v.requireArray("found", in: path).enumerated() { found.append(try key(k, "\(path).found[\(n)]")) }
        let j = try v.requireObject("joints", in: path)
        func joints(_ kind: String) throws(ParamError) -> [JointImpulse] {
            var list: [JointImpulse] = []
            for (n, row) in try j.requireArray(kind, in: "\(path).joints").enumerated() {
                let p = "\(path).joints.\(kind)[\(n)]"
                let r = try numbers(row.arrayValue ?? [], p)
                guard r.count >= 3 else { throw ParamError(path: p, .mismatch(expected: "at least 3 numbers", found: "\(r.count)")) }
                list.append(JointImpulse(a: try optionalItem(r[0], p), b: try whole(r[1], p), h: r[2], values: Array(r[3...])))
            }
            return list
        }
        var impulses = JointImpulses()
        impulses.ropes = try joints("ropes")
        impulses.pins = try joints("pins")
        impulses.welds = try joints("welds")
        impulses.slides = try joints("slides")
        var kicks: [IndexedKick] = []
        if v.field("kicks") != nil {
            for (n, r) in try rows("kicks", width: 5...5).enumerated() {
                let p = "\(path).kicks[\(n)]"
                let limit = DynamicBody.worldLimit
                guard r[1...3].allSatisfy({ abs($0) <= limit }), r[4] > 0, r[4] <= 1 else {
                    throw ParamError(path: p, .mismatch(expected: "offsets within ±1e12 and a step in (0, 1] s", found: "\(r)"))
                }
                kicks.append(IndexedKick(index: try whole(r[0], p), kick: SteppedKick(velocity: Vector(dx: r[1], dy: r[2]), angular: r[3], step: r[4])))
            }
        }
        let carry = AnimatorCarryOver(
            elapsedTime: try v.requireNumber("elapsedTime", in: path), steps: try v.requireInt("steps", in: path),
            isPaused: try v.requireBool("paused", in: path), restTimesCleared: try v.requireBool("restTimesCleared", in: path),
            nextBehavior: try v.requireInt("nextBehavior", in: path),
            restTimes: try numbers(try v.requireArray("restTimes", in: path), "\(path).restTimes"),
            contacts: contacts, touching: touching, found: found, joints: impulses, kicks: kicks)
        let lastTime = v.field("lastTime") == .null ? nil : try v.requireNumber("lastTime", in: path)
        return (carry, (try v.requireNumber("accumulated", in: path), lastTime))
    }

    /// Every element a number.
    private static func numbers(_ values: [JSONValue], _ path: String) throws(ParamError) -> [Double] {
        var result: [Double] = []
        for (n, value) in values.enumerated() {
            guard let x = value.numberValue else { throw ParamError(path: "\(path)[\(n)]", .mismatch(expected: "a number", found: value.kindDescription)) }
            result.append(x)
        }
        return result
    }

    /// Puts `s` back on `view`: bodies and elements, then each behaviour decoded from its wire
    /// form (a behaviour that no longer decodes fails the session's restore, naming it).
    static func restore(_ s: DynamicsSnapshot, on view: inout CollectionView, path: String) throws(ParamError) {
        view.restoreDynamicElements(s)
        var behaviors: [(id: BehaviorID, behavior: any DynamicBehavior, spec: any DynamicBehaviorSpec, stopped: String?, carryOver: [Double])] = []
        for (n, entry) in s.behaviors.enumerated() {
            var resolver = view.restoringElementResolver()
            do throws(BehaviorSpecError) {
                behaviors.append((entry.id, try BehaviorSpec.decode(WireBehaviorSpec.json(entry.spec), path: "\(path).behaviors[\(n)].spec", resolver: &resolver),
                                  entry.spec, entry.stopped, entry.carryOver))
            } catch {
                switch error {
                case .params(let p): throw p
                case .engine(let e): throw ParamError(path: "\(path).behaviors[\(n)].spec", .mismatch(expected: "a behaviour of the session", found: e.description))
                }
            }
        }
        view.restoreDynamicBehaviors(behaviors, items: s.items, carryOver: s.carryOver, timestep: s.timestep)
    }

    private static func point(_ v: JSONValue, _ key: String, _ path: String) throws(ParamError) -> Point {
        let p = try v.requireNumbers(key, count: 2, labels: ["x", "y"], in: path)
        return Point(p[0], p[1])
    }

    private static func size(_ v: JSONValue, _ key: String, _ path: String) throws(ParamError) -> Size {
        let s = try v.requireNumbers(key, count: 2, labels: ["width", "height"], in: path)
        return Size(s[0], s[1])
    }

    private static func int(_ n: Int) -> JSONValue { .number(Double(n)) }
    private static func pair(_ a: Double, _ b: Double) -> JSONValue { .array([.number(a), .number(b)]) }
}
