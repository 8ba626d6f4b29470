#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exact step of x'' = −K·x − C·x' + A over h seconds (K ≥ 0 stiffness and C ≥ 0 damping
/// per unit mass, A a constant acceleration): x(h) = a·x₀ + b·v₀ + e·A, v(h) = c·x₀ + d·v₀ + b·A.
/// One form covers a free fall (K = C = 0: b = h, e = h²/2), linear resistance (K = 0: the
/// exponential decay) and a damped spring to a fixed point, under-, critically or over-damped,
/// at any step and any stiffness: there is nothing to go unstable. The coefficients depend on
/// K, C and h only, so items that share them (a springy layout's tiles) share one set.
struct OscillatorStep: Sendable, Equatable {
    var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0

    init(stiffness K: Double, damping C: Double, step h: Double) {
        // A spring too weak to move anything within the step (K·h² below 1e-12) is none, and
        // (1 − a)/K below would be all rounding.
        let K = K * h * h < 1e-12 ? 0 : K
        if K == 0 && C == 0 {
            b = h
            e = h * h / 2
            return
        }
        let half = C / 2
        let discriminant = K - half * half
        // co = e^(−Ch/2)·cos(ω_d·h) and si = e^(−Ch/2)·sin(ω_d·h)/ω_d (cosh and sinh/κ when over-damped).
        let co: Double, si: Double
        if discriminant > 0 {
            let w = discriminant.squareRoot(), decay = exp(-half * h), wh = w * h
            co = decay * cos(wh)
            si = decay * (wh < 1e-4 ? h * (1 - wh * wh / 6) : sin(wh) / w)
        } else if discriminant < 0 {
            // The two real rates −C/2 ± κ, the slow one written without cancellation.
            let kappa = (-discriminant).squareRoot()
            let slowRate = half > 0 ? -K / (kappa + half) : kappa - half
            let slow = exp(slowRate * h), fast = exp(-(kappa + half) * h)
            co = (slow + fast) / 2
            si = kappa * h < 1e-4 ? exp(-half * h) * h * (1 + kappa * kappa * h * h / 6) : (slow - fast) / (2 * kappa)
        } else {
            let decay = exp(-half * h)
            co = decay
            si = decay * h
        }
        b = si
        d = co - half * si
        if K == 0 {
            // Pure resistance: x moves by (1 − e^(−Ch))/C·v₀, and the forced part by (h − b)/C
            // (its series where that difference cancels).
            e = C * h < 1e-4 ? h * h * (0.5 - C * h / 6 + C * C * h * h / 24) : (h - b) / C
        } else {
            a = co + half * si
            c = -K * si
            // The forced part settles at A/K: e = (1 − a)/K, written as its series where 1 − a cancels.
            e = K * h * h < 1e-4 ? h * h * (0.5 - C * h / 6 + (C * C - K) * h * h / 24) : (1 - a) / K
        }
    }

    /// (x(h), v(h)) from (x₀, v₀) under the constant acceleration `A`.
    @inline(__always)
    func advance(_ x: Double, _ v: Double, _ A: Double) -> (x: Double, v: Double) {
        (a * x + b * v + e * A, c * x + d * v + b * A)
    }
}
