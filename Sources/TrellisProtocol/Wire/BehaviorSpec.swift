import TrellisCore
import TrellisDynamics
import TrellisGeometry

/// Why a behaviour was refused: a key or number that is wrong (invalid params), or an element
/// the session does not have.
public enum BehaviorSpecError: Error, Sendable {
    case params(ParamError)
    case engine(EngineError)
}

/// Behaviours on the wire (PROTOCOL.md, "Dynamics"): `{"type": …, "items": […], …}` with UIKit's
/// property names, decoded into the engine's behaviours, one decoder per type in a table.
/// Elements are item ids (`"i3"` or `{"item": "i3"}`) or bodies (`{"body": "panel"}`).
public enum BehaviorSpec {
    /// Content coordinates (points).
    public static let coordinate: ClosedRange<Double> = -1e9...1e9
    /// Directions, offsets and velocities (points, points per second).
    public static let vector: ClosedRange<Double> = -1e6...1e6
    /// Magnitudes and strengths (UIKit gravities, UIKit Newtons, field strengths).
    public static let magnitude: ClosedRange<Double> = -1e6...1e6
    /// Angles (radians).
    public static let angle: ClosedRange<Double> = -1e4...1e4
    /// Spring frequencies (Hz): above 30 Hz a spring cannot be stepped stably at 60 Hz even
    /// with the eight sub-steps the animator allows; 0 is a rigid attachment.
    public static let frequency: ClosedRange<Double> = 0...30
    /// Damping ratios (1 is critical).
    public static let damping: ClosedRange<Double> = 0...100
    /// Lengths and distances (points).
    public static let length: ClosedRange<Double> = 0...1e6
    /// Material amounts (density, friction, resistances, charge magnitude).
    public static let material: ClosedRange<Double> = 0...1e6
    /// Body sides (points).
    public static let bodySide: ClosedRange<Double> = 1...100_000

    typealias Decoder = @Sendable (SpecReader, inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior

    /// The decoders by type, and the keys each takes besides `type`.
    static let types: [(name: String, keys: [String], decode: Decoder)] = [
        ("gravity", ["items", "gravityDirection", "angle", "magnitude"], gravity),
        ("collision", ["items", "collisionMode", "translatesReferenceBoundsIntoBoundary", "boundaryInsets", "boundaries"], collision),
        ("attachment", ["item", "offsetFromCenter", "anchor", "attachedTo", "attachedOffsetFromCenter", "length", "frequency", "damping",
                        "kind", "axisOfTranslation", "frictionTorque", "attachmentRange", "attachmentAnchor"], attachment),
        ("snap", ["item", "snapPoint", "damping"], snap),
        ("push", ["items", "mode", "pushDirection", "angle", "magnitude", "targetOffsetFromCenter", "active"], push),
        ("item", ["items", "density", "elasticity", "friction", "resistance", "angularResistance", "allowsRotation", "anchored", "charge",
                  "addLinearVelocity", "addAngularVelocity"], item),
        ("field", ["kind", "items", "position", "region", "strength", "falloff", "minimumRadius", "direction", "smoothness",
                   "animationSpeed", "seed"], field),
        ("composite", ["children"], composite),
    ]

    /// The names of each enumerated key: the decoders below, and clients' help and checks.
    public static let collisionModes = ["everything", "items", "boundaries"]
    public static let attachmentKinds = ["spring", "sliding", "limit", "fixed", "pin"]
    public static let pushModes = ["continuous", "instantaneous"]
    public static let fieldKinds = ["linearGravity", "radialGravity", "velocity", "drag", "noise", "turbulence", "spring", "electric",
                                    "magnetic", "vortex"]

    /// How deep composites may nest (a request cannot build an unbounded tree).
    public static let maximumNesting = 8
    /// Field regions' set operations nest at most this deep.
    public static let maximumRegionDepth = 16

    /// The type names, in the documented order.
    public static var typeNames: [String] { types.map(\.name) }

    /// Decodes `value` (a behaviour object) at `path`, naming elements through `resolver`.
    public static func decode(_ value: JSONValue, path: String, resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior {
        let reader = SpecReader(value, path: path)
        let type: String
        do throws(ParamError) {
            _ = try value.requireObjectMembers(path: path)
            type = try value.requireString("type", in: path)
        } catch { throw .params(error) }
        guard let entry = types.first(where: { $0.name == type }) else {
            throw .params(ParamError(path: "\(path).type", .mismatch(expected: "one of \(typeNames.map { "\"\($0)\"" }.joined(separator: ", "))", found: "\"\(type)\"")))
        }
        do throws(ParamError) { try reader.allow(["type"] + entry.keys) } catch { throw .params(error) }
        return try entry.decode(reader, &resolver)
    }

