import TrellisCore
import TrellisProtocol

// A request's numbers against their documented ranges (TrellisProtocol's `ParamRanges`): the
// reading is TrellisProtocol's `SpecReader` over `params`, as for behaviours and layouts; here
// only its refusals turned into the method's error.

extension MethodContext {
    /// `params` as a spec reader (key paths start at `params`).
    var reader: SpecReader { SpecReader(params, path: "params") }

    /// `params[key]`, a number inside `range`.
    func number(_ key: String, in range: ClosedRange<Double>) throws(RPCError) -> Double {
        do { return try reader.requireNumber(key, range) } catch { throw .invalidParams(error) }
    }

    /// `params[key]`, a number inside `range`, or nil when absent.
    func optionalNumber(_ key: String, in range: ClosedRange<Double>) throws(RPCError) -> Double? {
        do { return try reader.optionalNumber(key, range) } catch { throw .invalidParams(error) }
    }

    /// `params[key]`, numbers named by `labels`, each inside `range` (and above 0 when `positive`).
    func numbers(_ key: String, _ labels: [String], in range: ClosedRange<Double>, positive: Bool = false) throws(RPCError) -> [Double] {
        do { return try reader.requireNumbers(key, labels, in: range, positive: positive) } catch { throw .invalidParams(error) }
    }

    /// As `numbers(_:_:in:positive:)`, nil when the key is absent.
    func optionalNumbers(_ key: String, _ labels: [String], in range: ClosedRange<Double>, positive: Bool = false) throws(RPCError) -> [Double]? {
        do { return try reader.optionalNumbers(key, labels, in: range, positive: positive) } catch { throw .invalidParams(error) }
    }

    /// `params[key]`, a dynamics step rate (one of `ParamRanges.dynamicsStepRates`).
    func stepRate(_ key: String) throws(RPCError) -> Int {
        do { return try reader.requireStepRate(key) } catch { throw .invalidParams(error) }
    }

    /// As `stepRate(_:)`, nil when the key is absent (or null).
    func optionalStepRate(_ key: String) throws(RPCError) -> Int? {
        do { return try reader.optionalStepRate(key) } catch { throw .invalidParams(error) }
    }

    /// `params[key]`, insets [top, left, bottom, right] each inside `ParamRanges.inset`.
    func insets(_ key: String) throws(RPCError) -> EdgeInsets {
        Self.insets(try numbers(key, Self.insetLabels, in: ParamRanges.inset))
    }

    /// As `insets(_:)`, nil when the key is absent.
    func optionalInsets(_ key: String) throws(RPCError) -> EdgeInsets? {
        try optionalNumbers(key, Self.insetLabels, in: ParamRanges.inset).map(Self.insets)
    }

    private static let insetLabels = ["top", "left", "bottom", "right"]
    private static func insets(_ i: [Double]) -> EdgeInsets { EdgeInsets(top: i[0], left: i[1], bottom: i[2], right: i[3]) }
}
