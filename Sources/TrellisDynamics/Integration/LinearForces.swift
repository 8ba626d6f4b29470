import TrellisGeometry

/// What acts on one body over a step in forms whose motion has a closed form, gathered from the
/// behaviours: forces constant over the step (gravity, a continuous push, a uniform field), zero-
/// length springs from its centre to fixed points (a snap, a springy anchor, a spring field),
/// linear resistance (a uniform drag field), at most one spring of non-zero length from its
/// centre to a fixed point, and the same for turning. A body that nothing else acts on moves
/// exactly (`FreeMotion`); forces that depend on where it is or how it moves in other ways go to
/// `DynamicBody.force` and make its step a stepped one.
struct LinearForces: Sendable {
    /// Mass × pt/s² and mass × pt²/s², constant over the step.
    var steadyForce = Vector.zero
    var steadyTorque = 0.0
    /// The zero-length springs, per unit mass: the sum of their ω² (s⁻²), of ω² × their fixed
    /// points, and of their damping 2ζω plus drag (s⁻¹), acting along any direction.
    var stiffness = 0.0
    var anchorMoment = Vector.zero
    var damping = 0.0
    /// One spring of non-zero length to a fixed point.
    var ranged: RangedSpring?
    /// Torsion springs per unit inertia: Σω², Σω² × their angles, Σ2ζω.
    var angleStiffness = 0.0
    var angleMoment = 0.0
    var angleDamping = 0.0
    /// The springs between items (and off-centre ones), mass × pt/s² and a torque: stepped, as
    /// leapfrog (`SteppedKick`), not in closed form.
    var springForce = Vector.zero
    var springTorque = 0.0

    /// A spring of rest length `length` from a body's centre to the fixed point `anchor`,
    /// per unit mass: stiffness ω², damping 2ζω along its axis only (as Box2D damps a distance
    /// joint's spring).
    struct RangedSpring: Sendable {
        var anchor: Point
        var length: Double
        var stiffness: Double
        var damping: Double
    }

    /// Nothing gathered (the common case: one comparison rather than the fields one by one).
    var isEmpty: Bool {
        steadyForce == .zero && steadyTorque == 0 && stiffness == 0 && damping == 0 && ranged == nil
            && angleStiffness == 0 && angleDamping == 0 && springForce == .zero && springTorque == 0
    }

    /// Some spring between items acts on the body this (sub-)step.
    var hasSprings: Bool { springForce != .zero || springTorque != 0 }

    /// Every number finite, and its closed form over a step of `h` seconds too: a negative
    /// damping or stiffness grows as e^(−C·h) or e^(√−K·h), past a Double from 709 (a behaviour
    /// that gives such is stopped, as one whose force overflows is).
    func isFinite(step h: Double) -> Bool {
        let limit = 700.0
        guard -damping * h < limit, -angleDamping * h < limit, (-stiffness).squareRoot() * h < limit || stiffness >= 0,
              (-angleStiffness).squareRoot() * h < limit || angleStiffness >= 0 else { return false }
        if let ranged, -ranged.damping * h >= limit || (ranged.stiffness < 0 && (-ranged.stiffness).squareRoot() * h >= limit) {
            return false
        }
        return isFinite
    }

    /// Every number finite.
    var isFinite: Bool {
        var all = steadyForce.dx.isFinite && steadyForce.dy.isFinite && steadyTorque.isFinite && stiffness.isFinite
            && anchorMoment.dx.isFinite && anchorMoment.dy.isFinite && damping.isFinite
            && angleStiffness.isFinite && angleMoment.isFinite && angleDamping.isFinite
            && springForce.dx.isFinite && springForce.dy.isFinite && springTorque.isFinite
        if let ranged {
            all = all && ranged.stiffness.isFinite && ranged.damping.isFinite && ranged.length.isFinite
        }
        return all
    }

    /// The force and torque all of it puts on `body` where it is now, for a body stepped rather
    /// than moved exactly; without the isotropic `damping` and `angleDamping`, which a stepped
    /// body takes as an exact decay (stable for any drag, as a force −c·v is not past c·h = 2).
    func force(on body: DynamicBody) -> (force: Vector, torque: Double) {
        let m = body.mass, p = body.center
        var f = steadyForce
        if stiffness != 0 {
            f += (anchorMoment - Vector(dx: p.x, dy: p.y) * stiffness) * m
        }
        if let ranged {
            let delta = p.vector(from: ranged.anchor), distance = delta.length
            if distance > 0 {
                let u = delta / distance
                f -= u * (m * (ranged.stiffness * (distance - ranged.length) + ranged.damping * body.velocity.dot(u)))
            }
        }
        var torque = steadyTorque
        if body.inverseInertia > 0, angleStiffness != 0 {
            torque += (angleMoment - body.angle * angleStiffness) / body.inverseInertia
        }
        return (f, torque)
    }
}

extension LinearForces {
    /// A damped spring from `body`'s centre to the fixed point `anchor`, at rest at `length`
    /// points, its stiffness (s⁻²) and damping (s⁻¹) per unit mass (k = m·ω², c = 2·m·ζ·ω, as
    /// Box2D sets a spring from its frequency). A second spring of non-zero length on the same
    /// body has no closed form with the first: it becomes a force on `body`.
    mutating func addAnchoredSpring(on body: inout DynamicBody, anchor: Point, length: Double, stiffness: Double, damping: Double) {
        guard body.inverseMass > 0 else { return }
        if length == 0 {
            self.stiffness += stiffness
            anchorMoment += Vector(dx: anchor.x, dy: anchor.y) * stiffness
            self.damping += damping
        } else if ranged == nil {
            ranged = RangedSpring(anchor: anchor, length: length, stiffness: stiffness, damping: damping)
        } else {
            let spring = LinearForces(ranged: RangedSpring(anchor: anchor, length: length, stiffness: stiffness, damping: damping))
            body.force += spring.force(on: body).force
        }
    }

    /// A damped torsion spring turning `body` to `angle`, per unit inertia.
    mutating func addAngleSpring(on body: DynamicBody, angle: Double, stiffness: Double, damping: Double) {
        guard body.inverseInertia > 0 else { return }
        angleStiffness += stiffness
        angleMoment += stiffness * angle
        angleDamping += damping
    }
}

extension DynamicBodies {
    /// A force constant over the step (mass × pt/s²), and a torque, on the body at `index`.
    @inline(__always)
    public mutating func addSteadyForce(_ force: Vector, torque: Double = 0, at index: Int) {
        linear[index].steadyForce += force
        linear[index].steadyTorque += torque
    }

    /// A damped spring of `frequency` Hz and damping ratio `damping` from the centre of the body
    /// at `index` to the fixed point `anchor`, at rest at `length` points (`LinearForces`).
    public mutating func addAnchoredSpring(at index: Int, anchor: Point, length: Double, frequency: Double, damping: Double) {
        let w = 2 * Double.pi * frequency
        addAnchoredSpring(at: index, anchor: anchor, length: length, stiffness: w * w, damping: 2 * damping * w)
    }

    /// The same with the stiffness (s⁻²) and damping (s⁻¹) per unit mass given.
    public mutating func addAnchoredSpring(at index: Int, anchor: Point, length: Double, stiffness: Double, damping: Double) {
        linear[index].addAnchoredSpring(on: &storage[index], anchor: anchor, length: length, stiffness: stiffness, damping: damping)
    }

    /// Linear resistance of `rate` per second on the body at `index` (v·e^(−rate·t)).
    public mutating func addDrag(_ rate: Double, at index: Int) {
        linear[index].damping += rate
    }
}
