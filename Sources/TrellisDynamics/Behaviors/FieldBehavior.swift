#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisGeometry

/// UIFieldBehavior: a field that pushes its items by where they are, how they move, their mass
/// and their charge, inside its region around `position`. UIKit publishes the kinds but not
/// their laws or units; these are the ones used here (SpriteKit's where it says, 100 pt per
/// metre as elsewhere in the engine). Let r be the item's centre minus `position`, d = |r|,
/// s = `strength`, m its mass, q its charge, v its velocity (pt/s), g = 1000 pt/s² (one "UIKit
/// gravity", as UIGravityBehavior), and the falloff factor f = (max(d, minimumRadius) / 100 pt)^−falloff
/// (so strength is the field's value 100 pt away; 1 when falloff is 0). Forces are in UIKit
/// Newtons (mass × pt/s²):
/// - linear gravity: m·s·g·f·direction, the same acceleration for any mass;
/// - radial gravity: m·s·g·f towards the position (away for s < 0): with falloff 2, an
///   inverse-square pull of s·g at 100 pt;
/// - velocity: the item's velocity becomes s·f·direction pt/s, whatever forces, pushes,
///   resistance and other fields say (applied after them all); attachments, rods and contacts
///   still act, as Box2D's joints act after its forces;
/// - drag: the force −s·f·v, so v·e^(−s·f·t/m) (SpriteKit's drag is a force);
/// - noise: m·s·g·f·N, N a vector of two seeded gradient noises (each in [−1, 1]) of
///   (x/λ, y/λ, animationSpeed·t), λ = 10 pt·100^smoothness (10 pt at smoothness 0, 1000 pt at 1)
///   and t the field's time; mass does not change the acceleration;
/// - turbulence: as noise with s·g replaced by s·|v| per second (s·g at 1000 pt/s);
/// - spring: −4π²·s·f·r, mass-independent stiffness, so an item oscillates with period
///   √(m/s) seconds (a 100×100 item of density 1 once a second at strength 1);
/// - electric: q·E with E = s·g·f towards the position: a charge of 1 and mass 1 falls at s·g at
///   100 pt (inverse square by default, as SpriteKit's);
/// - magnetic: q·v×B with B = 2π·s·f along +z, which, y pointing down on screen, turns positive
///   q·s anticlockwise as seen on screen: circles of radius m·|v|/(2π·q·s·f) pt, one turn per
///   m/(q·s·f) seconds; the turn is applied exactly (a rotation of v), so speed is kept;
/// - vortex: m·s·(g/100 pt)·f·d along the anticlockwise tangent (−90° on screen), 1 g at 100 pt.
///
/// Anticlockwise means as seen on the screen (y down): the angle `atan2(dy, dx)` of r decreases,
/// r × v < 0. The minimum radius bounds only the falloff (whose 1/d² would be infinite at the
/// centre); the laws proportional to d (spring, vortex) keep the true distance so an item can
/// come to rest at the centre. Anchored and massless items are left alone. Without falloff,
/// linear gravity, the spring and drag have closed forms (`LinearForces`) and move an item
/// exactly; the other laws are stepped.
///
/// The field's time (noise, turbulence) is its own sum of the steps it has taken (`time`),
/// advanced in `didStep` and not a clock, so a run is the same bit for bit; it does not keep the
/// animator awake (didStep says nothing changed) and stands still while the animator is paused.
/// Sub-steps of a step see the step's starting time.
public struct FieldBehavior: DynamicBehavior {
    public var kind: FieldKind
    public var items: [DynamicItemID]
    /// The field's origin in reference coordinates.
    public var position: Point
    /// Where it acts, relative to `position`: no force on an item whose centre is outside.
    public var region: FieldRegion = .infinite
    /// 1 by default; negative reverses the field.
    public var strength = 1.0
    /// The exponent of the falloff beyond `minimumRadius` (0: uniform); the kind's default.
    public var falloff: Double
    /// Points; nearer distances count as this one in the falloff. 1 pt by default ("very small"
    /// in UIKit: less than a point means nothing on screen and keeps 1/d² finite); below 10⁻⁶ pt
    /// it counts as 10⁻⁶ pt.
    public var minimumRadius = FieldBehavior.defaultMinimumRadius
    /// Picks the noise and turbulence fields' pattern.
    public var seed: UInt64 = 0
    /// Seconds of field time: the steps taken since the field was added.
    public var time = 0.0

