import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// The motions a test author writes down from the seeds and UIKit's units, against the
/// continuous closed forms (not the discrete ones), at 60, 120 and 240 Hz: free fall, a push,
/// resistance, every spring to a fixed point (attachment, snap, springy anchors, spring field),
/// uniform fields, a springy kick, and a ball bouncing on a floor.
@Suite struct ClosedFormTests {
    static let rates = DynamicAnimator.stepRates
    static let item = DynamicItemID(0)
    static let g = GravityBehavior.pointsPerSecondSquared

    static func animator(rate: Int, _ body: DynamicBody = DynamicBody(center: Point(500, 500), size: Size(100, 100))) -> DynamicAnimator {
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1000, height: 1000))
        a.setStepRate(rate)
        a.setItem(Self.item, body)
        return a
    }

    /// `measure` every 1/60 s for `seconds` (the times every rate steps through).
    static func samples(_ a: inout DynamicAnimator, seconds: Double, _ measure: (DynamicAnimator) -> Double) -> [(t: Double, value: Double)] {
        let per = a.stepRate / 60
        return (1...Int((seconds * 60).rounded())).map { k in
            a.advance(steps: per)
            return (Double(k) / 60, measure(a))
        }
    }

    static func body(_ a: DynamicAnimator) -> DynamicBody { a.bodies[Self.item]! }

    /// x(t) of x'' = −ω²x − 2ζω·x' from (x₀, v₀): the damped oscillator, any ζ ≥ 0.
    static func oscillator(_ x0: Double, _ v0: Double, omega w: Double, zeta z: Double, _ t: Double) -> Double {
        let decay = exp(-z * w * t)
        if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            return decay * (x0 * cos(wd * t) + (v0 + z * w * x0) / wd * sin(wd * t))
        } else if z == 1 {
            return decay * (x0 + (v0 + w * x0) * t)
        } else {
            let k = w * (z * z - 1).squareRoot()
            return decay * (x0 * cosh(k * t) + (v0 + z * w * x0) / k * sinh(k * t))
        }
    }

    /// Within 0.5 pt or 1 %, whichever is larger, at every sample.
    static func worst(_ got: [(t: Double, value: Double)], _ expected: (Double) -> Double) -> (t: Double, got: Double, want: Double)? {
        got.first { abs($0.value - expected($0.t)) > max(0.5, 0.01 * abs(expected($0.t))) }.map { ($0.t, $0.value, expected($0.t)) }
    }

    // MARK: The table, each at every rate

    @Test(arguments: rates) func freeFallIsHalfGTSquared(rate: Int) {
        var a = Self.animator(rate: rate)
        a.add(GravityBehavior(items: [Self.item]))
        let fallen = Self.samples(&a, seconds: 0.25) { Self.body($0).center.y - 500 }
        #expect(abs(fallen.last!.value - 31.25) < 1e-9, "\(fallen.last!.value)")
        #expect(Self.worst(fallen) { Self.g * $0 * $0 / 2 } == nil)
        #expect(abs(Self.body(a).velocity.dy - 250) < 1e-9)
    }

    @Test(arguments: rates) func aContinuousPushIsHalfATSquared(rate: Int) {
        var a = Self.animator(rate: rate)
        var push = PushBehavior(items: [Self.item], mode: .continuous)
        push.setAngle(0, magnitude: 2)   // 200 pt/s² on a 100×100 item of density 1
        a.add(push)
        let moved = Self.samples(&a, seconds: 0.5) { Self.body($0).center.x - 500 }
        #expect(abs(moved.last!.value - 25) < 1e-9, "\(moved.last!.value)")
    }

    @Test(arguments: rates) func resistanceDecaysAsAnExponential(rate: Int) {
        var a = Self.animator(rate: rate)
        var material = ItemBehavior(items: [Self.item])
        material.properties.resistance = 10
        a.add(material)
        a.addLinearVelocity(Vector(600, 0), to: Self.item)
        let speed = Self.samples(&a, seconds: 0.1) { Self.body($0).velocity.dx }
        #expect(abs(speed.last!.value - 600 * exp(-1)) < 1e-9, "\(speed.last!.value)")   // 220.7 pt/s
        #expect(abs(Self.body(a).center.x - 500 - 60 * (1 - exp(-1))) < 1e-9)
    }

    @Test(arguments: rates) func gravityAgainstResistanceReachesItsTerminalSpeedExactly(rate: Int) {
        var a = Self.animator(rate: rate)
        var material = ItemBehavior(items: [Self.item])
        material.properties.resistance = 4
        a.add(material)
        a.add(GravityBehavior(items: [Self.item]))
        let fallen = Self.samples(&a, seconds: 1) { Self.body($0).center.y - 500 }
        let terminal = Self.g / 4
        #expect(Self.worst(fallen) { terminal * $0 - terminal * (1 - exp(-4 * $0)) / 4 } == nil)
    }

    @Test(arguments: rates) func anUndampedAttachmentStretched100PointsSwingsAsACosine(rate: Int) {
        var a = Self.animator(rate: rate, DynamicBody(center: Point(300, 500), size: Size(100, 100)))
        var spring = AttachmentBehavior(item: Self.item, anchor: .point(Point(0, 500)))
        spring.length = 200
        spring.frequency = 1
        a.add(spring)
        let error = Self.samples(&a, seconds: 1) { Self.body($0).center.x - 200 }
        #expect(abs(error[5].value - 100 * cos(2 * .pi * 0.1)) < 0.5, "\(error[5].value)")   // 80.90 pt at 0.1 s
        #expect(Self.worst(error) { 100 * cos(2 * .pi * $0) } == nil)
    }

    @Test(arguments: rates) func aDampedAttachmentKeepsItsPeriodAndDecay(rate: Int) {
        var a = Self.animator(rate: rate, DynamicBody(center: Point(300, 500), size: Size(100, 100)))
        var spring = AttachmentBehavior(item: Self.item, anchor: .point(Point(0, 500)))
        spring.length = 200
        spring.frequency = 1
        spring.damping = 0.2
        a.add(spring)
        let error = Self.samples(&a, seconds: 3) { Self.body($0).center.x - 200 }
        let w = 2 * Double.pi
        #expect(Self.worst(error) { Self.oscillator(100, 0, omega: w, zeta: 0.2, $0) } == nil)
        // The period from the upward zero crossings, interpolated: 1/(f·√(1 − ζ²)) = 1.0206 s.
        var crossings: [Double] = []
        for k in 1..<error.count where error[k - 1].value < 0 && error[k].value >= 0 {
            let (t0, x0) = error[k - 1], (t1, x1) = error[k]
            crossings.append(t0 + (t1 - t0) * -x0 / (x1 - x0))
        }
        #expect(crossings.count >= 2)
        if crossings.count >= 2 { #expect(abs((crossings[1] - crossings[0]) / (1 / 0.96.squareRoot()) - 1) < 0.005, "\(crossings)") }
    }

    @Test(arguments: rates) func aSnapClosesAsTheDampedOscillator(rate: Int) {
        // 360.6 pt from its point (300 across, 200 down), turned a quarter turn.
        var body = DynamicBody(center: Point(200, 300), size: Size(100, 100))
        body.angle = .pi / 2
        var a = Self.animator(rate: rate, body)
        a.add(SnapBehavior(item: Self.item, snapTo: Point(500, 500)))
        let w = 2 * Double.pi * SnapBehavior.frequency
        let left = Self.samples(&a, seconds: 1) { Self.body($0).center.distance(to: Point(500, 500)) }
        let start = Point(200, 300).distance(to: Point(500, 500))
        #expect(abs(left[5].value - 72.3) < 0.5, "\(left[5].value)")   // after 0.1 s
        #expect(Self.worst(left) { abs(Self.oscillator(start, 0, omega: w, zeta: 0.5, $0)) } == nil)
        let turned = Self.body(a).angle
        #expect(abs(turned - Self.oscillator(.pi / 2, 0, omega: w, zeta: 0.5, 1)) < 1e-6)
    }

    @Test(arguments: rates) func aSpringyKickSettlesOnTheClosedForm(rate: Int) {
        var a = Self.animator(rate: rate)
        var springs = AnchorSpringsBehavior(frequency: 0.8, damping: 0.35)
        springs.set(Self.item, anchor: Point(500, 500))
        a.add(springs)
        a.addLinearVelocity(Vector(0, 900), to: Self.item)
        let w = 2 * Double.pi * 0.8
        let offset = Self.samples(&a, seconds: 2) { Self.body($0).center.y - 500 }
        #expect(Self.worst(offset) { Self.oscillator(0, 900, omega: w, zeta: 0.35, $0) } == nil)
    }

    @Test(arguments: rates) func theSpringFieldSwingsOnceASecondForAMassOfOne(rate: Int) {
        var a = Self.animator(rate: rate, DynamicBody(center: Point(600, 500), size: Size(100, 100)))
        a.add(FieldBehavior(.spring, items: [Self.item], position: Point(500, 500)))
        let x = Self.samples(&a, seconds: 2) { Self.body($0).center.x - 500 }
        #expect(Self.worst(x) { 100 * cos(2 * .pi * $0) } == nil)
    }

    @Test(arguments: rates) func uniformFieldsAreExact(rate: Int) {
        var a = Self.animator(rate: rate, DynamicBody(center: Point(500, 500), size: Size(50, 100)))   // mass 0.5
        a.add(FieldBehavior(.linearGravity(direction: Vector(0.3, 0)), items: [Self.item]))
        var drag = FieldBehavior(.drag, items: [Self.item])
        drag.strength = 2
        a.add(drag)
        a.addLinearVelocity(Vector(0, 400), to: Self.item)
        a.advance(steps: a.stepRate / 2)
        // Drag 2 on mass 0.5 is a resistance of 4 per second: x from the field's 300 pt/s², y coasting.
        let r = 4.0, ax = 300.0, t = 0.5
        let body = Self.body(a)
        #expect(abs(body.center.x - 500 - (ax / r * t - ax / r * (1 - exp(-r * t)) / r)) < 1e-9, "\(body.center)")
        #expect(abs(body.center.y - 500 - 400 * (1 - exp(-r * t)) / r) < 1e-9, "\(body.center)")
    }

    // MARK: Contacts

    /// A 50×50 box of elasticity `e` dropped 750 pt onto the floor (the reference bounds' bottom
    /// at 1000): how high each bounce rises, the deepest it went below the floor, and when it
    /// first touched.
    static func bounces(rate: Int, elasticity e: Double, seconds: Double) -> (rises: [Double], deepest: Double, firstTouch: Double) {
        var a = Self.animator(rate: rate, DynamicBody(center: Point(500, 225), size: Size(50, 50)))
        a.add(GravityBehavior(items: [Self.item]))
        var collision = CollisionBehavior(items: [Self.item])
        collision.translatesReferenceBoundsIntoBoundary = true
        a.add(collision)
        var material = ItemBehavior(items: [Self.item])
        material.properties.elasticity = e
        a.add(material)
        var rises: [Double] = [], deepest = -Double.infinity, firstTouch = Double.nan
        var last = 0.0
        for k in 1...Int(seconds * Double(rate)) {
            a.advance(steps: 1)
            let body = Self.body(a)
            deepest = max(deepest, body.center.y + 25 - 1000)
            // The top of a rise: going up, then not.
            if last < 0 && body.velocity.dy >= 0 { rises.append(975 - body.center.y) }
            last = body.velocity.dy
            if firstTouch.isNaN, a.drainEvents().contains(where: { if case .collisionBegan = $0 { true } else { false } }) {
                firstTouch = Double(k) / Double(rate)
            }
        }
        return (rises, deepest, firstTouch)
    }

    @Test(arguments: rates) func aDroppedBallBouncesAtEToTheNAndTouchesAtTheSurface(rate: Int) {
        let (rises, deepest, firstTouch) = Self.bounces(rate: rate, elasticity: 0.6, seconds: 6)
        let impact = (2 * Self.g * 750).squareRoot()   // 1224.7 pt/s after 1.2247 s
        #expect(deepest <= 0.5, "went \(deepest) pt into the floor")
        #expect(abs(firstTouch - impact / Self.g) <= 1.0 / Double(rate) + 1e-9, "touched at \(firstTouch)")
        // Each bounce leaves at 0.6 × the speed it struck at, so rises to 0.36ⁿ of the drop,
        // until it strikes slower than the restitution threshold, 100 pt/s: the n-th impact is
        // at 1224.7·0.6ⁿ⁻¹ pt/s, 158.7 for the fifth and 95.2 for the sixth, which stays down.
        #expect(rises.count == 5, "\(rises)")
        for (n, rise) in rises.enumerated() {
            let exact = 750 * pow(0.36, Double(n + 1))
            #expect(abs(rise - exact) <= max(0.5, 0.01 * exact), "bounce \(n + 1) rose \(rise) against \(exact)")
        }
    }
}
