import TrellisCore
import TrellisDynamics
import TrellisGeometry

/// `{"type": "field", "kind", "items", "position", "region", "strength", …}` (UIFieldBehavior):
/// one of UIKit's ten fields, over a region centred on its position.
extension FieldBehavior: RegisteredBehavior {
    public static let typeName = "field"
    public static let keys = ["kind", "items", "position", "region", "strength", "falloff", "minimumRadius", "direction", "smoothness",
                              "animationSpeed", "seed"]
    public static let options: [BehaviorOption] = [
        BehaviorOption("direction", "direction", .vector), BehaviorOption("kind", "kind", .choice(BehaviorSpec.fieldKinds)),
        BehaviorOption("position", "position", .point), BehaviorOption("region", "region", .region),
        .number("strength", "strength"), .number("falloff", "falloff"), .number("min-radius", "minimumRadius"),
        .number("smoothness", "smoothness"), .number("speed", "animationSpeed"), .number("seed", "seed"),
    ]

    public static func decode(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> FieldBehavior {
        let ids = try BehaviorSpec.items(r, &resolver)
        do throws(ParamError) {
            let names = BehaviorSpec.fieldKinds
            guard let name = try r.string("kind") else {
                throw ParamError(path: "\(r.path).kind", .missing(expected: "the field's kind: one of \(names.joined(separator: ", "))"))
            }
            let kind = try r.choice("kind", names, default: name)
            let direction = try r.vector("direction", BehaviorSpec.vector)
            let smoothness = try r.number("smoothness", 0...1, default: 0.5)
            let speed = try r.number("animationSpeed", 0...1000, default: 1)
            let directional = kind == "linearGravity" || kind == "velocity"
            if direction != nil && !directional {
                throw ParamError(path: "\(r.path).direction", .mismatch(expected: "no direction (only linearGravity and velocity fields have one)", found: "a direction"))
            }
            if (r.has("smoothness") || r.has("animationSpeed")) && kind != "noise" && kind != "turbulence" {
                throw ParamError(path: r.path, .mismatch(expected: "smoothness and animationSpeed only on noise and turbulence fields", found: "them on a \(kind) field"))
            }
            let fieldKind: FieldKind
            switch kind {
            case "linearGravity": fieldKind = .linearGravity(direction: direction ?? Vector(0, 1))
            case "radialGravity": fieldKind = .radialGravity
            case "velocity": fieldKind = .velocity(direction: direction ?? .zero)
            case "drag": fieldKind = .drag
            case "noise": fieldKind = .noise(smoothness: smoothness, animationSpeed: speed)
            case "turbulence": fieldKind = .turbulence(smoothness: smoothness, animationSpeed: speed)
            case "spring": fieldKind = .spring
            case "electric": fieldKind = .electric
            case "magnetic": fieldKind = .magnetic
            default: fieldKind = .vortex
            }
            var b = FieldBehavior(fieldKind, items: ids, position: try r.point("position", BehaviorSpec.coordinate) ?? .zero)
            // A drag field slows what moves through it: a negative one would be a field that feeds
            // speed back exponentially, which has no meaning (and overflows): refused.
            b.strength = try r.number("strength", fieldKind == .drag ? 0...BehaviorSpec.magnitude.upperBound : BehaviorSpec.magnitude, default: 1)
            b.falloff = try r.number("falloff", -10...10, default: b.falloff)
            b.minimumRadius = try r.number("minimumRadius", 0...1e9, default: b.minimumRadius)
            b.seed = UInt64(try r.int("seed", 0...Int(Int32.max), default: 0))
            if let region = try r.object("region") { b.region = try Self.region(region, depth: 0) }
            return b
        } catch { throw .params(error) }
    }

    /// UIRegion: `{"shape": "infinite" | "rect" | "circle" | "ellipse", …}` or a set operation
    /// `{"inverse": R}`, `{"union" | "difference" | "intersection": [R, R]}`, centred on the field.
    static func region(_ r: SpecReader, depth: Int) throws(ParamError) -> FieldRegion {
        guard depth < BehaviorSpec.maximumRegionDepth else {
            throw ParamError(path: r.path, .mismatch(expected: "regions nested at most \(BehaviorSpec.maximumRegionDepth) deep", found: "deeper"))
        }
        let operations = ["inverse", "union", "difference", "intersection"]
        if let op = operations.first(where: r.has) {
            try r.allow([op])
            if op == "inverse" {
                guard let inner = try r.object("inverse") else { throw ParamError(path: "\(r.path).inverse", .missing(expected: "a region")) }
                return .inverse(try region(inner, depth: depth + 1))
            }
            let parts = try r.array(op) ?? []
            guard parts.count == 2 else {
                throw ParamError(path: "\(r.path).\(op)", .mismatch(expected: "an array of 2 regions", found: "\(parts.count)"))
            }
            let a = try region(SpecReader(parts[0], path: "\(r.path).\(op)[0]"), depth: depth + 1)
            let b = try region(SpecReader(parts[1], path: "\(r.path).\(op)[1]"), depth: depth + 1)
            switch op {
            case "union": return .union(a, b)
            case "difference": return .difference(a, b)
            default: return .intersection(a, b)
            }
        }
        guard r.has("shape") else {
            throw ParamError(path: "\(r.path).shape", .missing(expected: "a shape (\"infinite\", \"rect\", \"circle\" or \"ellipse\") or a set operation (\(operations.joined(separator: ", ")))"))
        }
        // Each shape takes only its own keys: a radius on a rect is a mistake, not a no-op.
        switch try r.choice("shape", ["infinite", "rect", "circle", "ellipse"], default: "infinite") {
        case "rect", "ellipse":
            try r.allow(["shape", "size"])
            let shape = try r.string("shape")
            guard let size = try r.size("size", BehaviorSpec.length) else {
                throw ParamError(path: "\(r.path).size", .missing(expected: "the \(shape ?? "region")'s size [width, height]"))
            }
            return shape == "rect" ? .rect(size) : .ellipse(size)
        case "circle":
            try r.allow(["shape", "radius"])
            return .circle(radius: try r.requireNumber("radius", BehaviorSpec.length))
        default:
            try r.allow(["shape"])
            return .infinite
        }
    }

    /// A field keeps its clock across updates (noise goes on from where it was, not from its start).
    public func continuing(_ old: any DynamicBehavior) -> FieldBehavior {
        guard let old = old as? FieldBehavior else { return self }
        var field = self
        field.time = old.time
        return field
    }
}

extension BehaviorSpec {
    /// The names of a field's `kind`.
    public static let fieldKinds = ["linearGravity", "radialGravity", "velocity", "drag", "noise", "turbulence", "spring", "electric",
                                    "magnetic", "vortex"]
    /// Field regions' set operations nest at most this deep.
    public static let maximumRegionDepth = 16
}
