#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisGeometry

/// The springs and constraints of one step, in flat arrays by kind, as the behaviours add
/// them: springs act as forces, rigid rods and the other joints are solved by sequential
/// impulses (Box2D 2.x).
public struct ConstraintSet: Sendable {
    var springs: [DistanceSpring] = []
    var angleSprings: [AngleSpring] = []
    var rods: [DistanceJoint] = []
    var ropes: [RopeJoint] = []
    var pins: [PinJoint] = []
    var welds: [FixedJoint] = []
    var slides: [SlidingJoint] = []
    var contacts: [Contact] = []
    /// How the contacts are solved, alone or in pairs (set once per step: `groupedContacts`).
    var contactGroups: [ContactGroup] = []
    /// The animator's reference bounds (for boundaries made of them).
    public internal(set) var referenceBounds: Rect
    /// Bounded work however the items crowd (`ContactLimits`): contact points past
    /// `contactLimit` are not added this step, and the broadphases share `candidateTests`.
    var contactLimit = Int.max
    var candidateTests = Int.max
    /// What the limits left out this step.
    var dropped = ContactsDropped()

    /// The animator's step, seconds (for the speculative margins).
    public internal(set) var step = DynamicAnimator.defaultStep

    public init(referenceBounds: Rect) { self.referenceBounds = referenceBounds }

    /// A distance between two anchors, body `a` (nil: `anchorA` is a fixed point in the
    /// world) and body `b`: a spring of `frequency` Hz, or a rigid rod at frequency 0.
    public mutating func addDistance(a: Int?, anchorA: Vector, b: Int, anchorB: Vector, length: Double,
                                     frequency: Double, dampingRatio: Double) {
        if frequency > 0 {
            springs.append(DistanceSpring(a: a, localA: anchorA, b: b, localB: anchorB, length: length,
                                          frequency: frequency, dampingRatio: dampingRatio))
        } else {
            rods.append(DistanceJoint(a: a, localA: anchorA, b: b, localB: anchorB, length: length))
        }
    }

    /// A rope of at most `length` points between `anchorA` on body `a` (nil: a fixed point)
    /// and `anchorB` on body `b`.
    public mutating func addRope(a: Int?, anchorA: Vector, b: Int, anchorB: Vector, length: Double) {
        ropes.append(RopeJoint(a: a, localA: anchorA, b: b, localB: anchorB, length: length))
    }

    /// A pin joining `anchorA` on body `a` (nil: a fixed point) and `anchorB` on body `b`, each
    /// in its body's own frame; `referenceAngle` is b's angle minus a's at which the relative
    /// angle is 0, `range` limits that angle (radians) and `frictionTorque` (mass·pt²/s²)
    /// resists turning.
    public mutating func addPin(a: Int?, anchorA: Vector, b: Int, anchorB: Vector, referenceAngle: Double,
                                range: FloatRange, frictionTorque: Double) {
        pins.append(PinJoint(a: a, localA: anchorA, b: b, localB: anchorB, referenceAngle: referenceAngle,
                             range: range, frictionTorque: frictionTorque))
    }

    /// A weld of body `b` to body `a` (nil: the world) at the point `anchorA`/`anchorB`,
    /// keeping b's angle minus a's at `referenceAngle`.
    public mutating func addFixed(a: Int?, anchorA: Vector, b: Int, anchorB: Vector, referenceAngle: Double) {
        welds.append(FixedJoint(a: a, localA: anchorA, b: b, localB: anchorB, referenceAngle: referenceAngle))
    }

    /// Body `b`'s point `anchorB` sliding along the unit `axis` (body a's own frame; for the
    /// world, reference coordinates) through `anchorA`, translation within `range` (points),
    /// b's angle minus a's kept at `referenceAngle`.
    public mutating func addSliding(a: Int?, anchorA: Vector, b: Int, anchorB: Vector, axis: Vector,
                                    referenceAngle: Double, range: FloatRange) {
        slides.append(SlidingJoint(a: a, localA: anchorA, b: b, localB: anchorB, localAxis: axis,
                                   referenceAngle: referenceAngle, range: range))
    }

    /// Pulls body `b`'s centre to `target` with a zero-length spring.
    public mutating func addPoint(b: Int, target: Point, frequency: Double, dampingRatio: Double) {
        springs.append(DistanceSpring(a: nil, localA: Vector(dx: target.x, dy: target.y), b: b, localB: .zero,
                                      length: 0, frequency: frequency, dampingRatio: dampingRatio))
    }

