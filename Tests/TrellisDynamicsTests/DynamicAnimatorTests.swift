import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// The animator against closed forms: free fall, pushes, springs, snaps, resistance, and its
/// rest detection and determinism.
@Suite struct DynamicAnimatorTests {
    static let item = DynamicItemID(1), other = DynamicItemID(2)
    static let h = DynamicAnimator.defaultStep

    static func animator(_ body: DynamicBody = DynamicBody(center: .zero, size: Size(100, 100))) -> DynamicAnimator {
        var animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1000, height: 1000))
        animator.setItem(item, body)
        return animator
    }

    static func body(_ animator: DynamicAnimator, _ id: DynamicItemID = item) -> DynamicBody { animator.bodies[id]! }

    @Test func massComesFromDensityAndArea() {
        #expect(DynamicBody(center: .zero, size: Size(100, 100)).mass == 1)
        var heavy = DynamicBody(center: .zero, size: Size(200, 50))
        heavy.properties.density = 3
        #expect(heavy.mass == 3)
    }

    @Test func freeFallFollowsHalfGTSquared() {
        var a = Self.animator()
        a.add(GravityBehavior(items: [Self.item]))
        a.advance(steps: 60)
        let b = Self.body(a)
        // One second at 1000 pt/s²: the velocity and the distance exactly (g·t, g·t²/2).
        #expect(abs(b.velocity.dy - 1000) < 1e-9)
        #expect(abs(b.center.y - 500) < 1e-9)
        #expect(b.center.x == 0)
    }

    @Test func gravityIgnoresMassAndFollowsItsAngle() {
        var heavy = DynamicBody(center: .zero, size: Size(200, 50))
        heavy.properties.density = 5
        var a = Self.animator(heavy)
        var gravity = GravityBehavior(items: [Self.item])
        gravity.setAngle(0, magnitude: 0.5)
        a.add(gravity)
        a.advance(steps: 30)
        #expect(abs(Self.body(a).velocity.dx - 250) < 1e-9)
        #expect(abs(Self.body(a).velocity.dy) < 1e-9)
    }

    @Test func aContinuousPushOfOneAccelerates100By100At100PointsPerSecondSquared() {
        var a = Self.animator()
        var push = PushBehavior(items: [Self.item], mode: .continuous)
        push.setAngle(Double.pi / 2, magnitude: 1)
        a.add(push)
        a.advance(steps: 60)
        #expect(abs(Self.body(a).velocity.dy - 100) < 1e-9)
        // Twice the area, half the acceleration.
        var wide = Self.animator(DynamicBody(center: .zero, size: Size(200, 100)))
        wide.add(push)
        wide.advance(steps: 60)
        #expect(abs(Self.body(wide).velocity.dy - 50) < 1e-9)
    }

    @Test func anInstantaneousPushActsOnceAndTurnsItselfOff() throws {
        var a = Self.animator()
        var push = PushBehavior(items: [Self.item], mode: .instantaneous)
        push.pushDirection = Vector(1, 0)
        push.targetOffsets[Self.item] = Vector(0, 50)
        let id = a.add(push)
        a.advance(steps: 1)
        let after = Self.body(a)
        #expect(abs(after.velocity.dx - 100) < 1e-9)
        // Off the centre it turns the item too: torque r × F over the inertia.
        let expectedSpin = Vector(0, 50).cross(Vector(100, 0)) / after.inertia
        #expect(abs(after.angularVelocity - expectedSpin) < 1e-9)
        #expect((a.behavior(id) as? PushBehavior)?.active == false)
        a.advance(steps: 10)
        #expect(abs(Self.body(a).velocity.dx - 100) < 1e-9)
    }

    /// Times of downward zero crossings of `x` and the peaks between them.
    static func oscillation(_ xs: [Double]) -> (crossings: [Double], peaks: [Double]) {
        var crossings: [Double] = [], peaks: [Double] = [], peak = 0.0
        for k in 1..<xs.count {
            peak = max(peak, xs[k])
            if xs[k - 1] > 0 && xs[k] <= 0 {
                crossings.append((Double(k - 1) + xs[k - 1] / (xs[k - 1] - xs[k])) * h)
                peaks.append(peak)
                peak = 0
            }
        }
        return (crossings, peaks)
    }

    static func springRun(frequency: Double, damping: Double, seconds: Double) -> (crossings: [Double], peaks: [Double]) {
        var a = animator(DynamicBody(center: Point(130, 0), size: Size(100, 100)))
        var attachment = AttachmentBehavior(item: item, anchor: .point(Point(0, 0)))
        attachment.length = 100
        attachment.frequency = frequency
        attachment.damping = damping
        a.add(attachment)
        var xs: [Double] = [30]
        for _ in 0..<Int(seconds * 60) {
            a.advance(steps: 1)
            xs.append(a.bodies[item]!.center.x - 100)
        }
        return oscillation(xs)
    }

    @Test func anUndampedAttachmentOscillatesAtItsFrequencyWithoutLosingAmplitude() {
        let (crossings, peaks) = Self.springRun(frequency: 1, damping: 0, seconds: 8)
        #expect(crossings.count >= 7)
        let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        #expect(abs(period - 1) < 0.01, "period \(period)")
        #expect(abs(peaks.last! - 30) < 0.3, "amplitude \(peaks.last!)")
    }

    @Test func aDampedAttachmentDecaysAsTheClosedForm() {
        let zeta = 0.1, f = 1.0
        let (crossings, peaks) = Self.springRun(frequency: f, damping: zeta, seconds: 6)
        let omega = 2 * Double.pi * f
        let dampedPeriod = 1 / (f * (1 - zeta * zeta).squareRoot())
        let period = (crossings[4] - crossings[0]) / 4
        #expect(abs(period / dampedPeriod - 1) < 0.01, "period \(period) vs \(dampedPeriod)")
        // Successive peaks shrink by e^(−ζωT_d).
        let ratio = peaks[4] / peaks[3], expected = exp(-zeta * omega * dampedPeriod)
        #expect(abs(ratio / expected - 1) < 0.01, "decay \(ratio) vs \(expected)")
    }

    @Test func aRigidAttachmentKeepsItsLength() {
        var a = Self.animator(DynamicBody(center: Point(100, 0), size: Size(20, 20)))
        a.add(AttachmentBehavior(item: Self.item, anchor: .point(.zero)))   // length: 100, from now
        a.add(GravityBehavior(items: [Self.item]))
        for _ in 0..<180 {
            a.advance(steps: 1)
            #expect(abs(Self.body(a).center.distance(to: .zero) - 100) < 0.6)
        }
        #expect(Self.body(a).center.y > 50)   // it swung down
    }

    @Test func twoItemsOnASpringKeepTheirMomentum() {
        var a = Self.animator(DynamicBody(center: Point(0, 0), size: Size(100, 100)))
        a.setItem(Self.other, DynamicBody(center: Point(250, 40), size: Size(50, 100)))
        var spring = AttachmentBehavior(item: Self.item, anchor: .item(Self.other, offset: Vector(0, 20)))
        spring.length = 100
        spring.frequency = 2
        spring.damping = 0.2
        a.add(spring)
        a.addLinearVelocity(Vector(30, -10), to: Self.item)
        func momentum() -> Vector { a.bodies.bodies.reduce(.zero) { $0 + $1.velocity * $1.mass } }
        let start = momentum()
        a.advance(steps: 120)
        #expect((momentum() - start).length < 1e-6)
        #expect(Self.body(a, Self.other).angularVelocity != 0)   // off-centre end: it turns
    }

    @Test func aSnapSettlesOnItsPointAndStraightensTheItem() {
        var start = DynamicBody(center: .zero, size: Size(100, 60))
        start.angle = 0.5
        var a = Self.animator(start)
        a.add(SnapBehavior(item: Self.item, snapTo: Point(300, 200)))
        a.advance(steps: 90)
        #expect(Self.body(a).center.distance(to: Point(300, 200)) < 1)
        #expect(abs(Self.body(a).angle) < 0.01)
    }

    @Test func resistanceDecaysVelocityPerSecond() {
        var a = Self.animator()
        var material = ItemBehavior(items: [Self.item])
        material.properties.resistance = 2
        a.add(material)
        a.addLinearVelocity(Vector(100, 0), to: Self.item)
        a.advance(steps: 60)
        // The closed form, not Box2D's per-step 1/(1 + h·c) (3.4 % slower after a second at
        // c = 2): v = v₀·e^(−c·t), and the distance covered v₀·(1 − e^(−c·t))/c.
        #expect(abs(Self.body(a).velocity.dx - 100 * exp(-2)) < 1e-9)
        #expect(abs(Self.body(a).center.x - 100 * (1 - exp(-2)) / 2) < 1e-9)
    }

    @Test func anchoredItemsAndLockedRotationStayPut() {
        var a = Self.animator()
        var material = ItemBehavior(items: [Self.item])
        material.properties.isAnchored = true
        a.add(material)
        a.add(GravityBehavior(items: [Self.item]))
        a.advance(steps: 30)
        #expect(Self.body(a).center == .zero)
    }

    @Test func itPausesAtRestAndResumesWhenSomethingChanges() {
        var a = Self.animator()
        a.add(SnapBehavior(item: Self.item, snapTo: Point(50, 0)))
        a.advance(steps: 600)
        #expect(a.isPaused)
        #expect(a.drainEvents() == [.resumed, .paused])
        let steps = a.steps
        a.advance(steps: 100)
        #expect(a.steps == steps)   // paused: stepping costs nothing
        a.addLinearVelocity(Vector(0, 200), to: Self.item)
        #expect(!a.isPaused)
        #expect(a.drainEvents() == [.resumed])
        a.advance(steps: 1)
        #expect(a.steps == steps + 1)
    }

    @Test func theSameScriptGivesTheSameNumbersBitForBit() {
        func run() -> [DynamicBody] {
            var a = Self.animator(DynamicBody(center: Point(10, 20), size: Size(80, 40)))
            a.setItem(Self.other, DynamicBody(center: Point(200, 50), size: Size(30, 30)))
            a.add(GravityBehavior(items: [Self.item, Self.other]))
            var spring = AttachmentBehavior(item: Self.item, offset: Vector(10, 5), anchor: .item(Self.other, offset: .zero))
            spring.frequency = 3
            spring.damping = 0.3
            a.add(spring)
            a.add(AttachmentBehavior(item: Self.other, anchor: .point(Point(200, 0))))
            a.advance(steps: 300)
            return a.bodies.bodies
        }
        #expect(run() == run())
    }
}

