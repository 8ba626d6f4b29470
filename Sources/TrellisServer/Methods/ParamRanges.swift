import TrellisCore
import TrellisProtocol

// The ranges themselves are TrellisProtocol's `ParamRanges`, shared with the clients that check
// their values before sending; here, reading a request's numbers against them.

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
