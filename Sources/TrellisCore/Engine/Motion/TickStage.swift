/// The stages of the engine's tick, in the order they run (DESIGN.md, "Motion pipeline"; Box2D
/// v3's `b2SolverStageType` is the model): `CollectionView.advance(to:)` runs `allCases` one
/// after the other, so this enumeration is the pipeline's one statement of its order. A stage
/// needs ticks while it moves something by time alone, and the session needs frames exactly
/// while one does (`CollectionView.needsTicks`); a new kind of motion joins its stage, never a
/// clock or a path to the scene of its own.
enum TickStage: Int, CaseIterable, Comparable, Sendable {
    /// Input samples due by now: gestures arrive as commands (pan, touch) between ticks, so the
    /// tick only counts the fixed steps due: the released scroll's (60 Hz) and the animator's
    /// (at its rate).
    case inputSamples
    /// `ScrollMotion`: the content offset on screen and its velocity (an animated scroll, the
    /// user's released scroll); a springy layout's springs follow the scroll here.
    case scrollMotion
    /// `DynamicsStage`: the animator on its fixed steps, as many as the caller allows (a tick
    /// deferred by `DynamicsOverrun.defer` waits here for `continueAdvance`); the layout's
    /// springs come off once everything rests.
    case dynamics
    /// The layout, prepared for the bounds on screen when it asks to be (pinning, zoom,
    /// carousels) or when it animates by time itself (`Layout.needsTicks`: CoverFlow2's toggle).
    case layoutForOnScreenBounds
    /// `TimedAnimations`: updates, transitions, animated scrolls and their transactions.
    case timedAnimations
    /// Binding (the reuse pool) and the scene; then endless content goes back to its middle
    /// copy once everything has stopped.
    case binding

    static func < (a: TickStage, b: TickStage) -> Bool { a.rawValue < b.rawValue }
}

extension CollectionView {
    /// Runs the stages of `tick` from the one it stands at to the last; false when the dynamics
    /// stage deferred the rest of the tick (`tickInProgress` then holds it).
    mutating func runTick(_ tick: TickInProgress, while more: () -> Bool) -> Bool {
        var tick = tick
        for stage in TickStage.allCases where stage >= tick.stage {
            tick.stage = stage
            switch stage {
            case .inputSamples: takeInputSamples(&tick)
            case .scrollMotion: stepScrollMotion(&tick)
            case .dynamics:
                guard stepDynamics(&tick, while: more) else {
                    tickInProgress = tick
                    return false
                }
            case .layoutForOnScreenBounds: layOutForOnScreenBounds(tick)
            case .timedAnimations: stepTimedAnimations(&tick)
            case .binding: bind(after: tick)
            }
        }
        return true
    }

    /// The input stage: the fixed steps due by now (at most the catch-up limit; the animator's
    /// beyond it are dropped while it runs).
    private mutating func takeInputSamples(_ tick: inout TickInProgress) {
        let (steps, scrollSteps, beyondCatchUp) = dynamics.dueSteps(to: time)
        countDroppedDynamicsSteps(beyondCatchUp)
        tick.scrollSteps = scrollSteps
        tick.remainingSteps = steps
    }
}
