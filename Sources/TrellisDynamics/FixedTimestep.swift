/// Turns arbitrary frame times into whole fixed physics steps with an accumulator, so a
/// simulation gives the same result at 30, 60 or 120 fps (Gaffer's "fix your timestep").
public struct FixedTimestep: Hashable, Sendable {
    /// Seconds per physics step (UIKit Dynamics steps at 60 Hz).
    public let step: Double
    /// At most this many steps per advance, so a long stall cannot freeze the loop (the rest is dropped).
    public let maximumStepsPerAdvance: Int
    /// Time not yet consumed by a whole step.
    public private(set) var accumulated: Double = 0
    /// The time of the last advance; nil before the first.
    public private(set) var lastTime: Double?

    public init(step: Double = 1.0 / 60.0, maximumStepsPerAdvance: Int = 240) {
        precondition(step > 0, "a fixed time step must be positive")
        self.step = step
        self.maximumStepsPerAdvance = maximumStepsPerAdvance
    }

    /// Moves to `time` (seconds) and returns how many whole steps to simulate. Time going
    /// backwards or standing still gives zero steps.
    public mutating func advance(to time: Double) -> Int {
        defer { lastTime = time }
        guard let last = lastTime, time > last else { return 0 }
        accumulated += time - last
        var steps = Int((accumulated / step).rounded(.down))
        // Guard against 0.999999 of a step lost to floating-point error.
        if accumulated - Double(steps + 1) * step > -1e-9 { steps += 1 }
        accumulated = max(0, accumulated - Double(steps) * step)
        if steps > maximumStepsPerAdvance {
            steps = maximumStepsPerAdvance
            accumulated = 0
        }
        return steps
    }

    /// Puts back the time not yet simulated and the last advance's time (a snapshot kept them).
    public mutating func restore(accumulated: Double, lastTime: Double?) {
        self.accumulated = accumulated
        self.lastTime = lastTime
    }

    /// How far between the last step and the next one the current time is (0…1), for rendering interpolation.
    public var alpha: Double { accumulated / step }
}
