import TrellisGeometry

/// Two items (or an item and the world) fused at a point, neither moving nor turning against
/// the other (UIAttachmentBehavior's fixed), solved as Box2D 2.x's rigid b2WeldJoint: the
/// point and the relative angle as one 3×3 block (just the point when neither body may turn),
/// warm-started with the last sub-step's impulse, then the same block on the positions.
struct FixedJoint: Sendable {
    var pair: JointBodies
    var localA: Vector
    var localB: Vector
    /// Body b's angle minus body a's when fused: the angle the weld keeps.
    var referenceAngle: Double

    // Per step; the impulse accumulates from sub-step to sub-step and step to step.
    var rA = Vector.zero, rB = Vector.zero, h = 0.0
    var impulse = Vector.zero, angularImpulse = 0.0

    init(a: Int?, localA: Vector, b: Int, localB: Vector, referenceAngle: Double) {
        pair = JointBodies(a: a, b: b)
        self.localA = localA; self.localB = localB; self.referenceAngle = referenceAngle
    }

    /// The geometry for a sub-step of `step` seconds, then the impulse so far applied again.
    mutating func prepare(_ bodies: inout [DynamicBody], step: Double) {
        pair.load(bodies)
        rA = AnchorPoint(body: pair.a, local: localA, in: bodies).r
        rB = AnchorPoint(body: pair.b, local: localB, in: bodies).r
        h = step
        pair.applyImpulse(impulse, angularA: rA.cross(impulse) + angularImpulse, angularB: rB.cross(impulse) + angularImpulse, to: &bodies)
    }

    /// Takes over the impulse of the same joint last step, rescaled to this step's length.
    mutating func inherit(_ last: JointImpulse, step: Double) {
        guard let v = last.rescaled(a: pair.a, b: pair.b, step: step, count: 3) else { return }
        impulse = Vector(v[0], v[1])
        angularImpulse = v[2]
    }

    /// Its impulses at the end of the step, for the next one's.
    var impulses: JointImpulse {
        JointImpulse(a: pair.a, b: pair.b, h: h, values: [impulse.dx, impulse.dy, angularImpulse])
    }

    /// The impulse (linear, angular) that cancels the point's relative motion `linear` and the
    /// relative turning `angular`.
    private func block(_ rA: Vector, _ rB: Vector, _ linear: Vector, _ angular: Double) -> (Vector, Double) {
        let k = pair.pointBlock(rA, rB)
        let k33 = pair.iA + pair.iB
        guard k33 > 0 else { return (solveSymmetric(k.k11, k.k12, k.k22, -linear), 0) }
        let k13 = -pair.iA * rA.dy - pair.iB * rB.dy, k23 = pair.iA * rA.dx + pair.iB * rB.dx
        let x = solveSymmetric(k.k11, k.k12, k13, k.k22, k23, k33, (-linear.dx, -linear.dy, -angular))
        return (Vector(dx: x.0, dy: x.1), x.2)
    }

    mutating func solveVelocity(_ bodies: inout [DynamicBody]) {
        let (vA, wA, vB, wB) = pair.velocities(bodies)
        let (p, l) = block(rA, rB, vB + cross(wB, rB) - vA - cross(wA, rA), wB - wA)
        impulse += p
        angularImpulse += l
        pair.applyImpulse(p, angularA: rA.cross(p) + l, angularB: rB.cross(p) + l, to: &bodies)
    }

    /// True when the point and the angle are within the slops.
    func solvePosition(_ bodies: inout [DynamicBody]) -> Bool {
        let endA = AnchorPoint(body: pair.a, local: localA, in: bodies), endB = AnchorPoint(body: pair.b, local: localB, in: bodies)
        let linear = endB.point.vector(from: endA.point)
        let angular = pair.iA + pair.iB > 0 ? bodies[pair.b].angle - pair.angleA(bodies) - referenceAngle : 0
        let (p, l) = block(endA.r, endB.r, linear, angular)
        pair.applyCorrection(p, angularA: endA.r.cross(p) + l, angularB: endB.r.cross(p) + l, to: &bodies)
        return linear.length <= JointBodies.linearSlop && abs(angular) <= JointBodies.angularSlop
    }
}