/// Box2D's per-step limits keep a runaway field finite.
@Suite struct SpeedLimitTests {
    @Test func noItemMovesMoreThanTheStepLimitHoweverHardItIsPushed() {
        var animator = DynamicAnimator(referenceBounds: Rect(0, 0, 1000, 1000))
        let id = DynamicItemID(1)
        animator.setItem(id, DynamicBody(center: Point(500, 500), size: Size(100, 100)))
        var push = PushBehavior(items: [id], mode: .continuous)
        push.pushDirection = Vector(1e6, 0)
        push.targetOffsets[id] = Vector(0, 50)
        animator.add(push)
        var last = animator.bodies[id]!
        for _ in 0..<600 {
            animator.advance(steps: 1)
            let now = animator.bodies[id]!
            #expect(now.center.x - last.center.x <= DynamicAnimator.maximumSpeed * DynamicAnimator.defaultStep * (1 + 1e-12))
            #expect(abs(now.angle - last.angle) <= DynamicAnimator.maximumAngularSpeed * DynamicAnimator.defaultStep * (1 + 1e-12))
            last = now
        }
        #expect(last.center.x.isFinite && last.velocity.dx.isFinite && last.angularVelocity.isFinite)
        #expect(abs(last.velocity.dx - 12_000) < 1e-6)
    }
}
