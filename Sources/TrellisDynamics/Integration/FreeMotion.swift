#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisGeometry

/// One body's motion over a (sub-)step before contacts and joints act, and how it then moves with
/// what they did.
///
/// A body on which only `LinearForces` act moves **exactly**: its closed form (`OscillatorStep`),
/// per axis, gives where it ends and how fast. A free fall lands on ½·g·t², a push on ½·a·t²,
/// resistance on v·e^(−r·t), a spring to a fixed point on the damped oscillator's curve, at any
/// step. A body that some other force acts on (an item–item spring, a field whose force depends on
/// where the item is) is **stepped** as Box2D steps it, symplectic Euler: v += h·F/m, then
/// x += h·v, resistance as v·e^(−r·h); springs between items as leapfrog, their stepping velocity
/// half a kick behind the body's (`SteppedKick`), so that they keep their phase as well as their
/// period and decay.
///
/// Contacts and joints then change the velocity by impulses (Δ). Moved by h·Δ on top of the free
/// motion, a body resting on a floor would still fall by the ½·g·h² the exact step adds over a
/// stepped one: the impulse that stops it cancels the step's kick (v₁ − v₀) as a force would, over
/// the whole step. So along Δ's direction, the share of the kick that Δ cancels also cancels that
/// share of the exact step's difference from a stepped one (`shortfall`): at rest on a floor the
/// body stays where it is, in flight it moves exactly, sliding along a slope or a slide's axis it
/// moves exactly along it, and an impact moves it as the stepped solver would (onto the surface a
/// speculative contact allows).
struct FreeMotion: Sendable {
    var center: Point
    var velocity: Vector
    /// A stepped move's displacement (h·v₁) minus this one's.
    var shortfall: Vector
    /// v₁ − v₀.
    var kick: Vector
    var angle: Double
    var angularVelocity: Double
    var angleShortfall: Double
    var angularKick: Double

    /// The last coefficients worked out, reused while stiffness, damping and step repeat (a
    /// springy layout's items share them, and most items have none).
    struct Memo {
        var stiffness = 0.0, damping = 0.0, step = 0.0
        var value = OscillatorStep(stiffness: 0, damping: 0, step: 0)

        mutating func coefficients(stiffness K: Double, damping C: Double, step h: Double) -> OscillatorStep {
            if K != stiffness || C != damping || h != step {
                stiffness = K; damping = C; step = h
                value = OscillatorStep(stiffness: K, damping: C, step: h)
            }
            return value
        }
    }

