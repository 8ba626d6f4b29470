import TrellisCore
import TrellisDynamics
import TrellisGeometry

/// `{"type": "gravity", "items", "gravityDirection" | "angle" + "magnitude"}` (UIGravityBehavior).
extension GravityBehavior: RegisteredBehavior {
    public static let typeName = "gravity"
    public static let keys = ["items", "gravityDirection", "angle", "magnitude"]
    public static let options: [BehaviorOption] = [
        BehaviorOption("direction", "gravityDirection", .vector), .number("angle", "angle"), .number("magnitude", "magnitude"),
    ]

    public static func decode(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> GravityBehavior {
        var b = GravityBehavior(items: try BehaviorSpec.items(r, &resolver))
        do throws(ParamError) { b.gravityDirection = try BehaviorSpec.direction(r, vectorKey: "gravityDirection", default: Vector(0, 1)) } catch { throw .params(error) }
        return b
    }
}
