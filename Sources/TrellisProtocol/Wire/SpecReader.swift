import TrellisCore
import TrellisGeometry

/// Reads one object of a request (a behaviour, a region, a boundary) by key path: every key
/// checked against the known ones, every number finite and inside its documented range,
/// refused with the path and the range otherwise.
public struct SpecReader {
    public let value: JSONValue
    public let path: String

    public init(_ value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    public func allow(_ keys: [String]) throws(ParamError) {
        _ = try value.requireObjectMembers(path: path)
        try value.rejectUnknownKeys(allowed: keys, path: path)
    }

    public func has(_ key: String) -> Bool {
        if let v = value.field(key), v != .null { return true }
        return false
    }

    public func number(_ key: String, _ range: ClosedRange<Double>, default fallback: Double) throws(ParamError) -> Double {
        guard let n = try value.optionalNumber(key, in: path) else { return fallback }
        return try Self.check(n, range, path: "\(path).\(key)")
    }

    public func requireNumber(_ key: String, _ range: ClosedRange<Double>) throws(ParamError) -> Double {
        try Self.check(try value.requireNumber(key, in: path), range, path: "\(path).\(key)")
    }

    /// `key`'s number inside `range`, or nil when absent (or null).
    public func optionalNumber(_ key: String, _ range: ClosedRange<Double>) throws(ParamError) -> Double? {
        has(key) ? try requireNumber(key, range) : nil
    }

    /// `key`'s numbers named by `labels`, each inside `range` (and above 0 when `positive`),
    /// refused as one value: a method's size, point or insets.
    public func requireNumbers(_ key: String, _ labels: [String], in range: ClosedRange<Double>, positive: Bool = false) throws(ParamError) -> [Double] {
        try check(try value.requireNumbers(key, count: labels.count, labels: labels, in: path), key, labels, range, positive)
    }

    /// As `requireNumbers(_:_:in:positive:)`, nil when the key is absent.
    public func optionalNumbers(_ key: String, _ labels: [String], in range: ClosedRange<Double>, positive: Bool = false) throws(ParamError) -> [Double]? {
        guard let values = try value.optionalNumbers(key, count: labels.count, labels: labels, in: path) else { return nil }
        return try check(values, key, labels, range, positive)
    }

    private func check(_ values: [Double], _ key: String, _ labels: [String], _ range: ClosedRange<Double>,
                       _ positive: Bool) throws(ParamError) -> [Double] {
        guard values.allSatisfy({ range.contains($0) && (!positive || $0 > 0) }) else {
            let bounds = positive ? "above 0 and at most \(ParamRanges.text(range.upperBound))" : "from \(ParamRanges.text(range))"
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "\(labels.joined(separator: ", ")) \(bounds)",
                                                              found: "[\(values.map { "\($0)" }.joined(separator: ", "))]"))
        }
        return values
    }

    public func int(_ key: String, _ range: ClosedRange<Int>, default fallback: Int) throws(ParamError) -> Int {
        guard let n = try value.optionalInt(key, in: path) else { return fallback }
        guard range.contains(n) else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a whole number from \(range.lowerBound) to \(range.upperBound)", found: "\(n)"))
        }
        return n
    }

    public func bool(_ key: String, default fallback: Bool) throws(ParamError) -> Bool {
        try value.optionalBool(key, in: path) ?? fallback
    }

    public func string(_ key: String) throws(ParamError) -> String? { try value.optionalString(key, in: path) }

    /// `[x, y]`.
    public func point(_ key: String, _ range: ClosedRange<Double>) throws(ParamError) -> Point? {
        guard let p = try pair(key, ["x", "y"], range) else { return nil }
        return Point(p[0], p[1])
    }

    /// `[dx, dy]`.
    public func vector(_ key: String, _ range: ClosedRange<Double>) throws(ParamError) -> Vector? {
        guard let p = try pair(key, ["dx", "dy"], range) else { return nil }
        return Vector(p[0], p[1])
    }

    /// `[width, height]`, each above 0.
    public func size(_ key: String, _ range: ClosedRange<Double>) throws(ParamError) -> Size? {
        guard let p = try pair(key, ["width", "height"], range) else { return nil }
        guard p[0] > 0, p[1] > 0 else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "width and height above 0", found: "[\(p[0]), \(p[1])]"))
        }
        return Size(p[0], p[1])
    }

    /// `[x, y, width, height]`, width and height not negative.
    public func rect(_ key: String, _ range: ClosedRange<Double>) throws(ParamError) -> Rect? {
        guard let r = try numbers(key, ["x", "y", "width", "height"], range) else { return nil }
        guard r[2] >= 0, r[3] >= 0 else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a width and height of at least 0", found: "[\(r.map { "\($0)" }.joined(separator: ", "))]"))
        }
        return Rect(r[0], r[1], r[2], r[3])
    }

    public func numbers(_ key: String, _ labels: [String], _ range: ClosedRange<Double>) throws(ParamError) -> [Double]? {
        guard let values = try value.optionalNumbers(key, count: labels.count, labels: labels, in: path) else { return nil }
        for (k, n) in values.enumerated() { _ = try Self.check(n, range, path: "\(path).\(key)[\(k)]") }
        return values
    }

    private func pair(_ key: String, _ labels: [String], _ range: ClosedRange<Double>) throws(ParamError) -> [Double]? {
        try numbers(key, labels, range)
    }

    /// One of `choices`, or `fallback` when absent.
    public func choice(_ key: String, _ choices: [String], default fallback: String) throws(ParamError) -> String {
        guard let text = try value.optionalString(key, in: path) else { return fallback }
        guard choices.contains(text) else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))", found: "\"\(text)\""))
        }
        return text
    }

    /// `key`'s dynamics step rate: a JSON number that is one of `ParamRanges.dynamicsStepRates`
    /// (a string, a fraction, any other number refused with what is expected).
    public func requireStepRate(_ key: String) throws(ParamError) -> Int {
        let keyPath = "\(path).\(key)"
        let expected = "\(ParamRanges.dynamicsStepRatesText) (steps per second)"
        guard let found = value.field(key), found != .null else { throw ParamError(path: keyPath, .missing(expected: expected)) }
        guard case .number(let n) = found, let rate = ParamRanges.dynamicsStepRates.first(where: { Double($0) == n }) else {
            var description = found.kindDescription
            if case .string(let text) = found {
                description = "a string (\(JSONWriter.string(.string(String(text.prefix(32))))))"
                if ParamRanges.dynamicsStepRates.contains(where: { String($0) == text }) { description += "; send it as a number, without quotes" }
            }
            throw ParamError(path: keyPath, .mismatch(expected: expected, found: description))
        }
        return rate
    }

    /// As `requireStepRate(_:)`, nil when absent (or null).
    public func optionalStepRate(_ key: String) throws(ParamError) -> Int? {
        has(key) ? try requireStepRate(key) : nil
    }

    public func object(_ key: String) throws(ParamError) -> SpecReader? {
        guard let v = try value.optionalObject(key, in: path) else { return nil }
        return SpecReader(v, path: "\(path).\(key)")
    }

    public func array(_ key: String) throws(ParamError) -> [JSONValue]? { try value.optionalArray(key, in: path) }

    static func check(_ n: Double, _ range: ClosedRange<Double>, path: String) throws(ParamError) -> Double {
        guard range.contains(n) else {
            throw ParamError(path: path, .mismatch(expected: "a number from \(ParamRanges.text(range))", found: "\(n)"))
        }
        return n
    }
}
