import TrellisGeometry

/// One contact point between body `b` and body `a` or a boundary (`a` nil): the normal points
/// from `a` to `b`, `separation` is the gap along it (negative when they overlap). Solved by
/// sequential impulses (Box2D 2.x; `prepare` here, the iterations in `ContactSolver`): a normal impulse that never pulls, a friction impulse
/// within μ times it, restitution from the approach speed, and a speculative margin so that a
/// fast item stops at a boundary instead of passing through it between two steps.
struct Contact: Sendable {
    /// The same contact from step to step (its impulses warm-start the next step's).
    struct Key: Hashable, Sendable {
        /// The items by id; `a` is nil against a boundary, which `boundary` numbers.
        var a: DynamicItemID?
        var b: DynamicItemID
        /// -1 between two items; against a boundary, its number << 16 | the side (segment) of
        /// it: number 0 is the reference bounds (sides 0…3), k + 1 the k-th named boundary.
        var boundary: Int
        var feature: Int

        init(a: DynamicItemID?, b: DynamicItemID, boundary: Int, feature: Int) {
            self.a = a; self.b = b; self.boundary = boundary; self.feature = feature
        }

        init(b: DynamicItemID, boundary number: Int, side: Int, feature: Int) {
            self.init(a: nil, b: b, boundary: number << 16 | side, feature: feature)
        }

        /// Which boundary (0 the reference bounds, k + 1 the k-th named one); -1 for items.
        var boundaryNumber: Int { boundary < 0 ? -1 : boundary >> 16 }
    }

    var key: Key
    var a: Int?
    var b: Int
    var point: Point
    var normal: Vector
    var separation: Double
    var friction: Double
    var restitution: Double
    /// For a corner of b's box: its offset from b's centre and where that centre was when the
    /// contact was found. While b is still there, the offset is used as it is rather than
    /// worked out again from the point: (c + o) − c and (c − o) − c round differently, and a
    /// box sliding flat along a floor turned by 1e-15 rad as its two corners' levers differed.
    var cornerOfB: (offset: Vector, center: Point)?

    // Solver state.
    var rA = Vector.zero, rB = Vector.zero
    var normalMass = 0.0, tangentMass = 0.0
    var normalImpulse = 0.0, tangentImpulse = 0.0
    /// The approach speed along the normal before the solver (for the bounce).
    var approach = 0.0
    /// The bodies' inverse masses and inertias and the normal speed to reach, read once in
    /// `prepare` (the iterations would otherwise work them out from the items' properties).
    var inverseMassA = 0.0, inverseInertiaA = 0.0, inverseMassB = 0.0, inverseInertiaB = 0.0
    var bias = 0.0
    /// An item about to strike a boundary within this step fast enough to bounce, and not
    /// turning: where along the normal its centre ends and how fast, from the exact time of
    /// impact (`Impact`); nil for every other contact.
    var impact: Impact?

    init(key: Key, a: Int?, b: Int, point: Point, normal: Vector, separation: Double, friction: Double, restitution: Double) {
        self.key = key; self.a = a; self.b = b; self.point = point; self.normal = normal; self.separation = separation
        self.friction = friction; self.restitution = restitution
    }

    /// Where the bodies meet, for the collision events: on the boundary (a box's corner moved
    /// onto it; a segment's end is on it already), or between two items midway from the
    /// reference face to the incident point (features 0…7 have their reference face on `a`).
    var surfacePoint: Point {
        if a == nil { return key.feature >= 4 ? point : point - normal * separation }
        return point + normal * (key.feature < 8 ? -separation / 2 : separation / 2)
    }

    /// Box2D's: below this approach speed (1 m/s at 100 pt per metre) a contact does not bounce.
    static let restitutionThreshold = 100.0
    /// Overlap left alone (Box2D's linear slop) and the share of the rest corrected per step.
    static let slop = 0.5
    static let baumgarte = 0.2
    /// The fastest an overlap is pushed apart (Box2D v3's contact push-out speed, 3 m/s at 100 pt
    /// per metre): items spawned deep inside each other separate over a few steps instead of
    /// flying apart. Only overlaps deeper than 25 pt reach it, which no resting contact has.
    static let maximumPushOut = 300.0

    func relativeVelocity(_ bodies: [DynamicBody]) -> Vector {
        var v = bodies[b].velocity + cross(bodies[b].angularVelocity, rB)
        if let a { v -= bodies[a].velocity + cross(bodies[a].angularVelocity, rA) }
        return v
    }

    private func effectiveMass(along axis: Vector) -> Double {
        let inverse = inverseMassB + inverseInertiaB * rB.cross(axis) * rB.cross(axis)
            + inverseMassA + inverseInertiaA * rA.cross(axis) * rA.cross(axis)
        return inverse > 0 ? 1 / inverse : 0
    }

    mutating func prepare(_ bodies: [DynamicBody], motion: [FreeMotion], step h: Double, impacts: Bool) {
        if let corner = cornerOfB, corner.center == bodies[b].center {
            rB = corner.offset
        } else {
            rB = point.vector(from: bodies[b].center)
        }
        inverseMassB = bodies[b].inverseMass
        inverseInertiaB = bodies[b].inverseInertia
        if let a {
            rA = point.vector(from: bodies[a].center)
            inverseMassA = bodies[a].inverseMass
            inverseInertiaA = bodies[a].inverseInertia
        }
        normalMass = effectiveMass(along: normal)
        tangentMass = effectiveMass(along: normal.perpendicular)
        approach = relativeVelocity(bodies).dot(normal)
        impact = nil
        switch impacts ? Impact.outcome(self, body: bodies[b], motion: motion[b], step: h) : .stepped {
        case .strikes(let strike):
            impact = strike
            bias = strike.speed
        case .noBounce:
            bias = targetSpeed(step: h, bounces: false)
        case .stepped:
            bias = targetSpeed(step: h)
        }
    }

    /// The normal speed to reach: close a gap no faster than it closes in one step, push an
    /// overlap out, or, touching and approached fast enough, bounce (Box2D 2.x's velocity bias;
    /// a speculative contact still apart does not bounce).
    func targetSpeed(step h: Double, bounces: Bool = true) -> Double {
        var target = separation > 0 ? -separation / h : min(Self.baumgarte * max(-separation - Self.slop, 0) / h, Self.maximumPushOut)
        if bounces, approach < -Self.restitutionThreshold, separation < Self.slop * 4 {
            target = max(target, -restitution * approach)
        }
        return target
    }

    // Warm start and the velocity iterations: `ContactSolver`, on flat arrays of these numbers.
}
