import Glibc

/// One axis of a released scroll, stepped by the dynamics stage's fixed 60 Hz steps: UIKit
/// Dynamics' dynamic item with resistance (deceleration), an attachment of length 0, damping 1
/// and frequency 2 to the edge (bounce), or a deceleration aimed at an exact rest (paging and
/// layout snapping).
///
/// Choice: the state is stepped in closed form within each step instead of by the animator's
/// symplectic Euler (x += h·v after v ← v/(1+h·c)), which rests 1.7 % short of UIKit's projection
/// x0 − v0/λ at 0.998. The velocity decays by exactly the same factor per step as
/// `ItemBehavior` resistance c = (d^(−1000h) − 1)/h would give, and the position moves by the
/// exact integral of that exponential, so step n lands on x0 + v0·(d^(1000·n·h) − 1)/λ.
public struct AxisMotion: Hashable, Sendable {
    public enum Phase: String, Hashable, Sendable {
        /// Slowing by the deceleration rate (UIScrollView's decelerating).
        case decelerating
        /// Pulled back to `anchor` by the critically damped attachment.
        case bouncing
        /// Decelerating onto `anchor` exactly (a page or a layout's target).
        case settling
    }

    public var phase: Phase
    /// Points per second in content-offset direction.
    public var velocity: Double
    /// The edge a bounce returns to, or the offset a settle ends on.
    public var anchor: Double
    /// Velocity kept per millisecond.
    public var rate: Double

    /// Below this speed (pt/s) a deceleration stops, as UIScrollView's (the reference's 0.5 pt/s).
    public static let restSpeed = 0.5
    /// A bounce ends when it is this close to the edge (points) and slower than `bounceRestSpeed`.
    public static let bounceRestDistance = 0.25
    public static let bounceRestSpeed = 5.0
    /// The bounce attachment (UIAttachmentBehavior length 0, frequency 2 Hz, damping 1).
    public static let bounceFrequency = 2.0
    static var omega: Double { 2 * Double.pi * bounceFrequency }

    public init(phase: Phase, velocity: Double, anchor: Double = 0, rate: Double) {
        self.phase = phase; self.velocity = velocity; self.anchor = anchor; self.rate = rate
    }

    /// λ = 1000·ln d (per second, negative).
    @inlinable public static func lambda(rate: Double) -> Double { 1000 * log(rate) }

    /// The ItemBehavior resistance whose decay e^(−c·t) equals d^(1000·t): −λ (the animator's
    /// resistance is exact, whatever its step).
    public static func resistance(rate: Double) -> Double { -lambda(rate: rate) }

    /// Where a deceleration from `x` at `v` comes to rest: x − v/λ.
    @inlinable public static func projectedRest(_ x: Double, velocity v: Double, rate: Double) -> Double {
        x - v / lambda(rate: rate)
    }

    /// Seconds until |v| falls below `restSpeed`: ln(restSpeed/|v|)/λ (0 when already slower).
    public static func timeToRest(velocity v: Double, rate: Double) -> Double {
        abs(v) <= restSpeed ? 0 : log(restSpeed / abs(v)) / lambda(rate: rate)
    }

    /// A deceleration that rests exactly on `target`: the velocity chosen so x − v/λ = target.
    public static func settling(from x: Double, to target: Double, rate: Double) -> AxisMotion {
        AxisMotion(phase: .settling, velocity: (target - x) * -lambda(rate: rate), anchor: target, rate: rate)
    }

    /// Decay of (x, v) over `tau` seconds, exactly.
    static func decay(_ x: Double, _ v: Double, rate: Double, tau: Double) -> (Double, Double) {
        let r = pow(rate, 1000 * tau)
        return (x + v * (r - 1) / lambda(rate: rate), v * r)
    }

    /// The critically damped attachment to `anchor` over `tau` seconds, exactly:
    /// y(t) = e^(−ωt)(c1 + c2·t), c1 = y0, c2 = v0 + ω·y0.
    static func spring(_ x: Double, _ v: Double, anchor: Double, tau: Double) -> (Double, Double) {
        let w = omega, c1 = x - anchor, c2 = v + w * c1, e = exp(-w * tau)
        let y = e * (c1 + c2 * tau)
        return (anchor + y, e * c2 - w * y)
    }

    /// The fastest a deceleration may meet an edge and bounce, for a view `dimension` points
    /// along the axis: the bounce's farthest point past the edge, v/(ω·e) for the critically damped
    /// attachment, is then at most what the rubber band lets a drag show, c·dimension (ours:
    /// UIKit does not say; a 1,000,000 pt/s fling would otherwise fly 29,000 pt past the end).
    public static func maximumBounceSpeed(dimension: Double) -> Double {
        RubberBand.coefficient * dimension * omega * M_E
    }

    /// One fixed step of `h` seconds from `x`, inside [lo, hi], in a view `dimension` points
    /// along the axis. Returns the new position and whether the motion ended (the position is
    /// then final: on the edge or the target).
    mutating func step(_ x: Double, lo: Double, hi: Double, bounces: Bool, h: Double, dimension: Double) -> (x: Double, ended: Bool) {
        switch phase {
        case .decelerating:
            let (next, v) = Self.decay(x, velocity, rate: rate, tau: h)
            let inside = x >= lo && x <= hi
            if inside, next < lo || next > hi {
                let edge = next < lo ? lo : hi
                guard bounces else { velocity = 0; return (edge, true) }
                // The crossing on the line through the last two positions; the attachment takes
                // over there with the velocity the decay had then, for the rest of the step.
                let fraction = (edge - x) / (next - x)
                let fastest = Self.maximumBounceSpeed(dimension: dimension)
                let crossing = min(max(Self.decay(x, velocity, rate: rate, tau: fraction * h).1, -fastest), fastest)
                phase = .bouncing
                anchor = edge
                let (y, vy) = Self.spring(edge, crossing, anchor: edge, tau: (1 - fraction) * h)
                velocity = vy
                return (y, false)
            }
            velocity = v
            if abs(v) < Self.restSpeed { velocity = 0; return (next, true) }
            return (next, false)
        case .settling:
            let (next, v) = Self.decay(x, velocity, rate: rate, tau: h)
            velocity = v
            if abs(v) < Self.restSpeed { velocity = 0; return (anchor, true) }
            return (next, false)
        case .bouncing:
            let (next, v) = Self.spring(x, velocity, anchor: anchor, tau: h)
            velocity = v
            if abs(next - anchor) < Self.bounceRestDistance, abs(v) < Self.bounceRestSpeed { velocity = 0; return (anchor, true) }
            return (next, false)
        }
    }
}
