import TrellisGeometry

/// UIDynamicBehavior with childBehaviors: behaviours added and removed as one. Every step it
/// asks its children, in order, exactly as the animator would ask them had they been added
/// one after another in its place, so a composite acts as its children do, bit for bit.
/// Children may be composites. To change a child of an added composite, change it here and
/// give the animator the whole composite (`update(_:to:)`).
public struct CompositeBehavior: DynamicBehavior {
    public var childBehaviors: [any DynamicBehavior]

    public init(_ children: [any DynamicBehavior] = []) { childBehaviors = children }

    /// UIDynamicBehavior's addChildBehavior(_:).
    public mutating func addChildBehavior(_ child: any DynamicBehavior) { childBehaviors.append(child) }

    /// UIDynamicBehavior's removeChildBehavior(_:), by position; the removed child.
    @discardableResult
    public mutating func removeChildBehavior(at index: Int) -> any DynamicBehavior { childBehaviors.remove(at: index) }

    /// The children's items in order, each once.
    public var items: [DynamicItemID] {
        var seen = Set<DynamicItemID>(), all: [DynamicItemID] = []
        for child in childBehaviors {
            for id in child.items where seen.insert(id).inserted { all.append(id) }
        }
        return all
    }

    public func applyProperties(to bodies: inout DynamicBodies) {
        for child in childBehaviors { child.applyProperties(to: &bodies) }
    }

    /// Each child as on a step's first sub-step (the animator calls the form with the flag).
    public func applyForces(to bodies: inout DynamicBodies, step: Double) {
        applyForces(to: &bodies, step: step, firstSubstep: true)
    }

    /// Each child decides for itself whether it acts on this sub-step (an impulse once per
    /// step, forces on every sub-step).
    public func applyForces(to bodies: inout DynamicBodies, step: Double, firstSubstep: Bool) {
        for child in childBehaviors { child.applyForces(to: &bodies, step: step, firstSubstep: firstSubstep) }
    }

    /// A velocity field inside a composite still overrides every other behaviour's forces.
    public func overrideForces(on bodies: inout DynamicBodies, step: Double) {
        for child in childBehaviors { child.overrideForces(on: &bodies, step: step) }
    }

    public func addConstraints(to constraints: inout ConstraintSet, bodies: DynamicBodies) {
        for child in childBehaviors { child.addConstraints(to: &constraints, bodies: bodies) }
    }

    /// Every child's; true if any changed.
    public mutating func didStep(seconds: Double) -> Bool {
        var changed = false
        for k in childBehaviors.indices { changed = childBehaviors[k].didStep(seconds: seconds) || changed }
        return changed
    }

    public mutating func willBeAdded(to bodies: DynamicBodies) {
        for k in childBehaviors.indices { childBehaviors[k].willBeAdded(to: bodies) }
    }

    /// True only when every child acts once per step (then so does the whole).
    /// What any child takes part in.
    public var phases: StepPhases { childBehaviors.reduce(into: []) { $0.formUnion($1.phases) } }

    /// Each child's, in order, each after its count.
    public var carryOver: [Double] {
        childBehaviors.flatMap { child in [Double(child.carryOver.count)] + child.carryOver }
    }

    public mutating func restore(carryOver c: [Double]) {
        var at = 0
        for k in childBehaviors.indices {
            guard at < c.count, c[at] >= 0, c[at] < 1e6 else { return }
            let n = Int(c[at])
            guard at + 1 + n <= c.count else { return }
            childBehaviors[k].restore(carryOver: Array(c[(at + 1)..<(at + 1 + n)]))
            at += 1 + n
        }
    }

    public var actsOncePerStep: Bool { !childBehaviors.isEmpty && childBehaviors.allSatisfy(\.actsOncePerStep) }
}
