import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// A scene's trajectory does not depend on the step: the same scene stepped at 60, 120 and 240 Hz
/// lands within 0.5 pt (or 1 %) of the others at every 1/60 s, and where a closed form exists, of
/// it. Scenes are drawn from a fixed seed (the same every run), over the settings' whole ranges.
@Suite struct StepIndependenceTests {
    static let item = DynamicItemID(0), other = DynamicItemID(1)

    /// SplitMix64: the same numbers on every run and platform.
    struct Draw {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * Double(next() >> 11) / Double(1 << 53)
        }
    }

    /// Item 0's centre every 1/60 s for `seconds`, the scene made by `make` at `rate`.
    static func track(rate: Int, seconds: Double, _ make: (inout DynamicAnimator) -> Void) -> [Point] {
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 2000, height: 2000))
        a.setStepRate(rate)
        make(&a)
        return (0..<Int((seconds * 60).rounded())).map { _ in
            a.advance(steps: rate / 60)
            return a.bodies[Self.item]!.center
        }
    }

    /// The first sample where `got` and `want` differ by more than 0.5 pt or 1 % of how far the
    /// item has gone from `origin` (whichever is larger), described; nil when none does.
    static func firstMiss(_ got: [Point], _ want: [Point], origin: Point) -> String? {
        for (k, (g, w)) in zip(got, want).enumerated() {
            let gap = g.distance(to: w), travelled = w.distance(to: origin)
            if gap > max(0.5, 0.01 * travelled) { return "at \(Double(k + 1) / 60) s: \(g) against \(w)" }
        }
        return nil
    }

    /// Closed forms at each rate, and each rate against the others, for scenes drawn at random.
    @Test func exactScenesLandOnTheirClosedFormsAtEveryRate() {
        var draw = Draw(state: 2027)
        var misses: [String] = []
        for trial in 0..<24 {
            let start = Point(x: 1000, y: 1000)
            let v0 = Vector(dx: draw.uniform(-400...400), dy: draw.uniform(-400...400))
            let kind = trial % 6
            // What acts: gravity and resistance (free fall, terminal speed), a continuous push,
            // or a zero-length spring to a point (damped oscillator, any ζ), a spring field.
            let g = Vector(dx: draw.uniform(-1...1), dy: draw.uniform(-2...2))
            let r = draw.uniform(0...8)
            let f = draw.uniform(0.3...4), zeta = draw.uniform(0...1.6)
            let anchor = Point(x: 1000 + draw.uniform(-300...300), y: 1000 + draw.uniform(-300...300))
            let push = draw.uniform(0.2...3), angle = draw.uniform(-3...3)
            let side = draw.uniform(40...160)
            func make(_ a: inout DynamicAnimator) {
                a.setItem(Self.item, DynamicBody(center: start, size: Size(side, side)))
                a.addLinearVelocity(v0, to: Self.item)
                var material = ItemBehavior(items: [Self.item])
                material.properties.resistance = kind == 0 || kind == 4 ? r : 0
                a.add(material)
                switch kind {
                case 0, 1:
                    var gravity = GravityBehavior(items: [Self.item])
                    gravity.gravityDirection = g
                    a.add(gravity)
                case 2:
                    var p = PushBehavior(items: [Self.item], mode: .continuous)
                    p.setAngle(angle, magnitude: push)
                    a.add(p)
                case 3, 4:
                    var spring = AttachmentBehavior(item: Self.item, anchor: .point(anchor))
                    spring.length = 0
                    spring.frequency = f
                    spring.damping = zeta
                    a.add(spring)
                default:
                    var field = FieldBehavior(.spring, items: [Self.item], position: anchor)
                    field.strength = push
                    a.add(field)
                }
            }
            // The closed form of each, per axis.
            let mass = side * side / 10_000
            func expected(_ t: Double) -> Point {
                switch kind {
                case 0, 1:
                    let acc = g * GravityBehavior.pointsPerSecondSquared, rate = kind == 0 ? r : 0
                    func axis(_ x0: Double, _ v: Double, _ a: Double) -> Double {
                        rate == 0 ? x0 + v * t + a * t * t / 2
                            : x0 + a / rate * t + (v - a / rate) * (1 - exp(-rate * t)) / rate
                    }
                    return Point(x: axis(start.x, v0.dx, acc.dx), y: axis(start.y, v0.dy, acc.dy))
                case 2:
                    let acc = Vector(angle: angle, length: push) * (PushBehavior.force / mass)
                    return Point(x: start.x + v0.dx * t + acc.dx * t * t / 2, y: start.y + v0.dy * t + acc.dy * t * t / 2)
                case 3, 4:
                    // Resistance adds to the spring's damping: 2ζω + r.
                    let w = 2 * Double.pi * f, z = kind == 4 ? zeta + r / (2 * w) : zeta
                    return Point(x: anchor.x + ClosedFormTests.oscillator(start.x - anchor.x, v0.dx, omega: w, zeta: z, t),
                                 y: anchor.y + ClosedFormTests.oscillator(start.y - anchor.y, v0.dy, omega: w, zeta: z, t))
                default:
                    let w = (FieldBehavior.springStiffness * push / mass).squareRoot()
                    return Point(x: anchor.x + ClosedFormTests.oscillator(start.x - anchor.x, v0.dx, omega: w, zeta: 0, t),
                                 y: anchor.y + ClosedFormTests.oscillator(start.y - anchor.y, v0.dy, omega: w, zeta: 0, t))
                }
            }
            let want = (1...60).map { expected(Double($0) / 60) }
            for rate in DynamicAnimator.stepRates {
                let got = Self.track(rate: rate, seconds: 1, make)
                if let miss = Self.firstMiss(got, want, origin: start) { misses.append("trial \(trial) (kind \(kind)) at \(rate) Hz \(miss)") }
            }
        }
        #expect(misses.isEmpty, "\(misses.prefix(5))")
    }

    /// The kinds stepped by impulses (ropes, welds, pins, slides) have no closed form here: each
    /// rate against 240 Hz, the finest. (A rod's pendulum: its period, below.)
    @Test(arguments: ["rope", "pin", "fixed", "sliding"])
    func steppedAttachmentsAgreeAcrossRates(kind: String) {
        func make(_ a: inout DynamicAnimator) {
            a.setItem(Self.item, DynamicBody(center: Point(x: 1150, y: 1000), size: Size(60, 60)))
            a.setItem(Self.other, DynamicBody(center: Point(x: 1000, y: 1000), size: Size(60, 60)))
            var anchored = ItemBehavior(items: [Self.other])
            anchored.properties.isAnchored = true
            a.add(anchored)
            a.add(GravityBehavior(items: [Self.item]))
            switch kind {
            case "rope":
                var rope = AttachmentBehavior(kind: .limit, item: Self.item, anchor: .point(Point(x: 1000, y: 1000)))
                rope.length = 200
                a.add(rope)
            case "pin":
                a.add(AttachmentBehavior(kind: .pin, item: Self.item, anchor: .item(Self.other, offset: .zero)))
            case "fixed":
                a.add(AttachmentBehavior(kind: .fixed, item: Self.item, anchor: .item(Self.other, offset: .zero)))
            default:
                a.add(AttachmentBehavior(kind: .sliding(axis: Vector(1, 1).normalized), item: Self.item, anchor: .point(Point(x: 1150, y: 1000))))
            }
        }
        let finest = Self.track(rate: 240, seconds: 1, make)
        for rate in [60, 120] {
            let got = Self.track(rate: rate, seconds: 1, make)
            let miss = Self.firstMiss(got, finest, origin: Point(x: 1150, y: 1000))
            #expect(miss == nil, "\(kind) at \(rate) Hz against 240 Hz \(miss ?? "")")
        }
    }

    /// A spring between two equal items let go stretched lands on the damped oscillator's closed
    /// form at every rate, phase included: their separation s obeys s'' = −ω²·s − 2ζω·s' exactly
    /// (the stiffness is set on the effective mass along the spring), and each item moves half of
    /// it about their fixed centre of mass. Stepped from the items' velocities as symplectic Euler
    /// steps, the spring ran half a step early (1.4 pt off at 60 Hz here); leapfrog's half kick
    /// (`SteppedKick`) keeps it on the curve. Also a spring whose items move when it is added.
    @Test(arguments: [(0.0, 0.1), (0.0, 0.7), (240.0, 0.05)])
    func aSpringBetweenItemsLandsOnItsClosedFormAtEveryRate(speed: Double, zeta: Double) {
        let f = 1.5, w = 2 * Double.pi * f, stretch0 = 50.0
        // Item 0 starts moving away at `speed` and item 1 towards it at the same speed: s'(0) = 2·speed.
        func make(_ a: inout DynamicAnimator) {
            var moving = DynamicBody(center: Point(x: 1150, y: 1000), size: Size(60, 60))
            moving.velocity = Vector(dx: speed, dy: 0)
            var other = DynamicBody(center: Point(x: 1000, y: 1000), size: Size(60, 60))
            other.velocity = Vector(dx: -speed, dy: 0)
            a.setItem(Self.item, moving)
            a.setItem(Self.other, other)
            var spring = AttachmentBehavior(item: Self.item, anchor: .item(Self.other, offset: .zero))
            spring.length = 100
            spring.frequency = f
            spring.damping = zeta
            a.add(spring)
        }
        // s(t) for s(0) = s₀, s'(0) = v₀ (under-damped; ζ < 1 here); item 0 at 1075 + (100 + s)/2.
        let wd = w * (1 - zeta * zeta).squareRoot(), v0 = 2 * speed
        let closed = (1...60).map { k -> Point in
            let t = Double(k) / 60
            let s = exp(-zeta * w * t) * (stretch0 * cos(wd * t) + (v0 + zeta * w * stretch0) / wd * sin(wd * t))
            return Point(x: 1075 + (100 + s) / 2, y: 1000)
        }
        for rate in DynamicAnimator.stepRates {
            let got = Self.track(rate: rate, seconds: 1, make)
            let miss = Self.firstMiss(got, closed, origin: Point(x: 1150, y: 1000))
            #expect(miss == nil, "ζ \(zeta), speed \(speed) at \(rate) Hz against the closed form \(miss ?? "")")
        }
    }

    /// A spring between two items is stepped (leapfrog), with the stiffness and damping per step
    /// that make each step turn and decay as the spring does (`SteppedSpring`): its period and its
    /// decay per period are the continuous ones within 0.5 % at every rate.
    @Test(arguments: DynamicAnimator.stepRates)
    func aSpringBetweenItemsKeepsItsPeriodAndDecay(rate: Int) {
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 2000, height: 2000))
        a.setStepRate(rate)
        a.setItem(Self.item, DynamicBody(center: Point(x: 1150, y: 1000), size: Size(60, 60)))
        a.setItem(Self.other, DynamicBody(center: Point(x: 1000, y: 1000), size: Size(60, 60)))
        var spring = AttachmentBehavior(item: Self.item, anchor: .item(Self.other, offset: .zero))
        spring.length = 100
        spring.frequency = 1.5
        spring.damping = 0.1
        a.add(spring)
        let h = a.step
        let stretch = (0..<(3 * rate)).map { _ in
            a.advance(steps: 1)
            return a.bodies[Self.item]!.center.distance(to: a.bodies[Self.other]!.center) - 100
        }
        // Upward zero crossings (interpolated) and peaks (a parabola through the three samples).
        var crossings: [Double] = [], peaks: [Double] = []
        for k in 1..<(stretch.count - 1) {
            if stretch[k - 1] < 0 && stretch[k] >= 0 { crossings.append(h * (Double(k) - stretch[k] / (stretch[k] - stretch[k - 1]))) }
            let (l, m, r) = (stretch[k - 1], stretch[k], stretch[k + 1])
            if m > l && m >= r && m > 0 { peaks.append(m - (r - l) * (r - l) / (8 * (l - 2 * m + r))) }
        }
        let zeta = 0.1, period = 1 / (1.5 * (1 - zeta * zeta).squareRoot())
        let decay = exp(-2 * Double.pi * zeta / (1 - zeta * zeta).squareRoot())
        #expect(crossings.count >= 3 && peaks.count >= 3, "\(crossings) \(peaks)")
        guard crossings.count >= 3, peaks.count >= 3 else { return }
        let measured = (crossings[crossings.count - 1] - crossings[0]) / Double(crossings.count - 1)
        #expect(abs(measured / period - 1) < 0.005, "period \(measured) against \(period)")
        for k in 1..<peaks.count {
            #expect(abs(peaks[k] / peaks[k - 1] / decay - 1) < 0.005, "decay \(peaks[k] / peaks[k - 1]) against \(decay)")
        }
    }

    /// A rigid rod (an attachment at frequency 0) holding an item 150 pt below a point, let go at
    /// 30°: a pendulum of period 4·√(L/g)·K(sin 15°) (the complete elliptic integral, by the
    /// arithmetic-geometric mean), at every rate within 0.5 %.
    @Test(arguments: DynamicAnimator.stepRates)
    func aRodPendulumKeepsItsPeriod(rate: Int) {
        let length = 150.0, start = Double.pi / 6, pivot = Point(x: 1000, y: 1000)
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 2000, height: 2000))
        a.setStepRate(rate)
        var bob = DynamicBody(center: Point(x: pivot.x + length * sin(start), y: pivot.y + length * cos(start)), size: Size(20, 20))
        bob.properties.allowsRotation = false
        a.setItem(Self.item, bob)
        a.add(AttachmentBehavior(item: Self.item, anchor: .point(pivot)))
        a.add(GravityBehavior(items: [Self.item]))
        let h = a.step
        let x = (0..<(6 * rate)).map { _ in
            a.advance(steps: 1)
            return a.bodies[Self.item]!.center.x - pivot.x
        }
        var crossings: [Double] = []
        // Through the bottom either way: half periods.
        for k in 1..<x.count where (x[k - 1] > 0) != (x[k] > 0) {
            crossings.append(h * (Double(k) - x[k] / (x[k] - x[k - 1])))
        }
        var (m, n) = (1.0, cos(start / 2))
        for _ in 0..<8 { (m, n) = ((m + n) / 2, (m * n).squareRoot()) }
        let period = 4 * (length / GravityBehavior.pointsPerSecondSquared).squareRoot() * (Double.pi / 2 / m)
        #expect(crossings.count >= 3, "\(crossings)")
        guard crossings.count >= 3 else { return }
        let measured = 2 * (crossings[crossings.count - 1] - crossings[0]) / Double(crossings.count - 1)
        #expect(abs(measured / period - 1) < 0.005, "period \(measured) against \(period)")
    }
}
