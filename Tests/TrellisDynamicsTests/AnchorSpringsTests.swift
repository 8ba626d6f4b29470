import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// Many items on zero-length springs to their own anchors (the springy flow layout's): each
/// oscillates about its anchor as a damped spring does in closed form, independently of the
/// others, and springs come and go without disturbing the rest.
@Suite struct AnchorSpringsTests {
    /// A damped oscillation's half period and its decay over it, measured from samples 1/60 s
    /// apart: the time between the first two zero crossings (interpolated) and the ratio of the
    /// first trough to the starting displacement. Both are immune to the half-step lag of the
    /// symplectic step's positions.
    static func measure(_ samples: [Double], start: Double) -> (halfPeriod: Double, decay: Double) {
        var crossings: [Double] = []
        for i in 1..<samples.count where (samples[i - 1] > 0) != (samples[i] > 0) {
            crossings.append((Double(i) - samples[i] / (samples[i] - samples[i - 1])) / 60)
        }
        let trough = samples.min() ?? 0
        return (crossings.count >= 2 ? crossings[1] - crossings[0] : .nan, abs(trough / start))
    }

    /// The damped spring's half period π/ω_d and its decay over it from rest: the first trough of d·e^(−ζωt)(cos ω_d t + ζω/ω_d sin ω_d t) is at t = π/ω_d, −d·e^(−ζωπ/ω_d).
    static func theory(frequency f: Double, damping z: Double) -> (halfPeriod: Double, decay: Double) {
        let w = 2 * Double.pi * f, wd = w * (1 - z * z).squareRoot()
        return (Double.pi / wd, exp(-z * w * Double.pi / wd))
    }

    @Test func eachItemOscillatesAboutItsAnchorAsTheDampedSpringDoes() {
        // The springy layout's defaults: 0.8 Hz, damping 0.5. Two items displaced by 100 and −40
        // pt from anchors far apart.
        var animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 2000, height: 2000))
        let a = DynamicItemID(1), b = DynamicItemID(2)
        animator.setItem(a, DynamicBody(center: Point(100, 300), size: Size(50, 50)))
        animator.setItem(b, DynamicBody(center: Point(700, 460), size: Size(80, 30)))
        var springs = AnchorSpringsBehavior(frequency: 0.8, damping: 0.5)
        springs.set(a, anchor: Point(100, 200))
        springs.set(b, anchor: Point(700, 500))
        animator.add(springs)
        var ya = [100.0], yb = [-40.0]
        for _ in 1...240 {
            animator.advance(steps: 1)
            ya.append(animator.bodies[a]!.center.y - 200)
            yb.append(animator.bodies[b]!.center.y - 500)
            #expect(animator.bodies[a]!.center.x == 100 && animator.bodies[b]!.center.x == 700)
        }
        // Period from the frequency and decay from the damping, each within 2 %.
        let expected = Self.theory(frequency: 0.8, damping: 0.5)
        for (samples, d) in [(ya, 100.0), (yb.map { -$0 }, 40.0)] {
            let got = Self.measure(samples, start: d)
            #expect(abs(got.halfPeriod / expected.halfPeriod - 1) < 0.02, "half period \(got.halfPeriod) vs \(expected.halfPeriod)")
            #expect(abs(got.decay / expected.decay - 1) < 0.02, "decay \(got.decay) vs \(expected.decay)")
        }
    }

    @Test func springsComeAndGoAndAnchorsMove() {
        var springs = AnchorSpringsBehavior(frequency: 1, damping: 1)
        for n in 1...5 { springs.set(DynamicItemID(n), anchor: Point(Double(n), 0)) }
        springs.set(DynamicItemID(3), anchor: Point(30, 3))
        springs.remove(DynamicItemID(1))
        springs.removeAll { $0.rawValue % 2 == 0 }
        #expect(springs.items == [DynamicItemID(3), DynamicItemID(5)])
        #expect(springs.anchor(of: DynamicItemID(3)) == Point(30, 3) && springs.anchor(of: DynamicItemID(2)) == nil)
        // An item whose spring went keeps moving as it was; one at its anchor and at rest stays.
        var animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 100, height: 100))
        animator.setItem(DynamicItemID(3), DynamicBody(center: Point(30, 3), size: Size(10, 10)))
        animator.add(springs)
        animator.advance(steps: 30)
        #expect(animator.bodies[DynamicItemID(3)]!.center == Point(30, 3))
    }
}
