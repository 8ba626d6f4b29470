import TrellisGeometry

/// One UIKit Dynamics behaviour. Each step the animator asks every behaviour, in the order they
/// were added, to contribute: item properties first, then forces and impulses, then constraints
/// for the solver. Behaviours are values; the animator keeps them and the solver's data is
/// rebuilt from them each step, in flat arrays.
public protocol DynamicBehavior: Sendable {
    /// The items it acts on.
    var items: [DynamicItemID] { get }
    /// Sets the material of its items (UIDynamicItemBehavior); others leave them.
    func applyProperties(to bodies: inout DynamicBodies)
    /// Adds forces, accelerations and impulses for one step of `step` seconds.
    func applyForces(to bodies: inout DynamicBodies, step: Double)
    /// After every behaviour's forces for the (sub-)step: forces that replace the others'
    /// (a velocity field sets the velocity whatever was added before or after it).
    func overrideForces(on bodies: inout DynamicBodies, step: Double)
    /// What the animator calls on each sub-step of `step` seconds, `firstSubstep` true on a
    /// step's first: by default `applyForces(to:step:)`, but on the first sub-step only for
    /// behaviours that act once per step. A composite passes the flag to each child.
    func applyForces(to bodies: inout DynamicBodies, step: Double, firstSubstep: Bool)
    /// Adds the constraints the solver enforces this step.
    func addConstraints(to constraints: inout ConstraintSet, bodies: DynamicBodies)
    /// After a step of `seconds`: an instantaneous push turns itself off, a field's clock moves
    /// on. True when the behaviour changed.
    mutating func didStep(seconds: Double) -> Bool
    /// When it is added: settings taken from the items as they are then (an attachment's length).
    mutating func willBeAdded(to bodies: DynamicBodies)
    /// True for forces that act once per step, not once per sub-step (an instantaneous push).
    var actsOncePerStep: Bool { get }
    /// The parts of a step it takes part in (`.all` unless it says otherwise); the animator
    /// calls no other. Read when the behaviour is added or updated, and after a `didStep`
    /// that says it changed.
    var phases: StepPhases { get }
    /// What it took from the items when added or changed by stepping that its settings do not
    /// say (a field's clock, a joint's frame), as numbers for a snapshot; empty by default.
    var carryOver: [Double] { get }
    /// Puts back `carryOver` (before the behaviour is restored to an animator).
    mutating func restore(carryOver: [Double])
}

extension DynamicBehavior {
    public func applyProperties(to bodies: inout DynamicBodies) {}
    public func applyForces(to bodies: inout DynamicBodies, step: Double) {}
    public func overrideForces(on bodies: inout DynamicBodies, step: Double) {}
    public func applyForces(to bodies: inout DynamicBodies, step: Double, firstSubstep: Bool) {
        if firstSubstep || !actsOncePerStep { applyForces(to: &bodies, step: step) }
    }
    public func addConstraints(to constraints: inout ConstraintSet, bodies: DynamicBodies) {}
    public mutating func didStep(seconds: Double) -> Bool { false }
    public mutating func willBeAdded(to bodies: DynamicBodies) {}
    public var actsOncePerStep: Bool { false }
    public var phases: StepPhases { .all }
    public var carryOver: [Double] { [] }
    public mutating func restore(carryOver: [Double]) {}
}
