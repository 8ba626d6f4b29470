import TrellisGeometry

/// A rope between two anchor points (UIAttachmentBehavior's limit): slack while the ends are
/// closer than `length`, taut at it, never longer. Solved as Box2D 2.3's b2RopeJoint: a
/// one-sided impulse along the rope that only pulls, speculative (it lets the slack close
/// within a step but no more), warm-started with the last sub-step's impulse, then a position
/// correction when it is too long.
struct RopeJoint: Sendable {
    /// nil: the world, `localA` being the fixed point.
    var a: Int?
    var localA: Vector
    var b: Int
    var localB: Vector
    /// The longest the rope lets the ends be, in points.
    var length: Double

    // Per step; the impulse accumulates from sub-step to sub-step and step to step.
    var rA = Vector.zero, rB = Vector.zero, u = Vector.zero
    var mass = 0.0, impulse = 0.0, slack = 0.0, h = 0.0

    init(a: Int?, localA: Vector, b: Int, localB: Vector, length: Double) {
        self.a = a; self.localA = localA; self.b = b; self.localB = localB; self.length = length
    }

    /// The geometry for a sub-step of `step` seconds, then the impulse so far applied again.
    mutating func prepare(_ bodies: inout [DynamicBody], step: Double) {
        let endA = AnchorPoint(body: a, local: localA, in: bodies), endB = AnchorPoint(body: b, local: localB, in: bodies)
        rA = endA.r
        rB = endB.r
        let delta = endB.point.vector(from: endA.point)
        let current = delta.length
        slack = length - current
        u = current > JointBodies.linearSlop ? delta / current : .zero
        let inverse = AnchorPoint.inverseMass(endA, endB, along: u)
        mass = inverse != 0 ? 1 / inverse : 0
        h = step
        apply(u * impulse, to: &bodies)
    }

    /// Takes over the impulse of the same joint last step, rescaled to this step's length.
    mutating func inherit(_ last: JointImpulse, step: Double) {
        guard let v = last.rescaled(a: a, b: b, step: step, count: 1) else { return }
        impulse = v[0]
    }

    /// Its impulses at the end of the step, for the next one's.
    var impulses: JointImpulse { JointImpulse(a: a, b: b, h: h, values: [impulse]) }

    private func apply(_ p: Vector, to bodies: inout [DynamicBody]) {
        AnchorPoint.applyImpulse(p, a: a, rA: rA, b: b, rB: rB, to: &bodies)
    }

    mutating func solveVelocity(_ bodies: inout [DynamicBody]) {
        // Separating speed, less what the slack allows this step.
        let cdot = u.dot(AnchorPoint.relativeVelocity(a: a, rA: rA, b: b, rB: rB, in: bodies)) - max(slack, 0) / h
        let old = impulse
        impulse = min(old - mass * cdot, 0)
        apply(u * (impulse - old), to: &bodies)
    }

    /// Pulls the ends back to the length when the rope is too long; true when within the slop.
    func solvePosition(_ bodies: inout [DynamicBody]) -> Bool {
        let endA = AnchorPoint(body: a, local: localA, in: bodies), endB = AnchorPoint(body: b, local: localB, in: bodies)
        let delta = endB.point.vector(from: endA.point)
        let current = delta.length
        guard current > length, current > JointBodies.linearSlop else { return true }
        let n = delta / current
        let c = min(current - length, JointBodies.maximumLinearCorrection)
        let inverse = AnchorPoint.inverseMass(endA, endB, along: n)
        guard inverse > 0 else { return true }
        let p = n * (-c / inverse)
        if let a {
            bodies[a].center = bodies[a].center - p * bodies[a].inverseMass
            bodies[a].angle -= bodies[a].inverseInertia * endA.r.cross(p)
        }
        bodies[b].center = bodies[b].center + p * bodies[b].inverseMass
        bodies[b].angle += bodies[b].inverseInertia * endB.r.cross(p)
        return c < JointBodies.linearSlop
    }
}
