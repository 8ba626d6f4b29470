import TrellisGeometry

/// How far a body's stepping velocity lies from its velocity while springs between items step it.
///
/// Those springs are stepped by symplectic Euler (v += h·a, then x += h·v), which is leapfrog
/// when the velocity it carries is the one half a step earlier: started from the body's own
/// velocity, a spring let go from rest ran half a step early. So the step starts its stepping
/// velocity half a kick (h/2 × the springs' acceleration) behind the body's velocity, carries it
/// from step to step, and leaves the body's velocity (what is reported, pushed, snapshotted) half
/// a kick ahead of it. Between steps `DynamicBody.velocity` is the velocity at the step's time.
public struct SteppedKick: Hashable, Sendable {
    /// h/2 × the springs' acceleration in the last (sub-)step: velocity − stepping velocity.
    public var velocity: Vector
    /// The same for the turn (radians per second).
    public var angular: Double
    /// The (sub-)step it belongs to, in seconds; 0 when no spring acted in the last one.
    public var step: Double

    public init(velocity: Vector = .zero, angular: Double = 0, step: Double = 0) {
        self.velocity = velocity; self.angular = angular; self.step = step
    }

    /// No spring between items acted on the body in the last (sub-)step.
    public static let none = SteppedKick()

    /// Each body whose kick is one of a step of `h` given its stepping velocity, before the
    /// springs read it: their damping acts on the velocity the step carries (`SteppedSpring`'s
    /// coefficients are worked out for it).
    static func takeStepping(_ bodies: inout [DynamicBody], _ kicks: [SteppedKick], step h: Double) {
        for k in kicks.indices where kicks[k].step == h {
            bodies[k].velocity -= kicks[k].velocity
            bodies[k].angularVelocity -= kicks[k].angular
        }
    }
}