    /// Points per second squared for each unit of acceleration-like strength.
    public static let gravity = 1000.0
    /// The distance at which the falloff factor is 1.
    public static let referenceDistance = 100.0
    public static let defaultMinimumRadius = 1.0
    /// Mass × s⁻² per unit of spring strength: a mass of 1 then turns once a second.
    public static let springStiffness = 4 * Double.pi * Double.pi
    /// Radians per second per unit of q·strength/m in a magnetic field.
    public static let cyclotronFrequency = 2 * Double.pi

    public init(_ kind: FieldKind, items: [DynamicItemID] = [], position: Point = .zero) {
        self.kind = kind
        self.items = items
        self.position = position
        self.falloff = kind.defaultFalloff
    }

    /// UIFieldBehavior's addItem(_:): an item already there is not added twice.
    public mutating func addItem(_ id: DynamicItemID) {
        if !items.contains(id) { items.append(id) }
    }

    public mutating func removeItem(_ id: DynamicItemID) {
        items.removeAll { $0 == id }
    }

    /// The linear gravity or velocity field's direction; zero for the other kinds, where
    /// setting it does nothing.
    public var direction: Vector {
        get {
            switch kind {
            case .linearGravity(let direction), .velocity(let direction): return direction
            default: return .zero
            }
        }
        set {
            switch kind {
            case .linearGravity: kind = .linearGravity(direction: newValue)
            case .velocity: kind = .velocity(direction: newValue)
            default: break
            }
        }
    }

    /// The noise or turbulence field's smoothness, 0…1 (clamped when used); 0 for the others.
    public var smoothness: Double {
        get { noiseSettings?.smoothness ?? 0 }
        set { setNoise(smoothness: newValue, animationSpeed: animationSpeed) }
    }

    /// The noise or turbulence field's rate of change in Hz (lattice cells per second along
    /// time); 0 freezes it, and it is 0 for the other kinds.
    public var animationSpeed: Double {
        get { noiseSettings?.animationSpeed ?? 0 }
        set { setNoise(smoothness: smoothness, animationSpeed: newValue) }
    }

    private var noiseSettings: (smoothness: Double, animationSpeed: Double)? {
        switch kind {
        case .noise(let smoothness, let speed), .turbulence(let smoothness, let speed): return (smoothness, speed)
        default: return nil
        }
    }

    private mutating func setNoise(smoothness: Double, animationSpeed: Double) {
        switch kind {
        case .noise: kind = .noise(smoothness: smoothness, animationSpeed: animationSpeed)
        case .turbulence: kind = .turbulence(smoothness: smoothness, animationSpeed: animationSpeed)
        default: break
        }
    }

    /// The noise pattern's wavelength in points for a smoothness: 10 pt · 100^smoothness.
    public static func noiseWavelength(smoothness: Double) -> Double {
        10 * pow(100, min(1, max(0, smoothness)))
    }

    // MARK: Forces

    public var phases: StepPhases { [.forces, .afterStep] }

    public func applyForces(to bodies: inout DynamicBodies, step: Double) {
        if case .velocity = kind { return }
        guard strength != 0 else { return }
        let sampler = Sampler(self)
        let uniform = falloff == 0
        forEachItemInRegion(&bodies) { bodies, index, r in
            let body = bodies[index: index]
            // Without falloff three laws have closed forms (`LinearForces`): linear gravity is
            // constant, the spring field a zero-length spring to the position, drag a linear
            // resistance. The others depend on where the item is or how it moves: stepped.
            switch kind {
            case .linearGravity where uniform:
                bodies.addSteadyForce(sampler.force(on: body, offset: r, step: step), at: index)
            case .spring where uniform:
                bodies.addAnchoredSpring(at: index, anchor: position, length: 0,
                                         stiffness: FieldBehavior.springStiffness * strength / body.mass, damping: 0)
            case .drag where uniform:
                bodies.addDrag(strength / body.mass, at: index)
            default:
                bodies[index: index].force += sampler.force(on: body, offset: r, step: step)
            }
        }
    }

    /// Calls `act` with each movable item whose centre is in the region, and its offset from the field.
    private func forEachItemInRegion(_ bodies: inout DynamicBodies, _ act: (inout DynamicBodies, Int, Vector) -> Void) {
        for id in items {
            guard let index = bodies.index(of: id), bodies[index: index].inverseMass != 0 else { continue }
            let r = bodies[index: index].center.vector(from: position)
            guard region.isInfinite || region.contains(r) else { continue }
            act(&bodies, index, r)
        }
    }

