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
                if let data = b.data { o["data"] = data }
                return .object(o)
            }),
            "nextBody": int(s.nextBodyNumber),
            "elements": .array(s.elements.map { .object(["element": BehaviorSpec.json($0.element), "item": int($0.item.rawValue)]) }),
            "nextItem": int(s.nextItem),
            "behaviors": .array(s.behaviors.map { entry in
                var o: [String: JSONValue] = ["behavior": int(entry.id.rawValue), "spec": entry.spec]
                if let reason = entry.stopped { o["stopped"] = .string(reason) }
                return .object(o)
            }),
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
        try v.rejectUnknownKeys(allowed: ["bodies", "nextBody", "elements", "nextItem", "behaviors", "items"], path: path)
        var s = DynamicsSnapshot()
        for (n, b) in try v.requireArray("bodies", in: path).enumerated() {
            let p = "\(path).bodies[\(n)]"
            try b.rejectUnknownKeys(allowed: ["name", "number", "center", "size", "angle", "reuseId", "zIndex", "data"], path: p)
            s.bodies.append(FreeBody(name: try b.requireString("name", in: p), number: try b.requireInt("number", in: p),
                                     center: try point(b, "center", p), size: try size(b, "size", p),
                                     angle: try b.requireNumber("angle", in: p), reuseIdentifier: try b.requireString("reuseId", in: p),
                                     data: b.field("data"), zIndex: try b.requireInt("zIndex", in: p)))
        }
        s.nextBodyNumber = try v.requireInt("nextBody", in: path)
        for (n, e) in try v.requireArray("elements", in: path).enumerated() {
            let p = "\(path).elements[\(n)]"
            guard let element = e.field("element") else { throw ParamError(path: "\(p).element", .missing(expected: "an element")) }
            s.elements.append((try BehaviorSpec.element(element, path: "\(p).element"), DynamicItemID(try e.requireInt("item", in: p))))
        }
        s.nextItem = try v.requireInt("nextItem", in: path)
        for (n, b) in try v.requireArray("behaviors", in: path).enumerated() {
            let p = "\(path).behaviors[\(n)]"
            try b.rejectUnknownKeys(allowed: ["behavior", "spec", "stopped"], path: p)
            s.behaviors.append((BehaviorID(try b.requireInt("behavior", in: p)), try b.requireObject("spec", in: p),
                                try b.optionalString("stopped", in: p)))
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
        return s
    }

    /// Puts `s` back on `view`: bodies and elements, then each behaviour decoded from its wire
    /// form (a behaviour that no longer decodes fails the session's restore, naming it).
    static func restore(_ s: DynamicsSnapshot, on view: inout CollectionView, path: String) throws(ParamError) {
        view.restoreDynamicElements(s)
        var behaviors: [(id: BehaviorID, behavior: any DynamicBehavior, spec: JSONValue, stopped: String?)] = []
        for (n, entry) in s.behaviors.enumerated() {
            var resolver = view.restoringElementResolver()
            do throws(BehaviorSpecError) {
                behaviors.append((entry.id, try BehaviorSpec.decode(entry.spec, path: "\(path).behaviors[\(n)].spec", resolver: &resolver),
                                  entry.spec, entry.stopped))
            } catch {
                switch error {
                case .params(let p): throw p
                case .engine(let e): throw ParamError(path: "\(path).behaviors[\(n)].spec", .mismatch(expected: "a behaviour of the session", found: e.description))
                }
            }
        }
        view.restoreDynamicBehaviors(behaviors, items: s.items)
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
