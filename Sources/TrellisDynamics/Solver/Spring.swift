import TrellisGeometry

/// A damped spring between two anchor points (UIAttachmentBehavior with a frequency, and the
/// zero-length spring of a snap), applied as a force before the velocities are integrated.
/// Explicit forces in the symplectic step keep an undamped spring's energy (its amplitude
/// holds) where Box2D's soft constraint damps it numerically; stiff springs get sub-steps.
/// The stiffness is set from the frequency on the effective mass along the spring, as Box2D
/// does: k = m·ω², c = 2·m·ζ·ω.
struct DistanceSpring: Sendable {
    /// nil: a fixed point in the reference coordinates (`localA`).
    var a: Int?
    var localA: Vector
    var b: Int
    var localB: Vector
    var length: Double
    var frequency: Double
    var dampingRatio: Double

    /// Every spring's force, on the bodies where they lie: through an array each spring paid
    /// for a retain, uniqueness checks and copies of the bodies, most of a step of 10,000.
    static func applyForces(_ springs: [DistanceSpring], to bodies: inout [DynamicBody]) {
        bodies.withUnsafeMutableBufferPointer { all in
            for k in springs.indices { springs[k].applyForce(all) }
        }
    }

    private func applyForce(_ bodies: UnsafeMutableBufferPointer<DynamicBody>) {
        precondition(b < bodies.count && (a ?? 0) < bodies.count, "a spring's item is not in the animator")
        let endA = AnchorPoint(body: a, local: localA, in: bodies), endB = AnchorPoint(body: b, local: localB, in: bodies)
        let delta = endB.point.vector(from: endA.point)
        let relative = endB.velocity - endA.velocity
        let current = delta.length
        let omega = 2 * Double.pi * frequency
        let force: Vector
        if length == 0 || current < DistanceJoint.slop {
            // A zero-length spring pulls along whatever the displacement is.
            let inverse = endA.inverseMass + endA.inverseInertia * endA.r.lengthSquared
                + endB.inverseMass + endB.inverseInertia * endB.r.lengthSquared
            guard inverse > 0 else { return }
            let mass = 1 / inverse
            force = (delta * (mass * omega * omega) + relative * (2 * mass * dampingRatio * omega)) * -1
        } else {
            let u = delta / current
            let inverse = AnchorPoint.inverseMass(endA, endB, along: u)
            guard inverse > 0 else { return }
            let mass = 1 / inverse
            force = u * -(mass * omega * omega * (current - length) + 2 * mass * dampingRatio * omega * relative.dot(u))
        }
        bodies[b].force += force
        bodies[b].torque += endB.r.cross(force)
        if let a {
            bodies[a].force -= force
            bodies[a].torque -= endA.r.cross(force)
        }
    }
}

/// A damped torsion spring turning a body to an angle (the snap straightening its item).
struct AngleSpring: Sendable {
    var b: Int
    var target: Double
    var frequency: Double
    var dampingRatio: Double

    func applyForce(_ bodies: inout [DynamicBody]) {
        let body = bodies[b]
        guard body.inverseInertia > 0 else { return }
        let inertia = 1 / body.inverseInertia, omega = 2 * Double.pi * frequency
        bodies[b].torque -= inertia * omega * omega * (body.angle - target) + 2 * inertia * dampingRatio * omega * body.angularVelocity
    }
}
