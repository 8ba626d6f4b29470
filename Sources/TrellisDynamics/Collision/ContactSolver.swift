import TrellisGeometry

/// The contacts of one (sub-)step as the velocity iterations read them: the bodies' velocities
/// copied once into a small flat array, each contact's solver numbers in another, the pairs'
/// block matrices worked out once. Going through `[DynamicBody]` (a large struct, each access
/// bounds- and uniqueness-checked) on every impulse was most of a pile's step.
///
/// Bit for bit what the per-`Contact` solver did (Box2D 2.x's sequential impulses): the same
/// arithmetic in the same order, contact after contact in the same order; only where the
/// numbers are kept changed. The animator keeps one across steps so its arrays keep their
/// capacity (no allocation in a settled step).
struct ContactSolver: Sendable {
    /// A body's velocity, as the iterations change it.
    struct Body: Sendable {
        var vx: Double, vy: Double, w: Double
    }

    /// One contact's solver numbers (`Contact`'s, from its `prepare`); `a` is -1 against a boundary.
    struct Row: Sendable {
        var a: Int, b: Int
        var nx: Double, ny: Double
        var rAx: Double, rAy: Double, rBx: Double, rBy: Double
        var imA: Double, iiA: Double, imB: Double, iiB: Double
        var normalMass: Double, tangentMass: Double
        var friction: Double, bias: Double
        var normalImpulse: Double, tangentImpulse: Double
    }

    /// A contact alone (`pair` false), or it and the next solved as a block (`ContactPair`),
    /// with the block's matrix when it is well-conditioned (`blockable`).
    struct Group: Sendable {
        var first: Int
        var pair: Bool
        var blockable: Bool
        var k11 = 0.0, k12 = 0.0, k22 = 0.0, inverse = 0.0
    }

    var bodies: [Body] = []
    var rows: [Row] = []
    var groups: [Group] = []

    init() {}

    /// Takes the prepared contacts (`Contact.prepare`) and the bodies' velocities in.
    mutating func load(_ contacts: [Contact], groups contactGroups: [ContactGroup], bodies all: [DynamicBody]) {
        bodies.removeAll(keepingCapacity: true)
        bodies.reserveCapacity(all.count)
        for body in all { bodies.append(Body(vx: body.velocity.dx, vy: body.velocity.dy, w: body.angularVelocity)) }
        rows.removeAll(keepingCapacity: true)
        rows.reserveCapacity(contacts.count)
        for c in contacts {
            rows.append(Row(a: c.a ?? -1, b: c.b, nx: c.normal.dx, ny: c.normal.dy,
                            rAx: c.rA.dx, rAy: c.rA.dy, rBx: c.rB.dx, rBy: c.rB.dy,
                            imA: c.inverseMassA, iiA: c.inverseInertiaA, imB: c.inverseMassB, iiB: c.inverseInertiaB,
                            normalMass: c.normalMass, tangentMass: c.tangentMass, friction: c.friction, bias: c.bias,
                            normalImpulse: c.normalImpulse, tangentImpulse: c.tangentImpulse))
        }
        groups.removeAll(keepingCapacity: true)
        groups.reserveCapacity(contactGroups.count)
        for group in contactGroups {
            switch group {
            case .single(let k): groups.append(Group(first: k, pair: false, blockable: false))
            case .pair(let k): groups.append(ContactPair.group(rows[k], rows[k + 1], first: k))
            }
        }
    }

    /// The velocities back into the bodies (only they change; the rest of each body is as it was).
    func storeVelocities(_ all: inout [DynamicBody]) {
        bodies.withUnsafeBufferPointer { bodies in
            for k in all.indices {
                all[k].velocity = Vector(dx: bodies[k].vx, dy: bodies[k].vy)
                all[k].angularVelocity = bodies[k].w
            }
        }
    }

    /// The velocities from the bodies again (after the joints changed them).
    mutating func loadVelocities(_ all: [DynamicBody]) {
        bodies.withUnsafeMutableBufferPointer { bodies in
            for k in all.indices {
                bodies[k] = Body(vx: all[k].velocity.dx, vy: all[k].velocity.dy, w: all[k].angularVelocity)
            }
        }
    }

    /// The accumulated impulses back into the contacts (the next sub-step's and step's warm start).
    func storeImpulses(_ contacts: inout [Contact]) {
        rows.withUnsafeBufferPointer { rows in
            for k in contacts.indices {
                contacts[k].normalImpulse = rows[k].normalImpulse
                contacts[k].tangentImpulse = rows[k].tangentImpulse
            }
        }
    }

    /// Applies last step's impulses again (warm starting: a resting stack starts from the
    /// impulses that held it, instead of from nothing each step).
    mutating func warmStart() {
        withBuffers { rows, bodies in
            for k in 0..<rows.count {
                let c = rows.baseAddress! + k
                // normal · λn + normal⊥ · λt, summed as the per-contact warm start summed them.
                let nx = c.pointee.nx, ny = c.pointee.ny
                let px = nx * c.pointee.normalImpulse + -ny * c.pointee.tangentImpulse
                let py = ny * c.pointee.normalImpulse + nx * c.pointee.tangentImpulse
                Self.withBodies(c, bodies) { a, b in Self.apply(c, px, py, &a, &b) }
            }
        }
    }

