import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// iOS 9's attachment kinds against physical facts: a slide moves only along its axis and stops
/// at its range, a rope is slack until taut, a weld keeps a pose, a pin pendulum keeps its
/// period, pin limits hold, friction torque stops turning as the closed form says; and the
/// refusals of settings UIKit refuses.
@Suite struct AttachmentKindsTests {
    static let h = DynamicAnimator.defaultStep
    static let g = GravityBehavior.pointsPerSecondSquared

    static func world(_ bodies: [DynamicBody]) -> DynamicAnimator {
        var animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1000, height: 1000))
        for (k, body) in bodies.enumerated() { animator.setItem(DynamicItemID(k), body) }
        return animator
    }

    static func anchored(_ ids: [DynamicItemID]) -> ItemBehavior {
        var behavior = ItemBehavior(items: ids)
        behavior.properties.isAnchored = true
        return behavior
    }

    static let first = DynamicItemID(0), second = DynamicItemID(1), third = DynamicItemID(2)

    // MARK: Sliding

    @Test func aSlidingItemUnderGravityAt45DegreesMovesAlongItsAxisOnlyAndStopsAtTheRangesEnd() {
        // The slide's point is 40 pt right of the centre: gravity turns the item about it
        // unless the joint holds its angle.
        let pivot = Point(340, 300), axis = Vector(1, 1).normalized
        var a = Self.world([DynamicBody(center: Point(300, 300), size: Size(60, 60))])
        var slide = AttachmentBehavior(kind: .sliding(axis: axis), item: Self.first, anchor: .point(pivot))
        slide.attachmentRange = FloatRange(minimum: -50, maximum: 150)
        #expect(slide.validationError == nil)
        a.add(slide)
        a.add(GravityBehavior(items: [Self.first]))
        var largest = -Double.infinity
        for step in 1...240 {
            a.advance(steps: 1)
            let body = a.bodies[Self.first]!
            let d = (body.center + rotated(Vector(40, 0), by: body.angle)).vector(from: pivot)
            #expect(abs(d.dot(axis.perpendicular)) < 1e-6, "off the axis by \(d.dot(axis.perpendicular)) at step \(step)")
            #expect(abs(body.angle) < 1e-9, "turned \(body.angle) at step \(step)")
            largest = max(largest, d.dot(axis))
            if step == 20 {
                // Free along the axis: g·cos 45° exactly.
                #expect(abs(body.velocity.dot(axis) - Self.g * 0.5.squareRoot() * 20 * Self.h) < 1e-6)
            }
        }
        #expect(largest <= 150 + 0.5, "slid to \(largest)")
        let body = a.bodies[Self.first]!
        let d = (body.center + rotated(Vector(40, 0), by: body.angle)).vector(from: pivot)
        #expect(abs(d.dot(axis) - 150) < 0.5, "rests at \(d.dot(axis))")
        #expect(body.velocity.length < 1)
    }

    @Test func twoSlidingItemsMoveApartOnlyAlongTheAxisAndKeepTheirMomentum() {
        var a = Self.world([DynamicBody(center: Point(300, 300), size: Size(100, 100)),
                            DynamicBody(center: Point(420, 300), size: Size(40, 80))])
        a.add(AttachmentBehavior(kind: .sliding(axis: Vector(1, 0)), item: Self.second, anchor: .item(Self.first, offset: .zero)))
        a.addLinearVelocity(Vector(100, 100), to: Self.second)
        let bodies0 = a.bodies.bodies
        let momentum0 = bodies0.reduce(Vector.zero) { $0 + $1.velocity * $1.mass }
        a.advance(steps: 60)
        let p = a.bodies[Self.first]!, q = a.bodies[Self.second]!
        let momentum = p.velocity * p.mass + q.velocity * q.mass
        #expect((momentum - momentum0).length < 1e-9)
        // Relative motion along the first item's (unturned) x axis only, no relative turning.
        #expect(abs(q.angle - p.angle) < 1e-3, "relative angle \(q.angle - p.angle)")
        let relative = rotated(q.center.vector(from: p.center), by: -p.angle)
        #expect(abs(relative.dy) < 0.5, "\(relative)")
        #expect(relative.dx > 150, "\(relative)")
    }

    // MARK: Limit

    @Test func aRopeLetsItsItemFallFreelyUntilTautThenHoldsItAtItsLength() {
        let top = Point(500, 50)
        var a = Self.world([DynamicBody(center: Point(500, 100), size: Size(20, 20))])
        var rope = AttachmentBehavior(kind: .limit, item: Self.first, anchor: .point(top))
        rope.length = 200
        a.add(rope)
        a.add(GravityBehavior(items: [Self.first]))
        var longest = 0.0, slackSteps = 0
        for step in 1...300 {
            a.advance(steps: 1)
            let body = a.bodies[Self.first]!
            let distance = body.center.distance(to: top)
            longest = max(longest, distance)
            if distance < 199 {
                slackSteps += 1
                #expect(abs(body.velocity.dy - Self.g * Double(step) * Self.h) < 1e-9, "not free at step \(step)")
            }
        }
        // 150 pt of slack: about √(2·150/1000) s = 33 steps of free fall.
        #expect(slackSteps >= 30)
        #expect(longest <= 200 + 0.5, "stretched to \(longest)")
        #expect(abs(a.bodies[Self.first]!.center.distance(to: top) - 200) < 0.5)
    }

    // MARK: Fixed

    @Test func itemsWeldedToAnAnchoredItemKeepTheirPoseUnderGravity() {
        // A wall, a beam welded to its side, a second beam welded to the end of the first.
        var a = Self.world([DynamicBody(center: Point(500, 500), size: Size(100, 100)),
                            DynamicBody(center: Point(600, 500), size: Size(100, 40)),
                            DynamicBody(center: Point(700, 500), size: Size(100, 40))])
        a.add(Self.anchored([Self.first]))
        var weld = AttachmentBehavior(kind: .fixed, item: Self.second, anchor: .item(Self.first, offset: .zero))
        weld.attachmentAnchor = Point(550, 500)
        a.add(weld)
        weld = AttachmentBehavior(kind: .fixed, item: Self.third, anchor: .item(Self.second, offset: .zero))
        weld.attachmentAnchor = Point(650, 500)
        a.add(weld)
        a.add(GravityBehavior(items: [Self.first, Self.second, Self.third]))
        a.advance(steps: 180)
        let b = a.bodies[Self.second]!, c = a.bodies[Self.third]!
        // Warm-started welds hold a cantilever of two beams within a tenth of a point.
        #expect(b.center.distance(to: Point(600, 500)) < 0.1, "\(b.center)")
        #expect(abs(b.angle) < 0.001, "\(b.angle)")
        #expect(c.center.distance(to: Point(700, 500)) < 0.1, "\(c.center)")
        #expect(abs(c.angle) < 0.001, "\(c.angle)")
        #expect(a.isPaused)
    }

    @Test func aWeldedPairTumblesAsOneBody() {
        var a = Self.world([DynamicBody(center: Point(300, 300), size: Size(80, 80)),
                            DynamicBody(center: Point(370, 320), size: Size(60, 30))])
        a.add(AttachmentBehavior(kind: .fixed, item: Self.second, anchor: .item(Self.first, offset: .zero)))
        a.add(GravityBehavior(items: [Self.first, Self.second]))
        a.addLinearVelocity(Vector(50, -300), to: Self.first)
        a.addAngularVelocity(3, to: Self.first)
        func pose() -> (Vector, Double) {
            let p = a.bodies[Self.first]!, q = a.bodies[Self.second]!
            return (rotated(q.center.vector(from: p.center), by: -p.angle), q.angle - p.angle)
        }
        let (offset0, angle0) = pose()
        let total = a.bodies.bodies.reduce(0) { $0 + $1.mass }
        func centreVelocity() -> Vector { a.bodies.bodies.reduce(Vector.zero) { $0 + $1.velocity * ($1.mass / total) } }
        let v0 = centreVelocity()
        for _ in 0..<60 {
            a.advance(steps: 1)
            let (offset, angle) = pose()
            #expect((offset - offset0).length < 0.5, "\(offset) vs \(offset0)")
            #expect(abs(angle - angle0) < JointBodies.angularSlop, "\(angle - angle0)")
        }
        #expect(a.bodies[Self.first]!.angle > 1)   // it did tumble
        // The joint's impulses are internal: the centre of mass falls freely.
        #expect((centreVelocity() - v0 - Vector(0, Self.g)).length < 1e-6)
    }

    // MARK: Pin

    /// A 100×100 item hanging 100 pt below a pin, let go at `angle` (radians) from the vertical.
    static func pendulum(angle: Double) -> DynamicAnimator {
        var body = DynamicBody(center: Point(500 - 100 * sin(angle), 500 + 100 * cos(angle)), size: Size(100, 100))
        body.angle = angle
        return world([body])
    }

    @Test func aPinnedPendulumSwingsWithTheSmallAnglePeriod() {
        var a = Self.pendulum(angle: 0.05)
        a.add(AttachmentBehavior(kind: .pin, item: Self.first, anchor: .point(Point(500, 500))))
        a.add(GravityBehavior(items: [Self.first]))
        let body = a.bodies[Self.first]!
        let expected = 2 * Double.pi * ((body.inertia + body.mass * 100 * 100) / (body.mass * Self.g * 100)).squareRoot()
        var xs = [body.center.x - 500], pivotError = 0.0
        for _ in 0..<(8 * 60) {
            a.advance(steps: 1)
            let b = a.bodies[Self.first]!
            xs.append(b.center.x - 500)
            pivotError = max(pivotError, (b.center + rotated(Vector(0, -100), by: b.angle)).distance(to: Point(500, 500)))
        }
        var upward: [Double] = []
        for k in 1..<xs.count where xs[k - 1] < 0 && xs[k] >= 0 {
            upward.append((Double(k - 1) + xs[k - 1] / (xs[k - 1] - xs[k])) * Self.h)
        }
        #expect(upward.count >= 3)
        let period = (upward.last! - upward.first!) / Double(upward.count - 1)
        // Within 0.5 % (the symplectic step keeps it within 0.01 %; 0.05 rad adds 0.016 %).
        #expect(abs(period / expected - 1) < 0.005, "period \(period) s vs \(expected) s")
        #expect(pivotError < 1e-6, "the pin let go by \(pivotError) pt")
    }

    @Test func pinAngleLimitsHold() {
        var a = Self.pendulum(angle: 0)
        var pin = AttachmentBehavior(kind: .pin, item: Self.first, anchor: .point(Point(500, 500)))
        pin.attachmentRange = FloatRange(minimum: -0.2, maximum: 0.2)
        a.add(pin)
        a.add(GravityBehavior(items: [Self.first]))
        // Unlimited, this kick would swing it 0.9 rad out.
        a.addLinearVelocity(Vector(300, 0), to: Self.first)
        var lowest = 0.0, highest = 0.0
        for _ in 0..<180 {
            a.advance(steps: 1)
            let angle = a.bodies[Self.first]!.angle
            lowest = min(lowest, angle)
            highest = max(highest, angle)
        }
        let tolerance = JointBodies.angularSlop
        #expect(lowest >= -0.2 - tolerance && highest <= 0.2 + tolerance, "\(lowest)...\(highest)")
        #expect(lowest < -0.18, "reached \(lowest)")   // the kick pushes it clockwise-negative
    }

    @Test func frictionTorqueStopsTurningAsTheClosedFormSays() {
        // Pinned at its centre, turning at 6 rad/s: a torque T·10⁴ on an inertia of 1666.7
        // decelerates it at 6·T rad/s², stopping it after 1/T s.
        func spin(torque: Double, steps: Int) -> Double {
            var a = Self.world([DynamicBody(center: Point(500, 500), size: Size(100, 100))])
            var pin = AttachmentBehavior(kind: .pin, item: Self.first, anchor: .point(Point(500, 500)))
            pin.frictionTorque = torque
            a.add(pin)
            a.addAngularVelocity(6, to: Self.first)
            a.advance(steps: steps)
            return a.bodies[Self.first]!.angularVelocity
        }
        #expect(abs(spin(torque: 1, steps: 30) - 3) < 1e-9)
        #expect(abs(spin(torque: 2, steps: 15) - 3) < 1e-9)
        #expect(abs(spin(torque: 1, steps: 61)) < 1e-12)
        #expect(abs(spin(torque: 2, steps: 31)) < 1e-12)
        #expect(spin(torque: 0, steps: 120) == 6)
    }

    @Test func frictionTorqueBringsTwoPinnedItemsToOneSpinKeepingAngularMomentum() {
        var a = Self.world([DynamicBody(center: Point(500, 500), size: Size(100, 100)),
                            DynamicBody(center: Point(500, 500), size: Size(200, 100))])
        var pin = AttachmentBehavior(kind: .pin, item: Self.second, anchor: .item(Self.first, offset: .zero))
        pin.frictionTorque = 0.5
        a.add(pin)
        a.addAngularVelocity(6, to: Self.first)
        let iA = a.bodies[Self.first]!.inertia, iB = a.bodies[Self.second]!.inertia
        a.advance(steps: 20)
        let slipping = a.bodies[Self.first]!.angularVelocity - a.bodies[Self.second]!.angularVelocity
        #expect(slipping > 0.5)   // still slipping after a third of a second
        a.advance(steps: 100)
        let wA = a.bodies[Self.first]!.angularVelocity, wB = a.bodies[Self.second]!.angularVelocity
        #expect(abs(wA - wB) < 1e-9)
        #expect(abs(wA - iA * 6 / (iA + iB)) < 1e-9)
    }

    // MARK: Validation and determinism

    @Test func slidingRefusesANonUnitAxisAndARangeWithoutZero() {
        let unit = AttachmentBehavior.Kind.sliding(axis: Vector(0.6, 0.8))
        #expect(AttachmentBehavior.validate(kind: unit, attachmentRange: FloatRange(minimum: -5, maximum: 5)) == nil)
        #expect(AttachmentBehavior.validate(kind: unit, attachmentRange: .infinite) == nil)
        #expect(AttachmentBehavior.validate(kind: .sliding(axis: Vector(0.7071, 0.7071)), attachmentRange: .infinite) == nil)
        let long = AttachmentBehavior.validate(kind: .sliding(axis: Vector(1, 1)), attachmentRange: .infinite)
        #expect(long?.contains("unit vector") == true, "\(long ?? "accepted")")
        #expect(AttachmentBehavior.validate(kind: .sliding(axis: .zero), attachmentRange: .infinite) != nil)
        let away = AttachmentBehavior.validate(kind: unit, attachmentRange: FloatRange(minimum: 10, maximum: 20))
        #expect(away?.contains("include 0") == true, "\(away ?? "accepted")")
        // A pin's angle range need not include 0; no kind takes a range upside down.
        #expect(AttachmentBehavior.validate(kind: .pin, attachmentRange: FloatRange(minimum: 0.1, maximum: 0.5)) == nil)
        #expect(AttachmentBehavior.validate(kind: .pin, attachmentRange: FloatRange(minimum: 1, maximum: -1)) != nil)
        var pin = AttachmentBehavior(kind: .pin, item: Self.first, anchor: .point(.zero))
        pin.frictionTorque = -1
        #expect(pin.validationError != nil)
    }

    @Test func everyKindGivesTheSameNumbersBitForBit() {
        func run() -> [DynamicBody] {
            var a = Self.world((0..<5).map { k in DynamicBody(center: Point(200 + Double(k) * 110, 300 + Double(k) * 7), size: Size(60, 40)) })
            let ids = (0..<5).map(DynamicItemID.init)
            var slide = AttachmentBehavior(kind: .sliding(axis: Vector(1, 0)), item: ids[0], anchor: .point(Point(180, 300)))
            slide.attachmentRange = FloatRange(minimum: -30, maximum: 30)
            a.add(slide)
            var rope = AttachmentBehavior(kind: .limit, item: ids[1], anchor: .item(ids[0], offset: Vector(20, 0)))
            rope.length = 150
            a.add(rope)
            var pin = AttachmentBehavior(kind: .pin, item: ids[2], anchor: .item(ids[1], offset: .zero))
            pin.attachmentAnchor = Point(365, 310)
            pin.frictionTorque = 0.3
            pin.attachmentRange = FloatRange(minimum: -0.5, maximum: 0.4)
            a.add(pin)
            a.add(AttachmentBehavior(kind: .fixed, item: ids[3], anchor: .item(ids[2], offset: .zero)))
            var spring = AttachmentBehavior(item: ids[4], anchor: .item(ids[3], offset: .zero))
            spring.frequency = 2
            a.add(spring)
            a.add(GravityBehavior(items: ids))
            a.advance(steps: 240)
            return a.bodies.bodies
        }
        let once = run()
        #expect(once == run())
        #expect(once.allSatisfy { $0.center.x.isFinite && $0.center.y.isFinite })
    }
}