    /// A velocity field replaces the forces gathered so far with the one that brings the
    /// velocity to its target over the (sub-)step, resistance included.
    public func overrideForces(on bodies: inout DynamicBodies, step: Double) {
        guard case .velocity = kind else { return }
        let sampler = Sampler(self)
        forEachItemInRegion(&bodies) { bodies, index, r in
            // Whatever else acts, closed forms included, gives way (a snap's turning stays).
            bodies[index: index].force = sampler.force(on: bodies[index: index], offset: r, step: step)
            let turning = bodies.linear[index]
            bodies.linear[index] = LinearForces(steadyTorque: turning.steadyTorque, angleStiffness: turning.angleStiffness,
                                                angleMoment: turning.angleMoment, angleDamping: turning.angleDamping)
        }
    }

    /// The force (UIKit Newtons) the field puts on `body` over a step of `step` seconds; zero
    /// outside the region. For a velocity field, the force that replaces all the others.
    public func force(on body: DynamicBody, step: Double) -> Vector {
        let r = body.center.vector(from: position)
        guard body.inverseMass != 0, region.contains(r) else { return .zero }
        return Sampler(self).force(on: body, offset: r, step: step)
    }

    /// The field's clock (noise and turbulence go on from where they were), in 60ths of a
    /// second as snapshots made when the step was always 1/60 s counted it.
    public var carryOver: [Double] { [time * 60] }
    public mutating func restore(carryOver: [Double]) {
        if let ticks = carryOver.first, ticks >= 0, ticks < 1e15 { time = ticks / 60 }
    }

    /// The field's time moves on by the step; that alone is no reason to stay awake.
    public mutating func didStep(seconds: Double) -> Bool {
        time += seconds
        return false
    }

    /// The settings of one evaluation, read once per call rather than once per item.
    private struct Sampler {
        let kind: FieldKind
        let strength: Double
        let falloff: Double
        let minimumRadius: Double
        let noiseX: GradientNoise
        let noiseY: GradientNoise
        let inverseWavelength: Double
        let noiseTime: Double

        init(_ field: FieldBehavior) {
            kind = field.kind
            strength = field.strength
            falloff = field.falloff
            minimumRadius = max(field.minimumRadius, 1e-6)
            noiseX = GradientNoise(seed: field.seed)
            noiseY = GradientNoise(seed: field.seed ^ 0xD1B5_4A32_D192_ED03)
            inverseWavelength = 1 / FieldBehavior.noiseWavelength(smoothness: field.smoothness)
            noiseTime = field.animationSpeed * field.time
        }

        /// (max(d, minimumRadius) / 100 pt)^−falloff.
        func falloffFactor(_ distance: Double) -> Double {
            falloff == 0 ? 1 : pow(max(distance, minimumRadius) / FieldBehavior.referenceDistance, -falloff)
        }

        /// Two noises, one per axis, each in [−1, 1].
        func noise(_ r: Vector) -> Vector {
            let x = r.dx * inverseWavelength, y = r.dy * inverseWavelength
            return Vector(dx: noiseX.value(x, y, noiseTime), dy: noiseY.value(x, y, noiseTime))
        }

        func force(on body: DynamicBody, offset r: Vector, step h: Double) -> Vector {
            let d = r.length
            let s = strength * falloffFactor(d)
            let m = body.mass, g = FieldBehavior.gravity
            switch kind {
            case .linearGravity(let direction):
                return direction * (m * s * g)
            case .radialGravity:
                return d > 0 ? r * (-m * s * g / d) : .zero
            case .velocity(let direction):
                let target = direction * s * FreeMotion.decay(-body.properties.resistance, h)
                return (target - body.velocity) * (m / h)
            case .drag:
                // A force against the velocity, as SpriteKit's dragField is: −s·v, so the item
                // slows at s/m, exactly over the step (v·e^(−s·h/m): stable for any strength).
                guard m > 0 else { return .zero }
                return body.velocity * (m * (exp(-s * h / m) - 1) / h)
            case .noise:
                return noise(r) * (m * s * g)
            case .turbulence:
                return noise(r) * (m * s * body.velocity.length)
            case .spring:
                return r * (-FieldBehavior.springStiffness * s)
            case .electric:
                return d > 0 ? r * (-body.properties.charge * s * g / d) : .zero
            case .magnetic:
                // Turn v by θ anticlockwise on screen (y down): v' = (c·vx + sn·vy, −sn·vx + c·vy).
                let theta = FieldBehavior.cyclotronFrequency * body.properties.charge * s * h / m
                guard theta != 0 else { return .zero }
                let c = cos(theta), sn = sin(theta), v = body.velocity
                let turned = Vector(dx: c * v.dx + sn * v.dy, dy: -sn * v.dx + c * v.dy)
                return (turned - v) * (m / h)
            case .vortex:
                return Vector(dx: r.dy, dy: -r.dx) * (m * s * g / FieldBehavior.referenceDistance)
            }
        }
    }
}
