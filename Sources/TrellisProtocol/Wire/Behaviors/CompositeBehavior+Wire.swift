import TrellisCore
import TrellisDynamics
import TrellisGeometry

/// `{"type": "composite", "children": [BEHAVIOR, …]}`: behaviours added and removed as one.
extension CompositeBehavior: RegisteredBehavior {
    public static let typeName = "composite"
    public static let keys = ["children"]
    public static let options: [BehaviorOption] = []

    public static func decode(_ r: SpecReader, _ resolver: inout DynamicElementResolver) throws(BehaviorSpecError) -> CompositeBehavior {
        try decode(r, &resolver, depth: 0)
    }

    static func decode(_ r: SpecReader, _ resolver: inout DynamicElementResolver, depth: Int) throws(BehaviorSpecError) -> CompositeBehavior {
        let children: [JSONValue]
        do throws(ParamError) {
            guard let given = try r.array("children") else {
                throw ParamError(path: "\(r.path).children", .missing(expected: "an array of behaviours"))
            }
            guard depth < BehaviorSpec.maximumNesting else {
                throw ParamError(path: r.path, .mismatch(expected: "composites nested at most \(BehaviorSpec.maximumNesting) deep", found: "deeper"))
            }
            children = given
        } catch { throw .params(error) }
        var b = CompositeBehavior()
        for (k, child) in children.enumerated() {
            let path = "\(r.path).children[\(k)]"
            if child.field("type") == .string(typeName) {
                let reader = SpecReader(child, path: path)
                do throws(ParamError) { try reader.allow(["type"] + keys) } catch { throw .params(error) }
                b.addChildBehavior(try decode(reader, &resolver, depth: depth + 1))
            } else {
                // Actions (an item's added velocities) act when a request applies them: a child
                // has no such moment.
                if case .object(var probe) = child, let type = child.field("type")?.stringValue,
                   let registered = BehaviorRegistry.type(named: type) {
                    let given = probe.count
                    _ = registered.takeActions(&probe)
                    if probe.count != given {
                        throw .params(ParamError(path: path, .mismatch(expected: "addLinearVelocity and addAngularVelocity on a top-level item behaviour only (they act once, when a request adds or updates it)", found: "them inside a composite")))
                    }
                }
                b.addChildBehavior(try BehaviorSpec.decode(child, path: path, resolver: &resolver))
            }
        }
        return b
    }

    /// Each child's settled form, in its place.
    public func settle(_ members: inout [String: JSONValue]) {
        guard case .array(let children)? = members["children"], children.count == childBehaviors.count else { return }
        members["children"] = .array(zip(children, childBehaviors).map { BehaviorSpec.settled($0, $1) })
    }
}
