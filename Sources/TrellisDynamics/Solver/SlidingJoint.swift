import TrellisGeometry

/// An item sliding along an axis of another item (or of the world) without turning against
/// it, between translation limits (UIAttachmentBehavior's sliding), solved as Box2D 2.4's
/// b2PrismaticJoint: across the axis and the relative angle as a 2×2 block, lower and upper
/// limit rows along it, warm-started with the last sub-step's impulses; positions by the same
/// block with the violated limit as a third row.
struct SlidingJoint: Sendable {
    var pair: JointBodies
    /// Where the axis passes on body a (its own frame; for the world, the point itself) and the
    /// point on body b that slides along it.
    var localA: Vector
    var localB: Vector
    /// The axis, a unit vector in body a's own frame (for the world, in reference coordinates).
    var localAxis: Vector
    var referenceAngle: Double
    /// Limits on b's point's translation along the axis from a's point, in points.
    var range: FloatRange

    // Per step; the impulses accumulate from sub-step to sub-step and step to step.
    var axis = Vector.zero, perpendicular = Vector.zero
    var a1 = 0.0, a2 = 0.0, s1 = 0.0, s2 = 0.0
    var axialMass = 0.0, translation = 0.0, h = 0.0
    /// Across the axis (dx) and turning (dy).
    var impulse = Vector.zero
    var lowerImpulse = 0.0, upperImpulse = 0.0

    init(a: Int?, localA: Vector, b: Int, localB: Vector, localAxis: Vector, referenceAngle: Double, range: FloatRange) {
        pair = JointBodies(a: a, b: b)
        self.localA = localA; self.localB = localB; self.localAxis = localAxis
        self.referenceAngle = referenceAngle; self.range = range
    }

    /// The geometry now: the axis and its perpendicular turned with body a, the lever arms
    /// along and across them, and the translation.
    private func geometry(_ bodies: [DynamicBody]) -> (axis: Vector, perpendicular: Vector, a1: Double, a2: Double,
                                                       s1: Double, s2: Double, d: Vector) {
        let endA = AnchorPoint(body: pair.a, local: localA, in: bodies), endB = AnchorPoint(body: pair.b, local: localB, in: bodies)
        let d = endB.point.vector(from: endA.point)
        let axis = rotated(localAxis, by: pair.angleA(bodies)), perpendicular = axis.perpendicular
        // Body a's lever arm reaches b's point: the constraint acts where the bodies meet.
        let armA = d + endA.r
        return (axis, perpendicular, armA.cross(axis), endB.r.cross(axis), armA.cross(perpendicular), endB.r.cross(perpendicular), d)
    }

    /// The geometry for a sub-step of `step` seconds, then the impulses so far applied again.
    mutating func prepare(_ bodies: inout [DynamicBody], step: Double) {
        pair.load(bodies)
        let g = geometry(bodies)
        axis = g.axis; perpendicular = g.perpendicular
        a1 = g.a1; a2 = g.a2; s1 = g.s1; s2 = g.s2
        translation = g.d.dot(axis)
        let inverse = pair.mA + pair.mB + pair.iA * a1 * a1 + pair.iB * a2 * a2
        axialMass = inverse > 0 ? 1 / inverse : 0
        h = step
        let axial = lowerImpulse - upperImpulse
        pair.applyImpulse(perpendicular * impulse.dx + axis * axial,
                          angularA: impulse.dx * s1 + impulse.dy + axial * a1,
                          angularB: impulse.dx * s2 + impulse.dy + axial * a2, to: &bodies)
    }

    /// Takes over the impulses of the same joint last step, rescaled to this step's length.
    mutating func inherit(_ last: JointImpulse, step: Double) {
        guard let v = last.rescaled(a: pair.a, b: pair.b, step: step, count: 4) else { return }
        impulse = Vector(v[0], v[1])
        lowerImpulse = v[2]
        upperImpulse = v[3]
    }

    /// Its impulses at the end of the step, for the next one's.
    var impulses: JointImpulse {
        JointImpulse(a: pair.a, b: pair.b, h: h, values: [impulse.dx, impulse.dy, lowerImpulse, upperImpulse])
    }

