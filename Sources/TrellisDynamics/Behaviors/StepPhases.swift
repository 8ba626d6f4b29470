/// The parts of a step a behaviour takes part in. The animator asks a behaviour only for
/// those: each call on a behaviour of unknown type goes through its box and witness table,
/// and five of them a step for each of 10,000 attachments that only add constraints cost
/// a fifth of the step.
public struct StepPhases: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `applyProperties(to:)`.
    public static let properties = StepPhases(rawValue: 1 << 0)
    /// `applyForces(to:step:firstSubstep:)` and `overrideForces(on:step:)`.
    public static let forces = StepPhases(rawValue: 1 << 1)
    /// `addConstraints(to:bodies:)`.
    public static let constraints = StepPhases(rawValue: 1 << 2)
    /// `didStep(seconds:)`.
    public static let afterStep = StepPhases(rawValue: 1 << 3)
    public static let all: StepPhases = [.properties, .forces, .constraints, .afterStep]
}
