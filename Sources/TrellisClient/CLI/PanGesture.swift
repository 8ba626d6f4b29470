import TrellisCore

/// The `gesture.pan` samples of a scripted finger (`trellis drag`, `trellis fling`, the
/// viewer's fling keys): what UIPanGestureRecognizer reports for a finger moving at constant
/// speed, one sample per frame at 60 Hz.
///
/// A drag whose duration is not a whole number of frames is rounded to the nearest whole
/// number (at least one), so every sample stays one frame apart on the session's clock; its
/// default release velocity is its own (translation over the rounded duration).
public struct PanGesture: Hashable, Sendable {
    /// One `gesture.pan` request and how long the clock moves before it is sent.
    public struct Sample: Hashable, Sendable {
        /// Milliseconds of the session's clock between the previous sample and this one.
        public var delay: Double
        /// began, changed or ended.
        public var phase: String
        /// Cumulative translation in the view since began, points.
        public var translation: Point
        /// The finger's velocity, pt/s (on ended only).
        public var velocity: Point?
        /// Where the finger touched down, in the view (on began only).
        public var location: Point?

        public init(delay: Double, phase: String, translation: Point, velocity: Point? = nil, location: Point? = nil) {
            self.delay = delay
            self.phase = phase
            self.translation = translation
            self.velocity = velocity
            self.location = location
        }

        /// The request's params without the session.
        public var params: [String: JSONValue] {
            var p: [String: JSONValue] = ["phase": .string(phase), "translation": Self.wire(translation)]
            if let velocity { p["velocity"] = Self.wire(velocity) }
            if let location { p["location"] = Self.wire(location) }
            return p
        }

        static func wire(_ p: Point) -> JSONValue { .array([.number(p.x), .number(p.y)]) }
    }

    /// One frame at 60 Hz, ms: how far apart the samples are.
    public static let frame = 1000.0 / 60

    /// The samples in order: began, changed…, ended.
    public var samples: [Sample]

    /// A drag by `translation` at constant speed over `duration` ms (rounded to whole frames):
    /// began at 0, one changed per frame, ended at once after the last with `releaseVelocity`
    /// (default: the drag's own velocity).
    public static func drag(by translation: Point, over duration: Double, releaseVelocity: Point? = nil) -> PanGesture {
        let frames = max(1, Int((duration / frame).rounded()))
        var samples = [Sample(delay: 0, phase: "began", translation: Point(0, 0))]
        for k in 1...frames {
            let f = Double(k) / Double(frames)
            samples.append(Sample(delay: frame, phase: "changed", translation: Point(translation.x * f, translation.y * f)))
        }
        let seconds = Double(frames) / 60
        let velocity = releaseVelocity ?? Point(translation.x / seconds, translation.y / seconds)
        samples.append(Sample(delay: 0, phase: "ended", translation: translation, velocity: velocity))
        return PanGesture(samples: samples)
    }

    /// A flick: began, one changed of a frame's worth of `velocity`, ended with `velocity`.
    public static func fling(velocity: Point) -> PanGesture {
        let step = Point(velocity.x / 60, velocity.y / 60)
        return PanGesture(samples: [
            Sample(delay: 0, phase: "began", translation: Point(0, 0)),
            Sample(delay: frame, phase: "changed", translation: step),
            Sample(delay: 0, phase: "ended", translation: step, velocity: velocity),
        ])
    }

    public init(samples: [Sample]) {
        self.samples = samples
    }

    /// The same gesture with the finger touching down at `location` in the view.
    public func touchingDown(at location: Point?) -> PanGesture {
        var copy = self
        if let location, !copy.samples.isEmpty { copy.samples[0].location = location }
        return copy
    }

    /// Sends the samples to `session` in order and returns the last reply (the scroll state).
    /// Between samples the session's clock moves by each sample's delay: with `clock.advance`
    /// when `wait` is nil (a manual clock), else by `wait(msSinceBegan)`, which returns once
    /// that much real time has passed since the first sample (a live clock).
    public func send(to caller: any MethodCaller, session: String, wait: ((Double) -> Void)? = nil) throws(ClientError) -> JSONValue {
        var elapsed = 0.0
        var last: JSONValue = .null
        for sample in samples {
            elapsed += sample.delay
            if sample.delay > 0 {
                if let wait {
                    wait(elapsed)
                } else {
                    _ = try caller.call("clock.advance", ["session": .string(session), "ms": .number(sample.delay)])
                }
            }
            var params = sample.params
            params["session"] = .string(session)
            last = try caller.call("gesture.pan", params)
        }
        return last
    }
}
