import TrellisDynamics

/// Stage 3 of the tick: the physics step, on a fixed time step so that results do not depend on
/// the frame rate. The dynamics engine (UIKit Dynamics' behaviours on cells and free bodies)
/// plugs in here; until it does the stage simulates nothing, so it never asks for ticks, but
/// it keeps its clock with the engine's, so the first body starts from now, not from zero.
struct PhysicsStage: MotionStage, Sendable {
    private(set) var timestep = FixedTimestep()

    var needsTicks: Bool { false }

    /// Moves to `time`; returns how many whole physics steps fall due.
    @discardableResult
    mutating func step(to time: Double) -> Int { timestep.advance(to: time) }
}
