#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The stiffness and damping per unit mass that a spring stepped by symplectic Euler (the
/// springs between items) is given so that its steps decay and turn as the continuous spring
/// does: the step's two eigenvalues are the exact e^((−ζω ± iω_d)·h). With a = e^(−ζωh):
/// c·h = 1 − a² and k·h² = 2 − c·h − 2a·cos(ω_d·h) (cosh(ω√(ζ²−1)·h) over-damped). A plain
/// k = ω², c = 2ζω decays 2.6 % too fast per period at 1 Hz and ζ = 0.2 on 60 Hz steps; these
/// keep the period and the decay exact at any step the spring is stable at. The phase comes from
/// stepping them as leapfrog (`SteppedKick`): started from the body's velocity itself, a spring
/// released from rest ran up to half a step early.
struct SteppedSpring: Sendable, Equatable {
    var frequency = 0.0, dampingRatio = 0.0, step = 0.0
    var stiffness = 0.0, damping = 0.0

    init() {}

    init(frequency: Double, dampingRatio: Double, step h: Double) {
        self.frequency = frequency
        self.dampingRatio = dampingRatio
        self.step = h
        let w = 2 * Double.pi * frequency, z = dampingRatio
        let a = exp(-z * w * h)
        let turn = z < 1 ? cos(w * (1 - z * z).squareRoot() * h) : cosh(w * (z * z - 1).squareRoot() * h)
        let ch = 1 - a * a
        stiffness = (2 - ch - 2 * a * turn) / (h * h)
        damping = ch / h
    }

    /// These coefficients for the spring, worked out again only when they change (the springs
    /// of one behaviour share them).
    mutating func update(frequency: Double, dampingRatio: Double, step h: Double) {
        guard frequency != self.frequency || dampingRatio != self.dampingRatio || h != step else { return }
        self = SteppedSpring(frequency: frequency, dampingRatio: dampingRatio, step: h)
    }
}
