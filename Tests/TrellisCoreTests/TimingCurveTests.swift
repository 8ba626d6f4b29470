import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import TrellisCore

@Suite struct TimingCurveTests {
    @Test func linearIsTheIdentity() {
        let timing = AnimationTiming(duration: 2, curve: .linear)
        #expect(timing.progress(elapsed: 0) == 0)
        #expect(timing.progress(elapsed: 0.5) == 0.25)
        #expect(timing.progress(elapsed: 1) == 0.5)
        #expect(timing.progress(elapsed: 2) == 1)
        #expect(timing.progress(elapsed: 5) == 1)
    }

    /// Reference values of the cubic Béziers at ¼, ½ and ¾ of the time, computed independently
    /// (bisection on x(s) at high precision).
    @Test(arguments: [
        (TimingCurve.easeIn, [0.0935, 0.3153, 0.6218]),
        (TimingCurve.easeOut, [0.3782, 0.6847, 0.9065]),
        (TimingCurve.easeInEaseOut, [0.1291, 0.5, 0.8709]),
    ])
    func coreAnimationCurves(curve: TimingCurve, expected: [Double]) {
        let timing = AnimationTiming(duration: 1, curve: curve)
        for (t, value) in zip([0.25, 0.5, 0.75], expected) {
            #expect(near(timing.progress(elapsed: t), value, 0.0005), "\(curve) at \(t)")
        }
        #expect(timing.progress(elapsed: 0) == 0)
        #expect(timing.progress(elapsed: 1) == 1)
    }

    @Test func delayHoldsTheStart() {
        let timing = AnimationTiming(duration: 1, delay: 0.5, curve: .linear)
        #expect(timing.progress(elapsed: 0.4) == 0)
        #expect(timing.progress(elapsed: 1) == 0.5)
        #expect(timing.progress(elapsed: 1.5) == 1)
    }

    @Test func zeroDurationLandsAtOnce() {
        #expect(AnimationTiming.immediate.progress(elapsed: 0) == 1)
        #expect(AnimationTiming(duration: 0, delay: 1).progress(elapsed: 0.5) == 0)
    }

    @Test func underdampedSpringOvershootsThenSettles() {
        let timing = AnimationTiming(duration: 0.5, curve: .spring(dampingRatio: 0.3, initialVelocity: 0))
        let samples = stride(from: 0.0, through: timing.activeDuration, by: 0.005).map { timing.progress(elapsed: $0) }
        #expect(samples.max()! > 1.3)          // ζ = 0.3 overshoots by about 37 %
        #expect(timing.activeDuration > 0.5)   // it settles by itself, after the response
        #expect(timing.progress(elapsed: timing.activeDuration) == 1)
        let spring = SpringCurve(dampingRatio: 0.3, response: 0.5)
        let settle = spring.settlingTime
        for t in stride(from: settle, to: settle + 2, by: 0.01) {
            #expect(abs(spring.value(at: t) - 1) < SpringCurve.restThreshold * 1.5)
        }
    }

    @Test func criticallyDampedSpringNeverOvershoots() {
        let spring = SpringCurve(dampingRatio: 1, response: 0.4)
        var last = 0.0
        for t in stride(from: 0.0, through: 2, by: 0.01) {
            let v = spring.value(at: t)
            #expect(v <= 1 + 1e-12 && v >= last - 1e-12)
            last = v
        }
        // x(t) = 1 − e^(−ωt)(1 + ωt) with ω = 2π/0.4.
        let w = 2 * Double.pi / 0.4
        #expect(near(spring.value(at: 0.1), 1 - exp(-w * 0.1) * (1 + w * 0.1), 1e-12))
    }

    @Test func initialVelocityPushesTheStart() {
        let still = SpringCurve(dampingRatio: 1, initialVelocity: 0, response: 0.5)
        let pushed = SpringCurve(dampingRatio: 1, initialVelocity: 10, response: 0.5)
        #expect(pushed.value(at: 0.02) > still.value(at: 0.02) + 0.1)
        let over = SpringCurve(dampingRatio: 2, response: 0.5)
        #expect(over.value(at: 0.3) < still.value(at: 0.3))   // overdamped is slower
        #expect(over.settlingTime > still.settlingTime)
    }

    @Test func namesRoundTrip() {
        for name in ["linear", "easeIn", "easeOut", "easeInEaseOut", "spring"] {
            #expect(TimingCurve(name: name)?.name == name)
        }
        #expect(TimingCurve(name: "easeInOut") == .easeInEaseOut)
        #expect(TimingCurve(name: "bounce") == nil)
    }
}
