import TrellisCore
import TrellisProtocol

/// A command-line value outside the range the server documents for it, found before anything
/// was sent: the CLI refuses it as the server would (exit 65), but before a gesture began.
public struct RangeError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The ranges of the numbers the CLI's gestures send (`drag`, `fling`, `touch`, `tap`), read
/// from the protocol's own `ParamRanges` so they cannot drift from what the server refuses,
/// plus the longest drag. Every value is checked before the first sample: a refusal halfway
/// would leave the session mid-pan.
public enum GestureRanges {
    /// A pan's translation in the view, points.
    public static let translation = ParamRanges.panTranslation
    /// A pan's release velocity, pt/s.
    public static let velocity = ParamRanges.panVelocity
    /// A touch-down location in the view, a touch's or a tap's point, points.
    public static let point = ParamRanges.coordinate
    /// The longest drag, ms: 10 minutes. As long as the longest animation the protocol takes
    /// (`duration` 600 s); 36,000 samples, which a manual clock runs through in well under a
    /// minute. Longer is a mistake in the units, not a finger.
    public static let longestDrag = 600_000.0

    /// `value` (read from `text`, given as `option`) when both coordinates are inside `range`;
    /// `names` and `unit` say what they are in the message.
    @discardableResult
    public static func check(_ value: Point, in range: ClosedRange<Double>, option: String, text: String,
                             names: String = "x and y", unit: String) throws(RangeError) -> Point {
        guard range.contains(value.x), range.contains(value.y) else {
            throw RangeError("\(option) '\(text)': \(names) must each be from \(ParamRanges.text(range)) \(unit), found \(format(value))")
        }
        return value
    }

    /// A drag's duration `ms` (read from `text`, given as `option`) when it is at most the
    /// longest drag.
    @discardableResult
    public static func checkDuration(_ ms: Double, option: String, text: String) throws(RangeError) -> Double {
        guard ms <= longestDrag else {
            throw RangeError("\(option) '\(text)': a drag takes at most \(ParamRanges.text(longestDrag))ms (10 minutes), found \(JSONNumberText.format(ms))ms")
        }
        return ms
    }

    /// The velocity a drag releases at when none was given (its translation over its rounded
    /// duration) must be sendable too: a long way in a short time is refused, with what to change.
    public static func checkOwnVelocity(of gesture: PanGesture) throws(RangeError) {
        let v = gesture.releaseVelocity
        guard velocity.contains(v.x), velocity.contains(v.y) else {
            throw RangeError("--by over --over releases the finger at \(format(v)) pt/s, outside \(ParamRanges.text(velocity)) pt/s per axis: drag for longer, or give --release-velocity")
        }
    }

    static func format(_ p: Point) -> String { "\(JSONNumberText.format(p.x)),\(JSONNumberText.format(p.y))" }
}