    /// Moves `body`'s velocities to their free values at the end of the step (what the solver
    /// starts from) and returns the free motion; the pose is set later by `place`.
    /// `kick`: the body's stepping velocity's offset (`SteppedKick`), updated for this step; when
    /// it is one of a step of this length, the body's velocity is the stepping one already
    /// (`SteppedKick.takeStepping`).
    static func advance(_ body: inout DynamicBody, _ forces: LinearForces, _ kick: inout SteppedKick, step h: Double,
                        memo: inout Memo, angularMemo: inout Memo) -> FreeMotion {
        let x0 = body.center, a0 = body.angle
        var v0 = body.velocity, w0 = body.angularVelocity
        let carried = kick.step == h
        if forces.hasSprings {
            // Leapfrog: the stepping velocity, half a kick behind the velocity, carries on from
            // the last step of this length, else starts half this step's kick behind.
            let spring = forces.springForce * body.inverseMass, turn = forces.springTorque * body.inverseInertia
            if !carried {
                v0 -= spring * (h / 2)
                w0 -= turn * (h / 2)
            }
            kick = SteppedKick(velocity: spring * (h / 2), angular: turn * (h / 2), step: h)
        } else if kick.step != 0 {
            // No spring any more: the velocity, half a kick ahead of the stepping one.
            if carried {
                v0 += kick.velocity
                w0 += kick.angular
            }
            kick = .none
        }
        var x = x0, v = v0, angle = a0, w = w0
        if body.force != .zero || body.torque != 0 || forces.hasSprings {
            // Stepped: everything as a force at the start of the step, linear damping as its decay.
            let (f, t) = forces.force(on: body)
            v = (v0 + (body.force + f + forces.springForce) * (body.inverseMass * h)) * decay(body.properties.resistance + forces.damping, h)
            w = (w0 + (body.torque + t + forces.springTorque) * (body.inverseInertia * h))
                * decay(body.properties.angularResistance + forces.angleDamping, h)
            if body.inverseMass == 0 { v = .zero }
            if body.inverseInertia == 0 { w = 0 }
            body.force = .zero
            body.torque = 0
            body.velocity = v
            body.angularVelocity = w
            return FreeMotion(center: x0 + v * h, velocity: v, shortfall: .zero, kick: v - v0,
                              angle: a0 + w * h, angularVelocity: w, angleShortfall: 0, angularKick: w - w0)
        }
        if body.inverseMass == 0 {
            v = .zero
        } else {
            // Displacements ξ from x₀ (no rounding of large coordinates into small moves):
            // ξ'' = −K·ξ − C·ξ' + (A − K·x₀).
            let steady = forces.steadyForce * body.inverseMass
            let spring = forces.anchorMoment - Vector(dx: x0.x, dy: x0.y) * forces.stiffness
            let drag = forces.damping + body.properties.resistance
            if let ranged = forces.ranged, case let offset = x0.vector(from: ranged.anchor), offset.length >= DistanceJoint.slop {
                // Along the spring it is a line spring to its rest point; across it, the spring's
                // pull linearised where the body is (stiffness k·(1 − L/d)), undamped.
                let d = offset.length, u = offset / d, n = u.perpendicular
                let rest = Point(x: ranged.anchor.x + u.dx * ranged.length, y: ranged.anchor.y + u.dy * ranged.length)
                let across = ranged.stiffness * max(0, 1 - ranged.length / d)
                let toRest = rest.vector(from: x0)
                let along = memo.coefficients(stiffness: forces.stiffness + ranged.stiffness, damping: drag + ranged.damping, step: h)
                let aside = OscillatorStep(stiffness: forces.stiffness + across, damping: drag, step: h)
                let s1 = along.advance(0, v0.dot(u), (steady + spring).dot(u) + ranged.stiffness * toRest.dot(u))
                let s2 = aside.advance(0, v0.dot(n), (steady + spring).dot(n) + across * toRest.dot(n))
                x = x0 + u * s1.x + n * s2.x
                v = u * s1.v + n * s2.v
            } else {
                var stiffness = forces.stiffness, moment = spring, damping = drag
                if let ranged = forces.ranged {
                    // At its anchor a ranged spring has no direction: it pulls as a zero-length one.
                    stiffness += ranged.stiffness
                    moment += ranged.anchor.vector(from: x0) * ranged.stiffness
                    damping += ranged.damping
                }
                let step = memo.coefficients(stiffness: stiffness, damping: damping, step: h)
                let acceleration = steady + moment
                let sx = step.advance(0, v0.dx, acceleration.dx), sy = step.advance(0, v0.dy, acceleration.dy)
                x = Point(x: x0.x + sx.x, y: x0.y + sy.x)
                v = Vector(dx: sx.v, dy: sy.v)
            }
        }
        if body.inverseInertia == 0 {
            w = 0
        } else {
            let step = angularMemo.coefficients(stiffness: forces.angleStiffness,
                                                damping: forces.angleDamping + body.properties.angularResistance, step: h)
            let turn = step.advance(0, w0, forces.steadyTorque * body.inverseInertia + forces.angleMoment - forces.angleStiffness * a0)
            angle = a0 + turn.x
            w = turn.v
        }
        body.velocity = v
        body.angularVelocity = w
        return FreeMotion(center: x, velocity: v, shortfall: v * h - x.vector(from: x0), kick: v - v0,
                          angle: angle, angularVelocity: w, angleShortfall: w * h - (angle - a0), angularKick: w - w0)
    }

    /// e^(−r·h), 1 without resistance.
    @inline(__always)
    static func decay(_ rate: Double, _ h: Double) -> Double { rate == 0 ? 1 : exp(-rate * h) }

    /// Where the body ends, its velocities now being what contacts and joints left: the free
    /// motion, h × their change, and the share of the shortfall whose kick they cancelled.
    @inline(__always)
    func place(_ body: inout DynamicBody, step h: Double) {
        let change = body.velocity - velocity
        var center = self.center + change * h
        if change != .zero, shortfall != .zero {
            // Along the change's direction u: the share of the kick's component there that the
            // change cancels takes that share of the shortfall's component there. Across u the
            // motion stays exact (an item sliding down a slope or a slide's axis: along it).
            let size = change.length, u = change / size, against = -kick.dot(u)
            if against > 0 { center += u * (shortfall.dot(u) * min(1, size / against)) }
        }
        let turn = body.angularVelocity - angularVelocity
        var angle = self.angle + turn * h
        if turn != 0, angleShortfall != 0, angularKick != 0 {
            angle += angleShortfall * min(1, max(0, -turn / angularKick))
        }
        body.center = center
        body.angle = angle
    }
}
