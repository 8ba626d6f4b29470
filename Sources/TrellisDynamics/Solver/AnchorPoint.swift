import TrellisGeometry

/// One end of a rod or a spring as it is now: a point on a body (at an offset from its centre,
/// turning with it) or, without a body, a fixed point in the reference coordinates.
struct AnchorPoint {
    var point: Point
    /// From the body's centre to the point (zero for a fixed point).
    var r: Vector
    var inverseMass: Double
    var inverseInertia: Double
    /// How fast the point moves.
    var velocity: Vector

    /// `body` nil: `local` is the fixed point itself. `bodies`: the array, or its buffer.
    @inline(__always)
    init<Bodies: RandomAccessCollection<DynamicBody>>(body: Int?, local: Vector, in bodies: Bodies) where Bodies.Index == Int {
        guard let body else {
            self.init(point: Point(x: local.dx, y: local.dy), r: .zero, inverseMass: 0, inverseInertia: 0, velocity: .zero)
            return
        }
        let b = bodies[body]
        let r = rotated(local, by: b.angle)
        self.init(point: b.center + r, r: r, inverseMass: b.inverseMass, inverseInertia: b.inverseInertia,
                  velocity: b.velocity + cross(b.angularVelocity, r))
    }

    private init(point: Point, r: Vector, inverseMass: Double, inverseInertia: Double, velocity: Vector) {
        self.point = point; self.r = r; self.inverseMass = inverseMass; self.inverseInertia = inverseInertia
        self.velocity = velocity
    }

    /// What a push along the unit `axis` between two ends meets: the sum of their inverse
    /// masses and of their inverse inertias through the lever arms (1 / effective mass).
    static func inverseMass(_ a: AnchorPoint, _ b: AnchorPoint, along axis: Vector) -> Double {
        let ca = a.r.cross(axis), cb = b.r.cross(axis)
        return a.inverseMass + a.inverseInertia * ca * ca + b.inverseMass + b.inverseInertia * cb * cb
    }

    /// How fast body `b`'s end (at `rB` from its centre) moves away from body `a`'s (`a` nil:
    /// a fixed point): what a rod or rope row measures each iteration.
    @inline(__always)
    static func relativeVelocity(a: Int?, rA: Vector, b: Int, rB: Vector, in bodies: [DynamicBody]) -> Vector {
        var vA = Vector.zero
        if let a { vA = bodies[a].velocity + cross(bodies[a].angularVelocity, rA) }
        return bodies[b].velocity + cross(bodies[b].angularVelocity, rB) - vA
    }

    /// Applies the impulse `p` at body `b`'s end and `−p` at body `a`'s (none on a fixed point).
    @inline(__always)
    static func applyImpulse(_ p: Vector, a: Int?, rA: Vector, b: Int, rB: Vector, to bodies: inout [DynamicBody]) {
        if let a {
            bodies[a].velocity -= p * bodies[a].inverseMass
            bodies[a].angularVelocity -= bodies[a].inverseInertia * rA.cross(p)
        }
        bodies[b].velocity += p * bodies[b].inverseMass
        bodies[b].angularVelocity += bodies[b].inverseInertia * rB.cross(p)
    }
}
