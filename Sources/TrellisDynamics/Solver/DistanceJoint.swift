import TrellisGeometry

/// A rigid rod between two anchor points (UIAttachmentBehavior at frequency 0), solved as Box2D
/// 2.3's rigid b2DistanceJoint: a velocity constraint along the line between the anchors, then
/// a position correction.
struct DistanceJoint: Sendable {
    /// nil: anchored to the world at `localA` (a point in reference coordinates).
    var a: Int?
    var localA: Vector
    var b: Int
    var localB: Vector
    var length: Double

    // Per step.
    var rA = Vector.zero, rB = Vector.zero, u = Vector.zero
    var mass = 0.0, impulse = 0.0

    init(a: Int?, localA: Vector, b: Int, localB: Vector, length: Double) {
        self.a = a; self.localA = localA; self.b = b; self.localB = localB; self.length = length
    }

    mutating func prepare(_ bodies: inout [DynamicBody]) {
        let endA = AnchorPoint(body: a, local: localA, in: bodies), endB = AnchorPoint(body: b, local: localB, in: bodies)
        rA = endA.r
        rB = endB.r
        let delta = endB.point.vector(from: endA.point)
        let current = delta.length
        u = current > Self.slop ? delta / current : .zero
        let inverse = AnchorPoint.inverseMass(endA, endB, along: u)
        mass = inverse != 0 ? 1 / inverse : 0
        impulse = 0
    }

    private func apply(_ amount: Double, to bodies: inout [DynamicBody]) {
        AnchorPoint.applyImpulse(u * amount, a: a, rA: rA, b: b, rB: rB, to: &bodies)
    }

    mutating func solveVelocity(_ bodies: inout [DynamicBody]) {
        let cdot = u.dot(AnchorPoint.relativeVelocity(a: a, rA: rA, b: b, rB: rB, in: bodies))
        let step = -mass * cdot
        impulse += step
        apply(step, to: &bodies)
    }

    /// Moves the bodies to the length; true when within the slop.
    func solvePosition(_ bodies: inout [DynamicBody]) -> Bool {
        let endA = AnchorPoint(body: a, local: localA, in: bodies), endB = AnchorPoint(body: b, local: localB, in: bodies)
        let delta = endB.point.vector(from: endA.point)
        let current = delta.length
        guard current > Self.slop else { return true }
        let n = delta / current
        let c = min(max(current - length, -Self.maximumCorrection), Self.maximumCorrection)
        let inverse = AnchorPoint.inverseMass(endA, endB, along: n)
        guard inverse > 0 else { return true }
        let p = n * (-c / inverse)
        if let a {
            bodies[a].center = bodies[a].center - p * bodies[a].inverseMass
            bodies[a].angle -= bodies[a].inverseInertia * endA.r.cross(p)
        }
        bodies[b].center = bodies[b].center + p * bodies[b].inverseMass
        bodies[b].angle += bodies[b].inverseInertia * endB.r.cross(p)
        return abs(c) < Self.slop
    }

    /// Box2D's b2_linearSlop (0.005 m) and b2_maxLinearCorrection (0.2 m) at 100 pt per metre.
    static let slop = 0.5
    static let maximumCorrection = 20.0
}