    /// Turns body `b` to `angle` with a torsion spring.
    public mutating func addAngle(b: Int, angle: Double, frequency: Double, dampingRatio: Double) {
        angleSprings.append(AngleSpring(b: b, target: angle, frequency: frequency, dampingRatio: dampingRatio))
    }

    /// The highest spring frequency (for sub-stepping stiff springs).
    var highestFrequency: Double {
        max(springs.lazy.map(\.frequency).max() ?? 0, angleSprings.lazy.map(\.frequency).max() ?? 0)
    }

    func applySprings(_ bodies: inout [DynamicBody], _ linear: inout [LinearForces], step h: Double) {
        DistanceSpring.applyForces(springs, to: &bodies, linear: &linear, step: h)
        for spring in angleSprings { spring.apply(bodies, &linear) }
    }

    /// Any rod, rope, pin, weld or slide for the impulse solver.
    var hasJoints: Bool { !rods.isEmpty || !ropes.isEmpty || !pins.isEmpty || !welds.isEmpty || !slides.isEmpty }

    /// Each joint's geometry and effective masses for one (sub-)step of `h` seconds, and its
    /// impulses so far applied again (warm starting; rods start cold).
    mutating func prepareJoints(_ bodies: inout [DynamicBody], step h: Double) {
        for k in rods.indices { rods[k].prepare(&bodies) }
        for k in ropes.indices { ropes[k].prepare(&bodies, step: h) }
        for k in pins.indices { pins[k].prepare(&bodies, step: h) }
        for k in welds.indices { welds[k].prepare(&bodies, step: h) }
        for k in slides.indices { slides[k].prepare(&bodies, step: h) }
    }

    /// Starts each rope, pin, weld and slide from the impulses of the joint in the same place
    /// last step (the same kind, position and bodies), rescaled to sub-steps of `h` seconds.
    /// Box2D warm-starts joints so: without it a chain of two welds holding a beam out sags
    /// and shakes at 18 pt/s, as 8 iterations never converge from zero.
    mutating func inheritJointImpulses(from last: JointImpulses, step h: Double) {
        for k in ropes.indices where k < last.ropes.count { ropes[k].inherit(last.ropes[k], step: h) }
        for k in pins.indices where k < last.pins.count { pins[k].inherit(last.pins[k], step: h) }
        for k in welds.indices where k < last.welds.count { welds[k].inherit(last.welds[k], step: h) }
        for k in slides.indices where k < last.slides.count { slides[k].inherit(last.slides[k], step: h) }
    }

    /// Every joint's impulses at the end of the step (for the next step's warm start).
    var jointImpulses: JointImpulses {
        var all = JointImpulses()
        all.ropes = ropes.map(\.impulses)
        all.pins = pins.map(\.impulses)
        all.welds = welds.map(\.impulses)
        all.slides = slides.map(\.impulses)
        return all
    }

    /// One velocity iteration over the joints, kind by kind in a fixed order.
    mutating func solveJointVelocities(_ bodies: inout [DynamicBody]) {
        for k in rods.indices { rods[k].solveVelocity(&bodies) }
        for k in ropes.indices { ropes[k].solveVelocity(&bodies) }
        for k in pins.indices { pins[k].solveVelocity(&bodies) }
        for k in welds.indices { welds[k].solveVelocity(&bodies) }
        for k in slides.indices { slides[k].solveVelocity(&bodies) }
    }

    /// One position iteration over the joints; true when every one is within its slops.
    func solveJointPositions(_ bodies: inout [DynamicBody]) -> Bool {
        var done = true
        for rod in rods { done = rod.solvePosition(&bodies) && done }
        for rope in ropes { done = rope.solvePosition(&bodies) && done }
        for pin in pins { done = pin.solvePosition(&bodies) && done }
        for weld in welds { done = weld.solvePosition(&bodies) && done }
        for slide in slides { done = slide.solvePosition(&bodies) && done }
        return done
    }
}

/// `R(angle)·v`: a body-local offset turned with the body.
@inline(__always) func rotated(_ v: Vector, by angle: Double) -> Vector {
    if angle == 0 { return v }
    let c = cos(angle), s = sin(angle)
    return Vector(dx: c * v.dx - s * v.dy, dy: s * v.dx + c * v.dy)
}

/// The velocity of the point at offset `r` of a body turning at `w`: ω × r.
@inline(__always) func cross(_ w: Double, _ r: Vector) -> Vector { Vector(dx: -w * r.dy, dy: w * r.dx) }
