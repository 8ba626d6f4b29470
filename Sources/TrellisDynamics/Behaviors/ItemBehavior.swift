/// UIDynamicItemBehavior: the material of its items. Where several set the same item, the one
/// added last wins (UIKit does not say; this is the order their effects are applied).
public struct ItemBehavior: DynamicBehavior {
    public var items: [DynamicItemID]
    public var properties = DynamicItemProperties()

    public init(items: [DynamicItemID]) { self.items = items }

    public var phases: StepPhases { .properties }

    public func applyProperties(to bodies: inout DynamicBodies) {
        for id in items {
            guard let index = bodies.index(of: id) else { continue }
            bodies[index: index].properties = properties
        }
    }
}
