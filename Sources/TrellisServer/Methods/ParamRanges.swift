import TrellisCore
import TrellisProtocol

/// The documented range of every number a method takes besides layouts' and animations' own
/// (PROTOCOL.md, "Numbers and ranges"): finite and inside these, or refused by key path with the
/// range, so nothing huge reaches the engine and nothing non-finite comes back out of it.
enum ParamRanges {
    /// Content coordinates: offsets and points (points).
    static let coordinate: ClosedRange<Double> = -1e9...1e9
    /// A query rect's origin and size (points): room for a rect around every coordinate.
    static let queryRect: ClosedRange<Double> = -1e10...1e10
    /// The view's bounds (points; above 0).
    static let bounds: ClosedRange<Double> = 0...layoutLengthLimit
    /// Content insets (points).
    static let inset: ClosedRange<Double> = -layoutLengthLimit...layoutLengthLimit
    /// An interactive transition's progress: UIKit stores it unclamped and extrapolates; ten
    /// times past either end is as far as a drag could sensibly go (ours).
    static let progress: ClosedRange<Double> = -10...10
    /// A pan's cumulative translation (points) and a release velocity (points per second).
    static let panTranslation: ClosedRange<Double> = -1e6...1e6
    static let panVelocity: ClosedRange<Double> = -1e6...1e6
    /// One manual clock step (milliseconds): an hour.
    static let clockStep: ClosedRange<Double> = 0...3_600_000

    /// `0 to 1000000`, whole numbers without a decimal point.
    static func text(_ range: ClosedRange<Double>) -> String { "\(text(range.lowerBound)) to \(text(range.upperBound))" }
    static func text(_ n: Double) -> String { n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : "\(n)" }
}

extension MethodContext {
    /// `params[key]`, a number inside `range`.
    func number(_ key: String, in range: ClosedRange<Double>) throws(RPCError) -> Double {
        let n = try number(key)
        guard range.contains(n) else {
            throw .invalidParams("params.\(key): expected a number from \(ParamRanges.text(range)), found \(n)")
        }
        return n
    }

    /// `params[key]`, a number inside `range`, or nil when absent.
    func optionalNumber(_ key: String, in range: ClosedRange<Double>) throws(RPCError) -> Double? {
        guard params.field(key) != nil, params.field(key) != .null else { return nil }
        return try number(key, in: range)
    }

    /// `params[key]`, numbers named by `labels`, each inside `range` (and above 0 when `positive`).
    func numbers(_ key: String, _ labels: [String], in range: ClosedRange<Double>, positive: Bool = false) throws(RPCError) -> [Double] {
        try Self.check(try numbers(key, labels), key, labels, range, positive)
    }

    /// As `numbers(_:_:in:positive:)`, nil when the key is absent.
    func optionalNumbers(_ key: String, _ labels: [String], in range: ClosedRange<Double>, positive: Bool = false) throws(RPCError) -> [Double]? {
        guard let values = try optionalNumbers(key, labels) else { return nil }
        return try Self.check(values, key, labels, range, positive)
    }

    private static func check(_ values: [Double], _ key: String, _ labels: [String], _ range: ClosedRange<Double>,
                              _ positive: Bool) throws(RPCError) -> [Double] {
        guard values.allSatisfy({ range.contains($0) && (!positive || $0 > 0) }) else {
            let which = labels.joined(separator: ", ")
            let bounds = positive ? "above 0 and at most \(ParamRanges.text(range.upperBound))" : "from \(ParamRanges.text(range))"
            throw .invalidParams("params.\(key): expected \(which) \(bounds), found [\(values.map { "\($0)" }.joined(separator: ", "))]")
        }
        return values
    }
}
