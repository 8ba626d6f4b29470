#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A damped spring from 0 to 1, as UIView's spring animation (damping ratio, initial velocity):
/// it may overshoot and it settles by itself, so its length is its settling time, not the
/// duration asked for. UIKit does not publish how it turns (duration, damping ratio) into a
/// spring; we use SwiftUI's published mapping with the duration as the response: mass 1,
/// stiffness (2π/duration)², damping 4π·ratio/duration.
public struct SpringCurve: Hashable, Sendable {
    /// 1 is critically damped (no overshoot); below 1 oscillates.
    public var dampingRatio: Double
    /// In units of the whole change per second, as UIKit's initialSpringVelocity (1 = the full
    /// distance in one second).
    public var initialVelocity: Double
    /// The response: the period of the undamped spring, in seconds.
    public var response: Double

    /// Settled when within this fraction of the change and slower than ten times it per second.
    public static let restThreshold = 0.001

    public init(dampingRatio: Double, initialVelocity: Double = 0, response: Double) {
        self.dampingRatio = max(0.01, dampingRatio)
        self.initialVelocity = initialVelocity
        self.response = max(0.01, response)
    }

    private var omega: Double { 2 * Double.pi / response }

    /// The fraction of the change applied at `t` seconds (may exceed 1 while overshooting).
    public func value(at t: Double) -> Double {
        if t <= 0 { return 0 }
        return 1 + displacement(at: t).x
    }

    /// Displacement from the target (starts at -1) and its velocity, solved in closed form.
    func displacement(at t: Double) -> (x: Double, v: Double) {
        let w0 = omega, z = dampingRatio, x0 = -1.0, v0 = initialVelocity
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            let a = x0, b = (v0 + z * w0 * x0) / wd
            let e = exp(-z * w0 * t), c = cos(wd * t), s = sin(wd * t)
            let x = e * (a * c + b * s)
            let v = e * ((b * wd - z * w0 * a) * c - (a * wd + z * w0 * b) * s)
            return (x, v)
        } else if z == 1 {
            let b = v0 + w0 * x0
            let e = exp(-w0 * t)
            return (e * (x0 + b * t), e * (b - w0 * (x0 + b * t)))
        } else {
            let r = w0 * (z * z - 1).squareRoot()
            let r1 = -z * w0 + r, r2 = -z * w0 - r
            let c2 = (v0 - r1 * x0) / (r2 - r1), c1 = x0 - c2
            return (c1 * exp(r1 * t) + c2 * exp(r2 * t), c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t))
        }
    }

    /// When the spring comes to rest (within `restThreshold`), in seconds: the first sample
    /// on a 1 ms grid after which it stays at rest (checked by its decaying envelope).
    public var settlingTime: Double {
        let step = 0.001
        var t = 0.0
        var restSince: Double?
        while t < 60 {
            let (x, v) = displacement(at: t)
            if abs(x) < Self.restThreshold && abs(v) < Self.restThreshold * 10 {
                if restSince == nil { restSince = t }
                // At rest for one undamped period: later motion is inside the envelope.
                if t - restSince! >= response { return restSince! }
            } else {
                restSince = nil
            }
            t += step
        }
        return 60
    }
}
