import TrellisCore
import TrellisProtocol

/// The `gesture.pan` samples of a scripted finger (`trellis drag`, `trellis fling`, the
/// viewer's fling keys): what UIPanGestureRecognizer reports for a finger moving at constant
/// speed, one sample per frame at 60 Hz.
///
/// A drag whose duration is not a whole number of frames is rounded to the nearest whole
/// number (at least one), so every sample stays one frame apart on the session's clock; its
/// default release velocity is its own (translation over the rounded duration).
///
/// The gesture is its parameters, and the samples a sequence made from them one at a time as
/// they are sent: a drag of any length costs the same memory as a flick.
public struct PanGesture: Hashable, Sendable, Sequence {
    /// One `gesture.pan` request and how long the clock moves before it is sent.
    public struct Sample: Hashable, Sendable {
        /// Milliseconds of the session's clock between the previous sample and this one.
        public var delay: Double
        /// began, changed, ended (or cancelled, when a gesture is cut short).
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

    /// The finger's whole translation in the view, points: where the last changed leaves it.
    public var translation: Point
    /// Frames of movement: the number of changed samples, at least one.
    public var frames: Int
    /// The finger's velocity at release, pt/s in the view.
    public var releaseVelocity: Point
    /// Where the finger touches down in the view; nil: the view's centre.
    public var location: Point?

    public init(translation: Point, frames: Int, releaseVelocity: Point, location: Point? = nil) {
        self.translation = translation
        self.frames = Swift.max(1, frames)
        self.releaseVelocity = releaseVelocity
        self.location = location
    }

    /// Whole frames in `duration` ms, rounded, at least one. A duration no drag could take
    /// (not finite, or past Int) saturates instead of trapping: the caller bounds it first.
    public static func frames(in duration: Double) -> Int {
        let n = (duration / frame).rounded()
        guard n.isFinite, n >= 1 else { return 1 }
        return n < 1e15 ? Int(n) : Int(1e15)
    }

    /// A drag by `translation` at constant speed over `duration` ms (rounded to whole frames):
    /// began at 0, one changed per frame, ended at once after the last with `releaseVelocity`
    /// (default: the drag's own velocity).
    public static func drag(by translation: Point, over duration: Double, releaseVelocity: Point? = nil) -> PanGesture {
        let frames = frames(in: duration)
        let seconds = Double(frames) / 60
        let velocity = releaseVelocity ?? Point(translation.x / seconds, translation.y / seconds)
        return PanGesture(translation: translation, frames: frames, releaseVelocity: velocity)
    }

    /// A flick: began, one changed of a frame's worth of `velocity`, ended with `velocity`.
    public static func fling(velocity: Point) -> PanGesture {
        PanGesture(translation: Point(velocity.x / 60, velocity.y / 60), frames: 1, releaseVelocity: velocity)
    }

    /// The same gesture with the finger touching down at `location` in the view.
    public func touchingDown(at location: Point?) -> PanGesture {
        var copy = self
        if let location { copy.location = location }
        return copy
    }

    /// How many samples the gesture sends: began, one changed a frame, ended.
    public var underestimatedCount: Int { frames + 2 }

    public func makeIterator() -> Iterator { Iterator(gesture: self) }

    /// The samples in order, each made when it is asked for: began, changed…, ended.
    public struct Iterator: IteratorProtocol, Sendable {
        let gesture: PanGesture
        /// The next sample's index: 0 began, 1…frames changed, frames + 1 ended.
        var index = 0

        public mutating func next() -> Sample? {
            let k = index
            guard k <= gesture.frames + 1 else { return nil }
            index += 1
            if k == 0 { return Sample(delay: 0, phase: "began", translation: Point(0, 0), location: gesture.location) }
            if k > gesture.frames {
                return Sample(delay: 0, phase: "ended", translation: gesture.translation, velocity: gesture.releaseVelocity)
            }
            let f = Double(k) / Double(gesture.frames)
            return Sample(delay: PanGesture.frame, phase: "changed",
                          translation: Point(gesture.translation.x * f, gesture.translation.y * f))
        }
    }
}
