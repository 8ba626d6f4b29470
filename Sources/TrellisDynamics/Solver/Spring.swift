import TrellisGeometry

/// A damped spring between two anchor points (UIAttachmentBehavior with a frequency, and the
/// zero-length spring of a snap). From a body's centre to a fixed point it moves the body by its
/// closed form (`LinearForces`); otherwise it is a force before the velocities are stepped, with
/// the coefficients that keep its period and decay (`SteppedSpring`), where Box2D's soft
/// constraint damps it numerically; stiff springs get sub-steps. The stiffness is set from the
/// frequency on the effective mass along the spring, as Box2D does: k = m·ω², c = 2·m·ζ·ω.
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
    /// for a retain, uniqueness checks and copies of the bodies, most of a step of 10,000. A
    /// spring from a body's centre to a fixed point goes to the body's closed form instead
    /// (`LinearForces`).
    static func applyForces(_ springs: [DistanceSpring], to bodies: inout [DynamicBody], linear: inout [LinearForces], step h: Double) {
        var stepped = SteppedSpring()
        bodies.withUnsafeMutableBufferPointer { all in
            linear.withUnsafeMutableBufferPointer { linear in
                for k in springs.indices {
                    let spring = springs[k]
                    if spring.a == nil && spring.localB == .zero {
                        precondition(spring.b < all.count, "a spring's item is not in the animator")
                        let w = 2 * Double.pi * spring.frequency
                        linear[spring.b].addAnchoredSpring(on: &all[spring.b], anchor: Point(x: spring.localA.dx, y: spring.localA.dy),
                                                           length: spring.length, stiffness: w * w, damping: 2 * spring.dampingRatio * w)
                    } else {
                        stepped.update(frequency: spring.frequency, dampingRatio: spring.dampingRatio, step: h)
                        spring.applyForce(all, linear, stiffness: stepped.stiffness, damping: stepped.damping)
                    }
                }
            }
        }
    }

    /// `stiffness` and `damping` per unit of effective mass (`SteppedSpring`), gathered apart
    /// from other forces: the step moves by them as leapfrog (`SteppedKick`).
    private func applyForce(_ bodies: UnsafeMutableBufferPointer<DynamicBody>, _ linear: UnsafeMutableBufferPointer<LinearForces>,
                            stiffness: Double, damping: Double) {
        precondition(b < bodies.count && (a ?? 0) < bodies.count, "a spring's item is not in the animator")
        let endA = AnchorPoint(body: a, local: localA, in: bodies), endB = AnchorPoint(body: b, local: localB, in: bodies)
        let delta = endB.point.vector(from: endA.point)
        let relative = endB.velocity - endA.velocity
        let current = delta.length
        let force: Vector
        if length == 0 || current < DistanceJoint.slop {
            // A zero-length spring pulls along whatever the displacement is.
            let inverse = endA.inverseMass + endA.inverseInertia * endA.r.lengthSquared
                + endB.inverseMass + endB.inverseInertia * endB.r.lengthSquared
            guard inverse > 0 else { return }
            let mass = 1 / inverse
            force = (delta * (mass * stiffness) + relative * (mass * damping)) * -1
        } else {
            let u = delta / current
            let inverse = AnchorPoint.inverseMass(endA, endB, along: u)
            guard inverse > 0 else { return }
            let mass = 1 / inverse
            force = u * -(mass * stiffness * (current - length) + mass * damping * relative.dot(u))
        }
        linear[b].springForce += force
        linear[b].springTorque += endB.r.cross(force)
        if let a {
            linear[a].springForce -= force
            linear[a].springTorque -= endA.r.cross(force)
        }
    }
}

/// A damped torsion spring turning a body to an angle (the snap straightening its item), moved
/// by the body's closed form (`LinearForces`).
struct AngleSpring: Sendable {
    var b: Int
    var target: Double
    var frequency: Double
    var dampingRatio: Double

    func apply(_ bodies: [DynamicBody], _ linear: inout [LinearForces]) {
        let w = 2 * Double.pi * frequency
        linear[b].addAngleSpring(on: bodies[b], angle: target, stiffness: w * w, damping: 2 * dampingRatio * w)
    }
}