    /// One velocity iteration over the contacts, alone or in pairs as `groups` says.
    mutating func solveVelocities() {
        let groups = groups
        withBuffers { rows, bodies in
            groups.withUnsafeBufferPointer { groups in
                for group in groups {
                    let k = group.first
                    if !group.pair {
                        Self.solveVelocity(rows.baseAddress! + k, bodies)
                    } else if !(group.blockable && ContactPair.solve(group, rows.baseAddress! + k, bodies)) {
                        Self.solveVelocity(rows.baseAddress! + k, bodies)
                        Self.solveVelocity(rows.baseAddress! + k + 1, bodies)
                    }
                }
            }
        }
    }

    @inline(__always)
    private mutating func withBuffers(_ body: (UnsafeMutableBufferPointer<Row>, UnsafeMutablePointer<Body>) -> Void) {
        let count = bodies.count
        bodies.withUnsafeMutableBufferPointer { bodies in
            rows.withUnsafeMutableBufferPointer { rows in
                guard count > 0, let base = bodies.baseAddress else { return }
                body(rows, base)
            }
        }
    }

    // MARK: One contact (`Contact`'s solver, on the flat arrays)
    //
    // A contact's two bodies are read into registers once, solved (friction, then the normal;
    // or a pair's two frictions and block), and written back once: a and b are never the same
    // body, so this is the arithmetic the one-impulse-at-a-time version did, without each
    // impulse's store and reload in the chain of dependent operations.

    /// vB + ωB × rB − (vA + ωA × rA), as `Contact.relativeVelocity` adds it up (nothing of a
    /// boundary's).
    @inline(__always)
    static func relativeVelocity(_ c: UnsafeMutablePointer<Row>, _ a: Body, _ b: Body) -> (x: Double, y: Double) {
        var x = b.vx + -b.w * c.pointee.rBy
        var y = b.vy + b.w * c.pointee.rBx
        if c.pointee.a >= 0 {
            x -= a.vx + -a.w * c.pointee.rAy
            y -= a.vy + a.w * c.pointee.rAx
        }
        return (x, y)
    }

    /// The impulse (px, py) on b, and its opposite on a.
    @inline(__always)
    static func apply(_ c: UnsafeMutablePointer<Row>, _ px: Double, _ py: Double, _ a: inout Body, _ b: inout Body) {
        b.vx += px * c.pointee.imB
        b.vy += py * c.pointee.imB
        b.w += c.pointee.iiB * (c.pointee.rBx * py - c.pointee.rBy * px)
        if c.pointee.a >= 0 {
            a.vx -= px * c.pointee.imA
            a.vy -= py * c.pointee.imA
            a.w -= c.pointee.iiA * (c.pointee.rAx * py - c.pointee.rAy * px)
        }
    }

    /// Hands `body` the contact's two bodies (a zero body for a boundary, never written back),
    /// and writes them back after.
    @inline(__always)
    static func withBodies<R>(_ c: UnsafeMutablePointer<Row>, _ bodies: UnsafeMutablePointer<Body>,
                              _ body: (inout Body, inout Body) -> R) -> R {
        let ia = c.pointee.a, ib = c.pointee.b
        var b = bodies[ib]
        var a = ia >= 0 ? bodies[ia] : Body(vx: 0, vy: 0, w: 0)
        let result = body(&a, &b)
        bodies[ib] = b
        if ia >= 0 { bodies[ia] = a }
        return result
    }

    /// Friction, within μ times the normal impulse so far.
    @inline(__always)
    static func solveFriction(_ c: UnsafeMutablePointer<Row>, _ a: inout Body, _ b: inout Body) {
        let tx = -c.pointee.ny, ty = c.pointee.nx
        let v = relativeVelocity(c, a, b)
        let vt = v.x * tx + v.y * ty
        let old = c.pointee.tangentImpulse
        let limit = c.pointee.friction * c.pointee.normalImpulse
        let newTangent = min(max(old - c.pointee.tangentMass * vt, -limit), limit)
        let lambda = newTangent - old
        apply(c, tx * lambda, ty * lambda, &a, &b)
        c.pointee.tangentImpulse = newTangent
    }

    /// Friction first, then the normal impulse that never pulls (Box2D's order).
    @inline(__always)
    static func solveVelocity(_ c: UnsafeMutablePointer<Row>, _ bodies: UnsafeMutablePointer<Body>) {
        withBodies(c, bodies) { a, b in
            solveFriction(c, &a, &b)
            let v = relativeVelocity(c, a, b)
            let nx = c.pointee.nx, ny = c.pointee.ny
            let vn = v.x * nx + v.y * ny
            let old = c.pointee.normalImpulse
            let newNormal = max(old - c.pointee.normalMass * (vn - c.pointee.bias), 0)
            let lambda = newNormal - old
            apply(c, nx * lambda, ny * lambda, &a, &b)
            c.pointee.normalImpulse = newNormal
        }
    }
}
