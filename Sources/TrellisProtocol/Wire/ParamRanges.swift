import TrellisCore

/// The documented range of every number a method takes besides layouts' and animations' own
/// (PROTOCOL.md, "Ranges"). Both ends read them from here: the server refuses a number outside
/// them, and a client checks its own values before it sends, so a refusal never comes halfway
/// through a gesture.
public enum ParamRanges {
    /// Content coordinates: offsets and points (points), a pan's touch-down location too.
    public static let coordinate: ClosedRange<Double> = -1e9...1e9
    /// A query rect's origin and size (points): room for a rect around every coordinate.
    public static let queryRect: ClosedRange<Double> = -1e10...1e10
    /// Elements one `query.attributes` rect reply may carry (`limit`): a page of 20,000 is
    /// written in about 10 ms (2.6 MB), inside the 20 ms a request may hold the loop; 40,000
    /// took 44 ms. A rect over more is answered a page at a time.
    public static let queryLimit: ClosedRange<Int> = 1...20_000
    /// The page when `limit` is not given: more than any screen shows, about 1.3 MB of reply.
    public static let queryLimitDefault = 10_000
    /// A section or item index a request names as a position (`query.attributes`' `after`):
    /// past any data a server holds, and exact in a double.
    public static let elementIndexMaximum = 1_000_000_000_000
    /// The view's bounds (points; above 0).
    public static let bounds: ClosedRange<Double> = 0...layoutLengthLimit
    /// Content insets (points).
    public static let inset: ClosedRange<Double> = -layoutLengthLimit...layoutLengthLimit
    /// An interactive transition's progress: UIKit stores it unclamped and extrapolates; ten
    /// times past either end is as far as a drag could sensibly go (ours).
    public static let progress: ClosedRange<Double> = -10...10
    /// A pan's cumulative translation (points) and a release velocity (points per second).
    public static let panTranslation: ClosedRange<Double> = -1e6...1e6
    public static let panVelocity: ClosedRange<Double> = -1e6...1e6
    /// One manual clock step (milliseconds): an hour.
    public static let clockStep: ClosedRange<Double> = 0...3_600_000
    /// The animator's step rates (steps per second; UIKit Dynamics' 60 is the default): a
    /// choice, not a range, so any other number, however close, is refused.
    public static let dynamicsStepRates = CollectionView.dynamicsStepRates
    /// `one of 60, 120, 240`, as messages and help say it.
    public static var dynamicsStepRatesText: String { "one of " + dynamicsStepRates.map(String.init).joined(separator: ", ") }

    /// `0 to 1000000`, whole numbers without a decimal point.
    public static func text(_ range: ClosedRange<Double>) -> String { "\(text(range.lowerBound)) to \(text(range.upperBound))" }
    public static func text(_ n: Double) -> String { n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : "\(n)" }
}