    // MARK: Elements

    /// An element reference: `"i3"`, `{"item": "i3"}` or `{"body": "panel"}`.
    public static func element(_ value: JSONValue, path: String) throws(ParamError) -> DynamicElement {
        switch value {
        case .string(let id): return .item(ItemID(id))
        case .object(let members) where members.count == 1:
            if case .string(let id)? = members["item"] { return .item(ItemID(id)) }
            if case .string(let name)? = members["body"] { return .body(name) }
        default: break
        }
        throw ParamError(path: path, .mismatch(expected: "an element: an item id (\"i3\"), {\"item\": ID} or {\"body\": NAME}", found: value.kindDescription))
    }

    /// The wire form of an element: an item id as a string, a body as `{"body": NAME}`.
    public static func json(_ element: DynamicElement) -> JSONValue {
        switch element {
        case .item(let id): return .string(id.rawValue)
        case .body(let name): return .object(["body": .string(name)])
        }
    }

    static func items(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> [DynamicItemID] {
        let list: [JSONValue]
        do throws(ParamError) {
            guard let given = try r.array("items") else { throw ParamError(path: "\(r.path).items", .missing(expected: "an array of elements (item ids, or {\"body\": NAME})")) }
            list = given
        } catch { throw .params(error) }
        var ids: [DynamicItemID] = []
        for (k, value) in list.enumerated() {
            let id = try one(value, path: "\(r.path).items[\(k)]", &resolver)
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    static func one(_ value: JSONValue, path: String, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> DynamicItemID {
        let element: DynamicElement
        do throws(ParamError) { element = try Self.element(value, path: path) } catch { throw .params(error) }
        do throws(EngineError) { return try resolver.id(for: element) } catch { throw .engine(error) }
    }

    static func requiredItem(_ r: SpecReader, _ key: String, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> DynamicItemID {
        guard let value = r.value.field(key), value != .null else {
            throw .params(ParamError(path: "\(r.path).\(key)", .missing(expected: "an element (an item id, or {\"body\": NAME})")))
        }
        return try one(value, path: "\(r.path).\(key)", &resolver)
    }

    /// A direction given as a vector, or as angle and magnitude (UIKit's two spellings).
    static func direction(_ r: SpecReader, vectorKey: String, default fallback: Vector) throws(ParamError) -> Vector {
        if let v = try r.vector(vectorKey, vector) {
            if r.has("angle") || r.has("magnitude") {
                throw ParamError(path: r.path, .mismatch(expected: "either \(vectorKey) or angle and magnitude", found: "both"))
            }
            return v
        }
        guard r.has("angle") || r.has("magnitude") else { return fallback }
        let magnitude = try r.number("magnitude", Self.magnitude, default: fallback.length)
        let angle = try r.number("angle", Self.angle, default: fallback == .zero ? 0 : fallback.angle)
        return Vector(angle: angle, length: magnitude)
    }

    // MARK: Decoders

    static func gravity(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior {
        var b = GravityBehavior(items: try items(r, &resolver))
        do throws(ParamError) { b.gravityDirection = try direction(r, vectorKey: "gravityDirection", default: Vector(0, 1)) } catch { throw .params(error) }
        return b
    }

    static func collision(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior {
        var b = CollisionBehavior(items: try items(r, &resolver))
        do throws(ParamError) {
            switch try r.choice("collisionMode", collisionModes, default: "everything") {
            case "items": b.mode = .items
            case "boundaries": b.mode = .boundaries
            default: b.mode = .everything
            }
            b.translatesReferenceBoundsIntoBoundary = try r.bool("translatesReferenceBoundsIntoBoundary", default: false)
            if let i = try r.numbers("boundaryInsets", ["top", "left", "bottom", "right"], -1e6...1e6) {
                b.boundaryInsets = EdgeInsets(top: i[0], left: i[1], bottom: i[2], right: i[3])
            }
            var seen = Set<String>()
            for (k, value) in (try r.array("boundaries") ?? []).enumerated() {
                let br = SpecReader(value, path: "\(r.path).boundaries[\(k)]")
                try br.allow(["id", "from", "to", "rect", "ellipse"])
                guard let id = try br.string("id") else { throw ParamError(path: "\(br.path).id", .missing(expected: "the boundary's identifier (a string)")) }
                guard seen.insert(id).inserted else {
                    throw ParamError(path: "\(br.path).id", .mismatch(expected: "an identifier not used by another boundary", found: "\"\(id)\" again"))
                }
                let shapes = ["rect", "ellipse", "from"].filter(br.has)
                guard shapes.count <= 1, br.has("from") == br.has("to") else {
                    throw ParamError(path: br.path, .mismatch(expected: "one shape: \"from\" and \"to\" (a segment), \"rect\" or \"ellipse\"", found: "keys \(["rect", "ellipse", "from", "to"].filter(br.has).joined(separator: ", "))"))
                }
                if let rect = try br.rect("rect", coordinate) {
                    b.boundaries.append((id, .rect(rect)))
                } else if let oval = try br.rect("ellipse", coordinate) {
                    b.boundaries.append((id, .ellipse(oval)))
                } else if let from = try br.point("from", coordinate), let to = try br.point("to", coordinate) {
                    b.boundaries.append((id, .segment(from, to)))
                } else {
                    throw ParamError(path: br.path, .missing(expected: "a shape: \"from\" and \"to\" points (a segment), \"rect\" or \"ellipse\": [x, y, width, height]"))
                }
            }
        } catch { throw .params(error) }
        return b
    }

    static func attachment(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior {
        let item = try requiredItem(r, "item", &resolver)
        let offset: Vector
        do throws(ParamError) { offset = try r.vector("offsetFromCenter", vector) ?? .zero } catch { throw .params(error) }
        var b: AttachmentBehavior
        if r.has("attachedTo") {
            if r.has("anchor") {
                throw .params(ParamError(path: r.path, .mismatch(expected: "either anchor (a point) or attachedTo (an element)", found: "both")))
            }
            let other = try requiredItem(r, "attachedTo", &resolver)
            let otherOffset: Vector
            do throws(ParamError) { otherOffset = try r.vector("attachedOffsetFromCenter", vector) ?? .zero } catch { throw .params(error) }
            b = AttachmentBehavior(item: item, offset: offset, anchor: .item(other, offset: otherOffset))
        } else {
            if r.has("attachedOffsetFromCenter") {
                throw .params(ParamError(path: "\(r.path).attachedOffsetFromCenter", .mismatch(expected: "no offset on the anchor side (only with attachedTo, an element)", found: "an offset with an anchor point")))
            }
            let point: Point?
            do throws(ParamError) { point = try r.point("anchor", coordinate) } catch { throw .params(error) }
            guard let point else {
                throw .params(ParamError(path: "\(r.path).anchor", .missing(expected: "an anchor point [x, y], or attachedTo: an element")))
            }
            b = AttachmentBehavior(item: item, offset: offset, anchor: .point(point))
        }
        do throws(ParamError) { return try springSettings(b, r) } catch { throw .params(error) }
    }

    private static func springSettings(_ b: AttachmentBehavior, _ r: SpecReader) throws(ParamError) -> AttachmentBehavior {
        var b = b
        if r.has("length") { b.length = try r.requireNumber("length", length) }
        b.frequency = try r.number("frequency", frequency, default: 0)
        b.damping = try r.number("damping", damping, default: 0)
        switch try r.choice("kind", attachmentKinds, default: "spring") {
        case "sliding":
            guard let axis = try r.vector("axisOfTranslation", vector) else {
                throw ParamError(path: "\(r.path).axisOfTranslation", .missing(expected: "a unit vector [dx, dy]: the axis a sliding attachment moves along"))
            }
            b.kind = .sliding(axis: axis)
        case let other:
            if r.has("axisOfTranslation") {
                throw ParamError(path: "\(r.path).axisOfTranslation", .mismatch(expected: "no axis (only a \"sliding\" attachment has one)", found: "an axis on a \"\(other)\" attachment"))
            }
            b.kind = other == "limit" ? .limit : other == "fixed" ? .fixed : other == "pin" ? .pin : .spring
        }
        b.frictionTorque = try r.number("frictionTorque", material, default: 0)
        if let range = try r.numbers("attachmentRange", ["minimum", "maximum"], -1e9...1e9) {
            b.attachmentRange = FloatRange(minimum: range[0], maximum: range[1])
        }
        b.attachmentAnchor = try r.point("attachmentAnchor", coordinate)
        if let problem = AttachmentBehavior.validate(kind: b.kind, attachmentRange: b.attachmentRange, frictionTorque: b.frictionTorque,
                                                     length: b.length, frequency: b.frequency, damping: b.damping) {
            throw ParamError(path: r.path, .mismatch(expected: "an attachment UIKit accepts", found: problem))
        }
        return b
    }

    static func snap(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior {
        let item = try requiredItem(r, "item", &resolver)
        do throws(ParamError) {
            guard let point = try r.point("snapPoint", coordinate) else {
                throw ParamError(path: "\(r.path).snapPoint", .missing(expected: "the point to snap to [x, y]"))
            }
            var b = SnapBehavior(item: item, snapTo: point)
            b.damping = try r.number("damping", 0...1, default: 0.5)
            return b
        } catch { throw .params(error) }
    }

    static func push(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior {
        let ids = try items(r, &resolver)
        do throws(ParamError) {
            let mode: PushBehavior.Mode = try r.choice("mode", pushModes, default: "continuous") == "instantaneous"
                ? .instantaneous : .continuous
            var b = PushBehavior(items: ids, mode: mode)
            b.pushDirection = try direction(r, vectorKey: "pushDirection", default: .zero)
            if let offset = try r.vector("targetOffsetFromCenter", vector) {
                for id in ids { b.targetOffsets[id] = offset }
            }
            b.active = try r.bool("active", default: true)
            return b
        } catch { throw .params(error) }
    }

    static func field(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior {
        let ids = try items(r, &resolver)
        do throws(ParamError) {
            let names = fieldKinds
            guard let name = try r.string("kind") else {
                throw ParamError(path: "\(r.path).kind", .missing(expected: "the field's kind: one of \(names.joined(separator: ", "))"))
            }
            let kind = try r.choice("kind", names, default: name)
            let direction = try r.vector("direction", vector)
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
            var b = FieldBehavior(fieldKind, items: ids, position: try r.point("position", coordinate) ?? .zero)
            // A drag field slows what moves through it: a negative one would be a field that feeds
            // speed back exponentially, which has no meaning (and overflows): refused.
            b.strength = try r.number("strength", fieldKind == .drag ? 0...magnitude.upperBound : magnitude, default: 1)
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
        guard depth < maximumRegionDepth else {
            throw ParamError(path: r.path, .mismatch(expected: "regions nested at most \(maximumRegionDepth) deep", found: "deeper"))
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
            guard let size = try r.size("size", length) else {
                throw ParamError(path: "\(r.path).size", .missing(expected: "the \(shape ?? "region")'s size [width, height]"))
            }
            return shape == "rect" ? .rect(size) : .ellipse(size)
        case "circle":
            try r.allow(["shape", "radius"])
            return .circle(radius: try r.requireNumber("radius", length))
        default:
            try r.allow(["shape"])
            return .infinite
        }
    }

    static func composite(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior {
        try composite(r, &resolver, depth: 0)
    }

    static func composite(_ r: SpecReader, _ resolver: inout DynamicElementResolver, depth: Int) throws(BehaviorSpecError) -> any DynamicBehavior {
        let children: [JSONValue]
        do throws(ParamError) {
            guard let given = try r.array("children") else {
                throw ParamError(path: "\(r.path).children", .missing(expected: "an array of behaviours"))
            }
            guard depth < maximumNesting else {
                throw ParamError(path: r.path, .mismatch(expected: "composites nested at most \(maximumNesting) deep", found: "deeper"))
            }
            children = given
        } catch { throw .params(error) }
        var b = CompositeBehavior()
        for (k, child) in children.enumerated() {
            let path = "\(r.path).children[\(k)]"
            if child.field("type") == .string("composite") {
                let reader = SpecReader(child, path: path)
                do throws(ParamError) { try reader.allow(["type", "children"]) } catch { throw .params(error) }
                b.addChildBehavior(try composite(reader, &resolver, depth: depth + 1))
            } else {
                if child.field("type") == .string("item"), child.field("addLinearVelocity") != nil || child.field("addAngularVelocity") != nil {
                    throw .params(ParamError(path: path, .mismatch(expected: "addLinearVelocity and addAngularVelocity on a top-level item behaviour only (they act once, when a request adds or updates it)", found: "them inside a composite")))
                }
                b.addChildBehavior(try decode(child, path: path, resolver: &resolver))
            }
        }
        return b
    }

    static func item(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior {
        var b = ItemBehavior(items: try items(r, &resolver))
        do throws(ParamError) {
            var p = DynamicItemProperties()
            // Above 0: a massless item would never move (`anchored` is the way to pin one).
            p.density = try r.number("density", 1e-6...1e6, default: p.density)
            p.elasticity = try r.number("elasticity", 0...1, default: p.elasticity)
            p.friction = try r.number("friction", material, default: p.friction)
            p.resistance = try r.number("resistance", material, default: p.resistance)
            p.angularResistance = try r.number("angularResistance", material, default: p.angularResistance)
            p.allowsRotation = try r.bool("allowsRotation", default: p.allowsRotation)
            p.isAnchored = try r.bool("anchored", default: p.isAnchored)
            p.charge = try r.number("charge", magnitude, default: p.charge)
            b.properties = p
            // Checked here, applied by the server once (they are actions, not settings).
            _ = try r.vector("addLinearVelocity", vector)
            _ = try r.number("addAngularVelocity", angle, default: 0)
        } catch { throw .params(error) }
        return b
    }
}
