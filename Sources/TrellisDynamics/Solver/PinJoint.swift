import TrellisGeometry

/// Two items (or an item and the world) held at a shared point about which each turns freely
/// (UIAttachmentBehavior's pin), solved as Box2D 2.4's b2RevoluteJoint: a friction row that
/// resists relative turning up to a maximum torque (a motor at speed 0), lower and upper
/// angle-limit rows, and the point as a 2×2 block, warm-started with the last sub-step's
/// impulses; then position corrections.
struct PinJoint: Sendable {
    var pair: JointBodies
    /// The shared point on each body, in its own turning frame (for the world, the point itself).
    var localA: Vector
    var localB: Vector
    /// Body b's angle minus body a's when the joint was made: the relative angle counts from it.
    var referenceAngle: Double
    /// Relative angle limits in radians (infinite: none).
    var range: FloatRange
    /// The largest torque friction gives, mass·pt²/s².
    var frictionTorque: Double

    // Per step; the impulses accumulate from sub-step to sub-step and step to step.
    var rA = Vector.zero, rB = Vector.zero
    var axialMass = 0.0, h = 0.0
    var angle = 0.0
    var pointImpulse = Vector.zero, frictionImpulse = 0.0, lowerImpulse = 0.0, upperImpulse = 0.0

    init(a: Int?, localA: Vector, b: Int, localB: Vector, referenceAngle: Double, range: FloatRange, frictionTorque: Double) {
        pair = JointBodies(a: a, b: b)
        self.localA = localA; self.localB = localB; self.referenceAngle = referenceAngle
        self.range = range; self.frictionTorque = frictionTorque
    }

    private var turns: Bool { pair.iA + pair.iB > 0 }

    /// The geometry for a sub-step of `step` seconds, then the impulses so far applied again.
    mutating func prepare(_ bodies: inout [DynamicBody], step: Double) {
        pair.load(bodies)
        rA = AnchorPoint(body: pair.a, local: localA, in: bodies).r
        rB = AnchorPoint(body: pair.b, local: localB, in: bodies).r
        let inverse = pair.iA + pair.iB
        axialMass = inverse > 0 ? 1 / inverse : 0
        angle = bodies[pair.b].angle - pair.angleA(bodies) - referenceAngle
        h = step
        let axial = frictionImpulse + lowerImpulse - upperImpulse
        pair.applyImpulse(pointImpulse, angularA: rA.cross(pointImpulse) + axial, angularB: rB.cross(pointImpulse) + axial, to: &bodies)
    }

    /// Takes over the impulses of the same joint last step, rescaled to this step's length.
    mutating func inherit(_ last: JointImpulse, step: Double) {
        guard let v = last.rescaled(a: pair.a, b: pair.b, step: step, count: 5) else { return }
        pointImpulse = Vector(v[0], v[1])
        frictionImpulse = v[2]
        lowerImpulse = v[3]
        upperImpulse = v[4]
    }

    /// Its impulses at the end of the step, for the next one's.
    var impulses: JointImpulse {
        JointImpulse(a: pair.a, b: pair.b, h: h, values: [pointImpulse.dx, pointImpulse.dy, frictionImpulse, lowerImpulse, upperImpulse])
    }

    mutating func solveVelocity(_ bodies: inout [DynamicBody]) {
        if turns && frictionTorque > 0 {
            let (_, wA, _, wB) = pair.velocities(bodies)
            let limit = h * frictionTorque
            let old = frictionImpulse
            frictionImpulse = min(max(old - axialMass * (wB - wA), -limit), limit)
            let impulse = frictionImpulse - old
            pair.applyImpulse(.zero, angularA: impulse, angularB: impulse, to: &bodies)
        }
        if turns && range.minimum > -.infinity {
            // Speculative: a gap to the limit may close within this step, no more.
            let (_, wA, _, wB) = pair.velocities(bodies)
            let gap = angle - range.minimum
            let old = lowerImpulse
            lowerImpulse = max(old - axialMass * (wB - wA + max(gap, 0) / h), 0)
            let impulse = lowerImpulse - old
            pair.applyImpulse(.zero, angularA: impulse, angularB: impulse, to: &bodies)
        }
        if turns && range.maximum < .infinity {
            let (_, wA, _, wB) = pair.velocities(bodies)
            let gap = range.maximum - angle
            let old = upperImpulse
            upperImpulse = max(old - axialMass * (wA - wB + max(gap, 0) / h), 0)
            let impulse = upperImpulse - old
            pair.applyImpulse(.zero, angularA: -impulse, angularB: -impulse, to: &bodies)
        }
        let (vA, wA, vB, wB) = pair.velocities(bodies)
        let cdot = vB + cross(wB, rB) - vA - cross(wA, rA)
        let k = pair.pointBlock(rA, rB)
        let impulse = solveSymmetric(k.k11, k.k12, k.k22, -cdot)
        pointImpulse += impulse
        pair.applyImpulse(impulse, angularA: rA.cross(impulse), angularB: rB.cross(impulse), to: &bodies)
    }

    /// Brings the angle back within its limits and the two points together; true when both
    /// are within the slops.
    func solvePosition(_ bodies: inout [DynamicBody]) -> Bool {
        var angularError = 0.0
        if turns && (range.minimum > -.infinity || range.maximum < .infinity) {
            let angle = bodies[pair.b].angle - pair.angleA(bodies) - referenceAngle
            var c = 0.0
            if angle < range.minimum {
                c = max(angle - range.minimum, -JointBodies.maximumAngularCorrection)
            } else if angle > range.maximum {
                c = min(angle - range.maximum, JointBodies.maximumAngularCorrection)
            }
            if c != 0 {
                let impulse = -axialMass * c
                pair.applyCorrection(.zero, angularA: impulse, angularB: impulse, to: &bodies)
                angularError = abs(c)
            }
        }
        let endA = AnchorPoint(body: pair.a, local: localA, in: bodies), endB = AnchorPoint(body: pair.b, local: localB, in: bodies)
        let c = endB.point.vector(from: endA.point)
        let k = pair.pointBlock(endA.r, endB.r)
        let impulse = solveSymmetric(k.k11, k.k12, k.k22, -c)
        pair.applyCorrection(impulse, angularA: endA.r.cross(impulse), angularB: endB.r.cross(impulse), to: &bodies)
        return c.length <= JointBodies.linearSlop && angularError <= JointBodies.angularSlop
    }
}
