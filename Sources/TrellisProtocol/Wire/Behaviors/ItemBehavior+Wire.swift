import TrellisCore
import TrellisDynamics
import TrellisGeometry

/// `{"type": "item", "items", "density", "elasticity", …}` (UIDynamicItemBehavior): its items'
/// material, and velocities added once (`addLinearVelocity`, `addAngularVelocity`).
extension ItemBehavior: RegisteredBehavior {
    public static let typeName = "item"
    public static let keys = ["items", "density", "elasticity", "friction", "resistance", "angularResistance", "allowsRotation", "anchored", "charge",
                              "addLinearVelocity", "addAngularVelocity"]
    public static let options: [BehaviorOption] = [
        .number("density", "density"), .number("elasticity", "elasticity"), .number("friction", "friction"),
        .number("resistance", "resistance"), .number("angular-resistance", "angularResistance"), .number("charge", "charge"),
        BehaviorOption("no-rotation", "allowsRotation", .flag(.bool(false))), BehaviorOption("anchored", "anchored", .flag(.bool(true))),
        BehaviorOption("velocity", "addLinearVelocity", .vector), .number("angular-velocity", "addAngularVelocity"),
    ]

    public static func decode(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> ItemBehavior {
        var b = ItemBehavior(items: try BehaviorSpec.items(r, &resolver))
        do throws(ParamError) {
            var p = DynamicItemProperties()
            // Above 0: a massless item would never move (`anchored` is the way to pin one).
            p.density = try r.number("density", 1e-6...1e6, default: p.density)
            p.elasticity = try r.number("elasticity", 0...1, default: p.elasticity)
            p.friction = try r.number("friction", BehaviorSpec.material, default: p.friction)
            p.resistance = try r.number("resistance", BehaviorSpec.material, default: p.resistance)
            p.angularResistance = try r.number("angularResistance", BehaviorSpec.material, default: p.angularResistance)
            p.allowsRotation = try r.bool("allowsRotation", default: p.allowsRotation)
            p.isAnchored = try r.bool("anchored", default: p.isAnchored)
            p.charge = try r.number("charge", BehaviorSpec.magnitude, default: p.charge)
            b.properties = p
            // Checked here, applied by the server once (they are actions, not settings).
            _ = try r.vector("addLinearVelocity", BehaviorSpec.vector)
            _ = try r.number("addAngularVelocity", BehaviorSpec.angle, default: 0)
        } catch { throw .params(error) }
        return b
    }

    /// addLinearVelocity and addAngularVelocity act once, when the request is applied.
    public static func takeActions(_ members: inout [String: JSONValue]) -> (linear: Vector, angular: Double) {
        var linear = Vector.zero
        if case .array(let v)? = members["addLinearVelocity"], v.count == 2, let dx = v[0].numberValue, let dy = v[1].numberValue {
            linear = Vector(dx, dy)
        }
        let angular = members["addAngularVelocity"]?.numberValue ?? 0
        members["addLinearVelocity"] = nil
        members["addAngularVelocity"] = nil
        return (linear, angular)
    }
}
