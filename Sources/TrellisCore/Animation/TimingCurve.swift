/// How an animation moves through its duration: Core Animation's named curves or a spring.
public enum TimingCurve: Hashable, Sendable {
    case linear
    case easeIn
    case easeOut
    case easeInEaseOut
    /// UIView's spring animation: damping ratio and initial velocity.
    case spring(dampingRatio: Double, initialVelocity: Double)

    /// The protocol's names, in this order (documentation, clients' help and checks).
    public static let names = ["linear", "easeIn", "easeOut", "easeInEaseOut", "spring"]
    /// Other spellings the protocol reads, and the name each stands for.
    public static let otherSpellings = ["easeInOut": "easeInEaseOut"]

    /// The protocol's names: "linear", "easeIn", "easeOut", "easeInEaseOut" (also "easeInOut"), "spring".
    public init?(name: String, dampingRatio: Double = 1, initialVelocity: Double = 0) {
        switch Self.otherSpellings[name] ?? name {
        case "linear": self = .linear
        case "easeIn": self = .easeIn
        case "easeOut": self = .easeOut
        case "easeInEaseOut": self = .easeInEaseOut
        case "spring": self = .spring(dampingRatio: dampingRatio, initialVelocity: initialVelocity)
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .linear: return "linear"
        case .easeIn: return "easeIn"
        case .easeOut: return "easeOut"
        case .easeInEaseOut: return "easeInEaseOut"
        case .spring: return "spring"
        }
    }
}

/// The timing of one animation: duration, delay and curve. UIKit does not publish its batch
/// update timing (UXKit's is 0.25 s linear); our default is 0.3 s easeInEaseOut.
public struct AnimationTiming: Hashable, Sendable {
    public let duration: Double
    public let delay: Double
    public let curve: TimingCurve
    /// How long the animation runs after its delay: the duration, or a spring's settling time
    /// (computed once here: settling is found by stepping the spring).
    public let activeDuration: Double

    public static let `default` = AnimationTiming(duration: 0.3, delay: 0, curve: .easeInEaseOut)
    /// No animation: the change lands at once.
    public static let immediate = AnimationTiming(duration: 0, delay: 0, curve: .linear)
    /// An animated `setContentOffset`/`scrollToItem`: iOS does not document it; 0.33 s is
    /// UIScrollViewAnimationDuration of the Chameleon reimplementation, ease-out our choice (a
    /// scroll that settles into place).
    public static let scroll = AnimationTiming(duration: 0.33, delay: 0, curve: .easeOut)

    public init(duration: Double = 0.3, delay: Double = 0, curve: TimingCurve = .easeInEaseOut) {
        self.duration = max(0, duration)
        self.delay = max(0, delay)
        self.curve = curve
        if case .spring(let ratio, let velocity) = curve, duration > 0 {
            activeDuration = SpringCurve(dampingRatio: ratio, initialVelocity: velocity, response: duration).settlingTime
        } else {
            activeDuration = self.duration
        }
    }

    /// The fraction of the change applied `elapsed` seconds after the animation was started
    /// (delay included): 0 before, 1 after, the curve in between (a spring may pass 1).
    public func progress(elapsed: Double) -> Double {
        let t = elapsed - delay
        if t <= 0 { return duration == 0 && elapsed >= delay ? 1 : 0 }
        switch curve {
        case .spring(let ratio, let velocity):
            guard duration > 0 else { return 1 }
            let spring = SpringCurve(dampingRatio: ratio, initialVelocity: velocity, response: duration)
            return t >= activeDuration ? 1 : spring.value(at: t)
        case .linear, .easeIn, .easeOut, .easeInEaseOut:
            guard duration > 0, t < duration else { return 1 }
            let bezier: CubicBezierCurve
            switch curve {
            case .easeIn: bezier = .easeIn
            case .easeOut: bezier = .easeOut
            case .easeInEaseOut: bezier = .easeInEaseOut
            default: bezier = .linear
            }
            return bezier.value(at: t / duration)
        }
    }
}
