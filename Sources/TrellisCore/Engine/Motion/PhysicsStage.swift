import TrellisGeometry
import TrellisDynamics

/// Stage 3 of the tick: UIKit Dynamics for the session, on a fixed 60 Hz time step so results
/// do not depend on the frame rate. It owns the `DynamicAnimator`, which elements are dynamic
/// (cells by item id, free bodies by name) under which animator item, the free bodies, and
/// each behaviour's wire form (for listing and snapshots). It needs ticks exactly while the
/// animator runs: a paused animator costs nothing.
struct PhysicsStage: MotionStage, Sendable {
    /// Every step falls due: a manual clock advanced by ten seconds simulates ten seconds.
    private(set) var timestep = FixedTimestep(maximumStepsPerAdvance: .max)
    /// At most this many steps in one advance, the rest dropped (a live session that stalled
    /// catches up at most four seconds, rather than freezing its loop to simulate the gap).
    var catchUpLimit = Int.max
    var animator = DynamicAnimator(referenceBounds: .zero)
    /// Every element a behaviour has named, and its animator item (kept after the element
    /// leaves the animator, so a behaviour that names it keeps naming the same item).
    var itemIDs: [DynamicElement: DynamicItemID] = [:]
    var elements: [DynamicItemID: DynamicElement] = [:]
    var nextItem = 1
    /// Free bodies by number, and their numbers by name.
    var bodies: [Int: FreeBody] = [:]
    var bodyNumbers: [String: Int] = [:]
    var nextBodyNumber = 0
    /// Each behaviour as it was given on the wire (with `length` filled in when the animator set it).
    var specs: [BehaviorID: JSONValue] = [:]
    /// Dynamic cells (in the animator) by their current index path, for binding and attributes.
    var cells: [IndexPath: DynamicItemID] = [:]

    var needsTicks: Bool { !animator.isPaused }

    /// The engine's clock starts at 0, and so does the stage's (a first behaviour added before
    /// the clock ever moved must not lose the first advance).
    init() { _ = timestep.advance(to: 0) }

    /// Nothing dynamic: binding takes the layout's answer as it is.
    var isIdle: Bool { animator.bodies.count == 0 }

    /// Moves to `time`; returns true when the animator stepped (dynamic items may have moved).
    mutating func step(to time: Double) -> Bool {
        let steps = min(timestep.advance(to: time), catchUpLimit)
        guard steps > 0, !animator.isPaused else { return false }
        animator.advance(steps: steps)
        return true
    }

    /// The body numbered `number`, wherever its state is kept now.
    func body(number: Int) -> FreeBody? {
        guard var body = bodies[number] else { return nil }
        if let id = itemIDs[.body(body.name)], let state = animator.bodies[id] {
            body.center = state.center
            body.angle = state.angle
        }
        return body
    }

    /// Restores the time step's accumulator from a snapshot.
    mutating func restoreTimestep(_ saved: FixedTimestep) { timestep = saved }
}
