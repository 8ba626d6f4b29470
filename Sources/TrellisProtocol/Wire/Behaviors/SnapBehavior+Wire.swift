import TrellisCore
import TrellisDynamics
import TrellisGeometry

/// `{"type": "snap", "item", "snapPoint", "damping"}` (UISnapBehavior).
extension SnapBehavior: RegisteredBehavior {
    public static let typeName = "snap"
    public static let keys = ["item", "snapPoint", "damping"]
    public static let options: [BehaviorOption] = [BehaviorOption("to", "snapPoint", .point), .number("damping", "damping")]

    public static func decode(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> SnapBehavior {
        let item = try BehaviorSpec.requiredItem(r, "item", &resolver)
        do throws(ParamError) {
            guard let point = try r.point("snapPoint", BehaviorSpec.coordinate) else {
                throw ParamError(path: "\(r.path).snapPoint", .missing(expected: "the point to snap to [x, y]"))
            }
            var b = SnapBehavior(item: item, snapTo: point)
            b.damping = try r.number("damping", 0...1, default: 0.5)
            return b
        } catch { throw .params(error) }
    }
}
