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
/// property names, decoded into the engine's behaviours by the type's `RegisteredBehavior`
/// declaration (`BehaviorRegistry`); here what every type shares.
/// Elements are item ids (`"i3"` or `{"item": "i3"}`) or bodies (`{"body": "panel"}`).
public enum BehaviorSpec {
    /// Content coordinates (points): the one range every method's points share.
    public static let coordinate = ParamRanges.coordinate
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

    /// How deep composites may nest (a request cannot build an unbounded tree).
    public static let maximumNesting = 8
    /// The type names, in the documented order.
    public static var typeNames: [String] { BehaviorRegistry.names }

    /// Decodes `value` (a behaviour object) at `path`, naming elements through `resolver`.
    public static func decode(_ value: JSONValue, path: String, resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> any DynamicBehavior {
        let reader = SpecReader(value, path: path)
        let type: String
        do throws(ParamError) {
            _ = try value.requireObjectMembers(path: path)
            type = try value.requireString("type", in: path)
        } catch { throw .params(error) }
        guard let entry = BehaviorRegistry.type(named: type) else {
            throw .params(ParamError(path: "\(path).type", .mismatch(expected: "one of \(typeNames.map { "\"\($0)\"" }.joined(separator: ", "))", found: "\"\(type)\"")))
        }
        do throws(ParamError) { try reader.allow(["type"] + entry.keys) } catch { throw .params(error) }
        return try entry.decode(reader, &resolver)
    }

    /// A behaviour's wire object as it stands now: `spec` as given, with what the behaviour
    /// settled or changed by itself since (its type's `settle`).
    public static func settled(_ spec: JSONValue, _ behavior: any DynamicBehavior) -> JSONValue {
        guard case .object(var members) = spec, let registered = behavior as? any RegisteredBehavior else { return spec }
        registered.settle(&members)
        return .object(members)
    }

    /// `spec` without the keys that act once when a request applies it (its type's
    /// `takeActions`), and the velocities they add.
    public static func actions(_ spec: JSONValue) -> (stored: JSONValue, linear: Vector, angular: Double) {
        guard case .object(var members) = spec, let type = members["type"]?.stringValue,
              let registered = BehaviorRegistry.type(named: type) else { return (spec, .zero, 0) }
        let (linear, angular) = registered.takeActions(&members)
        return (.object(members), linear, angular)
    }

    /// `behavior`, decoded for an update of `old`, with the state its type keeps across updates.
    public static func continuing(_ behavior: any DynamicBehavior, from old: any DynamicBehavior) -> any DynamicBehavior {
        (behavior as? any RegisteredBehavior)?.continuing(old) ?? behavior
    }

    // MARK: Elements

    /// `items`: the elements a behaviour acts on, each once, in order.
    public static func items(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> [DynamicItemID] {
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

    /// One element, named through `resolver`.
    public static func one(_ value: JSONValue, path: String, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> DynamicItemID {
        let element: DynamicElement
        do throws(ParamError) { element = try DynamicElement.decode(value, path: path) } catch { throw .params(error) }
        do throws(EngineError) { return try resolver.id(for: element) } catch { throw .engine(error) }
    }

    /// The element under `key`, which must be given.
    public static func requiredItem(_ r: SpecReader, _ key: String, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> DynamicItemID {
        guard let value = r.value.field(key), value != .null else {
            throw .params(ParamError(path: "\(r.path).\(key)", .missing(expected: "an element (an item id, or {\"body\": NAME})")))
        }
        return try one(value, path: "\(r.path).\(key)", &resolver)
    }

    /// A direction given as a vector, or as angle and magnitude (UIKit's two spellings).
    public static func direction(_ r: SpecReader, vectorKey: String, default fallback: Vector) throws(ParamError) -> Vector {
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
}