    /// An impulse `amount` along `direction` whose lever arms are `armA`, `armB`, plus a pure
    /// turning impulse `turn`.
    private func apply(_ amount: Double, along direction: Vector, _ armA: Double, _ armB: Double, turn: Double,
                       to bodies: inout [DynamicBody]) {
        pair.applyImpulse(direction * amount, angularA: amount * armA + turn, angularB: amount * armB + turn, to: &bodies)
    }

    mutating func solveVelocity(_ bodies: inout [DynamicBody]) {
        if range.minimum > -.infinity {
            let (vA, wA, vB, wB) = pair.velocities(bodies)
            let cdot = axis.dot(vB - vA) + a2 * wB - a1 * wA
            let old = lowerImpulse
            lowerImpulse = max(old - axialMass * (cdot + max(translation - range.minimum, 0) / h), 0)
            apply(lowerImpulse - old, along: axis, a1, a2, turn: 0, to: &bodies)
        }
        if range.maximum < .infinity {
            let (vA, wA, vB, wB) = pair.velocities(bodies)
            let cdot = axis.dot(vA - vB) + a1 * wA - a2 * wB
            let old = upperImpulse
            upperImpulse = max(old - axialMass * (cdot + max(range.maximum - translation, 0) / h), 0)
            apply(old - upperImpulse, along: axis, a1, a2, turn: 0, to: &bodies)
        }
        let (vA, wA, vB, wB) = pair.velocities(bodies)
        let across = perpendicular.dot(vB - vA) + s2 * wB - s1 * wA
        let turning = wB - wA
        let k11 = pair.mA + pair.mB + pair.iA * s1 * s1 + pair.iB * s2 * s2
        let k12 = pair.iA * s1 + pair.iB * s2
        let k22 = pair.iA + pair.iB
        let step = solveSymmetric(k11, k12, k22 > 0 ? k22 : 1, Vector(dx: -across, dy: -turning))
        impulse += step
        apply(step.dx, along: perpendicular, s1, s2, turn: step.dy, to: &bodies)
    }

    /// Puts b's point back on the axis, the angle back to the reference and the translation
    /// within the range; true when all are within the slops.
    func solvePosition(_ bodies: inout [DynamicBody]) -> Bool {
        let g = geometry(bodies)
        let across = g.perpendicular.dot(g.d)
        let turning = pair.iA + pair.iB > 0 ? bodies[pair.b].angle - pair.angleA(bodies) - referenceAngle : 0
        let translation = g.axis.dot(g.d)
        var along = 0.0
        if translation < range.minimum {
            along = max(translation - range.minimum, -JointBodies.maximumLinearCorrection)
        } else if translation > range.maximum {
            along = min(translation - range.maximum, JointBodies.maximumLinearCorrection)
        }
        let k11 = pair.mA + pair.mB + pair.iA * g.s1 * g.s1 + pair.iB * g.s2 * g.s2
        let k12 = pair.iA * g.s1 + pair.iB * g.s2
        let k22 = pair.iA + pair.iB > 0 ? pair.iA + pair.iB : 1
        var impulse = Vector.zero, axial = 0.0
        if along != 0 {
            let k13 = pair.iA * g.s1 * g.a1 + pair.iB * g.s2 * g.a2
            let k23 = pair.iA * g.a1 + pair.iB * g.a2
            var k33 = pair.mA + pair.mB + pair.iA * g.a1 * g.a1 + pair.iB * g.a2 * g.a2
            if k33 == 0 { k33 = 1 }
            let x = solveSymmetric(k11, k12, k13, k22, k23, k33, (-across, -turning, -along))
            impulse = Vector(dx: x.0, dy: x.1)
            axial = x.2
        } else {
            impulse = solveSymmetric(k11, k12, k22, Vector(dx: -across, dy: -turning))
        }
        let p = g.perpendicular * impulse.dx + g.axis * axial
        pair.applyCorrection(p, angularA: impulse.dx * g.s1 + impulse.dy + axial * g.a1,
                             angularB: impulse.dx * g.s2 + impulse.dy + axial * g.a2, to: &bodies)
        return abs(across) <= JointBodies.linearSlop && abs(along) <= JointBodies.linearSlop
            && abs(turning) <= JointBodies.angularSlop
    }
}
