import TrellisCore
import TrellisDynamics
import TrellisGeometry

/// `{"type": "push", "items", "mode", "pushDirection" | "angle" + "magnitude",
/// "targetOffsetFromCenter", "active"}` (UIPushBehavior).
extension PushBehavior: RegisteredBehavior {
    public static let typeName = "push"
    public static let keys = ["items", "mode", "pushDirection", "angle", "magnitude", "targetOffsetFromCenter", "active"]
    public static let options: [BehaviorOption] = [
        BehaviorOption("direction", "pushDirection", .vector), .number("angle", "angle"), .number("magnitude", "magnitude"),
        BehaviorOption("mode", "mode", .choice(BehaviorSpec.pushModes)), BehaviorOption("offset", "targetOffsetFromCenter", .vector),
        BehaviorOption("active", "active", .bool),
    ]

    public static func decode(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> PushBehavior {
        let ids = try BehaviorSpec.items(r, &resolver)
        do throws(ParamError) {
            let mode: PushBehavior.Mode = try r.choice("mode", BehaviorSpec.pushModes, default: "continuous") == "instantaneous"
                ? .instantaneous : .continuous
            var b = PushBehavior(items: ids, mode: mode)
            b.pushDirection = try BehaviorSpec.direction(r, vectorKey: "pushDirection", default: .zero)
            if let offset = try r.vector("targetOffsetFromCenter", BehaviorSpec.vector) {
                for id in ids { b.targetOffsets[id] = offset }
            }
            b.active = try r.bool("active", default: true)
            return b
        } catch { throw .params(error) }
    }

    /// An instantaneous push turns itself off once it has fired.
    public func settle(_ members: inout [String: JSONValue]) { members["active"] = .bool(active) }
}

extension BehaviorSpec {
    /// The names of a push's `mode`.
    public static let pushModes = ["continuous", "instantaneous"]
}
