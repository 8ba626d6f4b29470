import TrellisGeometry

/// What the joints share: the two bodies they hold (body `a` may be the world), Box2D's
/// tolerances at 100 pt per metre, and the small symmetric solves of a block of rows.
struct JointBodies: Sendable {
    /// nil: the world (it neither moves nor turns).
    var a: Int?
    var b: Int
    /// Inverse masses and inertias (0 for the world, an anchored item, a locked rotation).
    var mA = 0.0, iA = 0.0, mB = 0.0, iB = 0.0

    init(a: Int?, b: Int) { self.a = a; self.b = b }

    mutating func load(_ bodies: [DynamicBody]) {
        if let a { mA = bodies[a].inverseMass; iA = bodies[a].inverseInertia } else { mA = 0; iA = 0 }
        mB = bodies[b].inverseMass
        iB = bodies[b].inverseInertia
    }

    /// Linear and angular velocities of both bodies (zero for the world).
    func velocities(_ bodies: [DynamicBody]) -> (vA: Vector, wA: Double, vB: Vector, wB: Double) {
        var vA = Vector.zero, wA = 0.0
        if let a { vA = bodies[a].velocity; wA = bodies[a].angularVelocity }
        return (vA, wA, bodies[b].velocity, bodies[b].angularVelocity)
    }

    /// An impulse `p` on `b` (and −p on `a`) with the angular impulses `lA` taken from `a` and
    /// `lB` given to `b` (each already the lever arm's cross product plus any pure torque).
    func applyImpulse(_ p: Vector, angularA lA: Double, angularB lB: Double, to bodies: inout [DynamicBody]) {
        if let a {
            bodies[a].velocity -= p * mA
            bodies[a].angularVelocity -= iA * lA
        }
        bodies[b].velocity += p * mB
        bodies[b].angularVelocity += iB * lB
    }

    /// The same as a position correction: moves and turns the bodies.
    func applyCorrection(_ p: Vector, angularA lA: Double, angularB lB: Double, to bodies: inout [DynamicBody]) {
        if let a {
            bodies[a].center = bodies[a].center - p * mA
            bodies[a].angle -= iA * lA
        }
        bodies[b].center = bodies[b].center + p * mB
        bodies[b].angle += iB * lB
    }

    func angleA(_ bodies: [DynamicBody]) -> Double { a.map { bodies[$0].angle } ?? 0 }

    /// The 2×2 block that holds a point of `a` and a point of `b` together (offsets `rA`, `rB`
    /// from the centres), as (k11, k12, k22).
    func pointBlock(_ rA: Vector, _ rB: Vector) -> (k11: Double, k12: Double, k22: Double) {
        (mA + mB + iA * rA.dy * rA.dy + iB * rB.dy * rB.dy,
         -iA * rA.dx * rA.dy - iB * rB.dx * rB.dy,
         mA + mB + iA * rA.dx * rA.dx + iB * rB.dx * rB.dx)
    }

    /// Box2D's b2_linearSlop and b2_maxLinearCorrection at 100 pt per metre, and its angular
    /// slop (2°) and largest angular correction per position iteration (8°).
    static let linearSlop = DistanceJoint.slop
    static let maximumLinearCorrection = DistanceJoint.maximumCorrection
    static let angularSlop = 2 * Double.pi / 180
    static let maximumAngularCorrection = 8 * Double.pi / 180
}

/// x with K·x = r for the symmetric 2×2 block K = [k11 k12; k12 k22]; zero when K is singular.
@inline(__always) func solveSymmetric(_ k11: Double, _ k12: Double, _ k22: Double, _ r: Vector) -> Vector {
    let det = k11 * k22 - k12 * k12
    guard det != 0 else { return .zero }
    let inv = 1 / det
    return Vector(dx: inv * (k22 * r.dx - k12 * r.dy), dy: inv * (k11 * r.dy - k12 * r.dx))
}

/// x with K·x = r for a symmetric 3×3 block K (rows k11 k12 k13 / k12 k22 k23 / k13 k23 k33),
/// by Cramer's rule; zero when K is singular.
@inline(__always) func solveSymmetric(_ k11: Double, _ k12: Double, _ k13: Double, _ k22: Double, _ k23: Double, _ k33: Double,
                                      _ r: (Double, Double, Double)) -> (Double, Double, Double) {
    // Cofactors of the symmetric matrix.
    let c11 = k22 * k33 - k23 * k23, c12 = k13 * k23 - k12 * k33, c13 = k12 * k23 - k13 * k22
    let c22 = k11 * k33 - k13 * k13, c23 = k12 * k13 - k11 * k23, c33 = k11 * k22 - k12 * k12
    let det = k11 * c11 + k12 * c12 + k13 * c13
    guard det != 0 else { return (0, 0, 0) }
    let inv = 1 / det
    return (inv * (c11 * r.0 + c12 * r.1 + c13 * r.2),
            inv * (c12 * r.0 + c22 * r.1 + c23 * r.2),
            inv * (c13 * r.0 + c23 * r.1 + c33 * r.2))
}
