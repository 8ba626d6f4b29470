import TrellisCore

/// A request parameter that is missing, of the wrong kind, or not recognised, with the key path
/// and what was expected, e.g.
/// `params.bounds: expected an array of 2 numbers [width, height], found a string`.
/// The server answers it with JSON-RPC error -32602 (invalid params) and `message`.
public struct ParamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the value at `path`.
    public enum Kind: Hashable, Sendable {
        /// A required key is absent (or null).
        case missing(expected: String)
        /// The value is there but is not what was expected; `found` describes it.
        case mismatch(expected: String, found: String)
        /// An object has a key nobody reads; `known` lists the accepted ones.
        case unknownKey(String, known: [String])
        /// The value is well formed but not allowed here; `reason` says why and what to do.
        case refused(String)
    }

    /// Where: `params.bounds`, `params.items[3].id`; for unknown keys, the object's path.
    public let path: String
    public let kind: Kind

    public init(path: String, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var message: String {
        switch kind {
        case .missing(let expected):
            return "\(path): missing, expected \(expected)"
        case .mismatch(let expected, let found):
            return "\(path): expected \(expected), found \(found)"
        case .unknownKey(let key, let known):
            var text = "unknown key '\(key)' in \(path)"
            if let guess = ParamError.closest(to: key, among: known) { text += " (did you mean '\(guess)'?)" }
            text += known.isEmpty ? "; it takes no keys" : "; known keys: \(known.joined(separator: ", "))"
            return text
        case .refused(let reason):
            return "\(path): \(reason)"
        }
    }

    public var description: String { message }

    /// The known key within edit distance 2 of a misspelt one, if there is exactly one best.
    static func closest(to key: String, among known: [String]) -> String? {
        let target = Array(key.unicodeScalars)
        var best: (name: String, distance: Int)?
        var tie = false
        for name in known {
            let distance = editDistance(target, Array(name.unicodeScalars))
            guard distance <= 2, distance < target.count else { continue }
            if best == nil || distance < best!.distance {
                best = (name, distance)
                tie = false
            } else if distance == best!.distance {
                tie = true
            }
        }
        return tie ? nil : best?.name
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// Typed reads of request parameters that fail with a `ParamError` naming the key path.
///
/// The receiver is an object (usually `params`); `path` is its own path, used in messages
/// (`"params"` by default, `"params.layout"` for a nested object). An explicit `null` counts
/// as absent: `optional…` returns nil for it and `require…` reports it missing.
extension JSONValue {
    /// The member `key` as it is (null included), or nil when absent or not an object.
    public func field(_ key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// How a value reads in an error message: "a string", "a number (1.5)", "null", …
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return "a boolean (\(flag))"
        case .number(let number): return "a number (\(JSONWriter.string(.number(number))))"
        case .string: return "a string"
        case .array(let elements): return elements.count == 1 ? "an array of 1 element" : "an array of \(elements.count) elements"
        case .object: return "an object"
        }
    }

    /// The members of this value, which must be an object (e.g. the whole `params`).
    public func requireObjectMembers(path: String = "params") throws(ParamError) -> [String: JSONValue] {
        guard case .object(let members) = self else {
            throw ParamError(path: path, .mismatch(expected: "an object", found: kindDescription))
        }
        return members
    }

    /// Fails on any key outside `allowed`, so a typo is reported instead of silently ignored.
    /// Keys are checked in sorted order so the message is deterministic.
    /// `allowed` is a short array rather than a set: every request checks its params, and a
    /// set literal was built and hashed each time to look up a handful of keys.
    public func rejectUnknownKeys(allowed: [String], path: String = "params") throws(ParamError) {
        let members = try requireObjectMembers(path: path)
        // Sorting (for a stable first complaint) only when there is something to complain about.
        guard members.keys.contains(where: { !allowed.contains($0) }) else { return }
        for key in members.keys.sorted() where !allowed.contains(key) {
            throw ParamError(path: path, .unknownKey(key, known: allowed.sorted()))
        }
    }

    // MARK: Required

    public func requireNumber(_ key: String, in path: String = "params") throws(ParamError) -> Double {
        let value = try requireValue(key, in: path, expected: "a number")
        guard case .number(let number) = value else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a number", found: value.kindDescription))
        }
        return number
    }

    /// A number that is a whole value representable as `Int`.
    public func requireInt(_ key: String, in path: String = "params") throws(ParamError) -> Int {
        let value = try requireValue(key, in: path, expected: "an integer")
        return try Self.integer(value, path: "\(path).\(key)")
    }

    public func requireString(_ key: String, in path: String = "params") throws(ParamError) -> String {
        let value = try requireValue(key, in: path, expected: "a string")
        guard case .string(let text) = value else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a string", found: value.kindDescription))
        }
        return text
    }

    public func requireBool(_ key: String, in path: String = "params") throws(ParamError) -> Bool {
        let value = try requireValue(key, in: path, expected: "true or false")
        guard case .bool(let flag) = value else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "true or false", found: value.kindDescription))
        }
        return flag
    }

    public func requireArray(_ key: String, in path: String = "params") throws(ParamError) -> [JSONValue] {
        let value = try requireValue(key, in: path, expected: "an array")
        guard case .array(let elements) = value else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "an array", found: value.kindDescription))
        }
        return elements
    }

    /// A nested object, returned as a `JSONValue` so the same accessors apply to it (with
    /// `in: "\(path).\(key)"`).
    public func requireObject(_ key: String, in path: String = "params") throws(ParamError) -> JSONValue {
        let value = try requireValue(key, in: path, expected: "an object")
        guard case .object = value else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "an object", found: value.kindDescription))
        }
        return value
    }

    /// An array of exactly `count` numbers, e.g. `[width, height]`; `labels` name the elements
    /// in messages ("an array of 2 numbers [width, height]").
    public func requireNumbers(
        _ key: String, count: Int, labels: [String] = [], in path: String = "params"
    ) throws(ParamError) -> [Double] {
        var expected = count == 1 ? "an array of 1 number" : "an array of \(count) numbers"
        if !labels.isEmpty { expected += " [\(labels.joined(separator: ", "))]" }
        let value = try requireValue(key, in: path, expected: expected)
        return try Self.numbers(value, count: count, expected: expected, path: "\(path).\(key)")
    }

    // MARK: Optional

    /// The number, or nil when the key is absent or null.
    public func optionalNumber(_ key: String, in path: String = "params") throws(ParamError) -> Double? {
        guard let value = presentValue(key) else { return nil }
        guard case .number(let number) = value else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a number", found: value.kindDescription))
        }
        return number
    }

    public func optionalInt(_ key: String, in path: String = "params") throws(ParamError) -> Int? {
        guard let value = presentValue(key) else { return nil }
        return try Self.integer(value, path: "\(path).\(key)")
    }

    public func optionalString(_ key: String, in path: String = "params") throws(ParamError) -> String? {
        guard let value = presentValue(key) else { return nil }
        guard case .string(let text) = value else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a string", found: value.kindDescription))
        }
        return text
    }

    public func optionalBool(_ key: String, in path: String = "params") throws(ParamError) -> Bool? {
        guard let value = presentValue(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "true or false", found: value.kindDescription))
        }
        return flag
    }

    public func optionalArray(_ key: String, in path: String = "params") throws(ParamError) -> [JSONValue]? {
        guard let value = presentValue(key) else { return nil }
        guard case .array(let elements) = value else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "an array", found: value.kindDescription))
        }
        return elements
    }

    public func optionalObject(_ key: String, in path: String = "params") throws(ParamError) -> JSONValue? {
        guard let value = presentValue(key) else { return nil }
        guard case .object = value else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "an object", found: value.kindDescription))
        }
        return value
    }

    public func optionalNumbers(
        _ key: String, count: Int, labels: [String] = [], in path: String = "params"
    ) throws(ParamError) -> [Double]? {
        guard let value = presentValue(key) else { return nil }
        var expected = count == 1 ? "an array of 1 number" : "an array of \(count) numbers"
        if !labels.isEmpty { expected += " [\(labels.joined(separator: ", "))]" }
        return try Self.numbers(value, count: count, expected: expected, path: "\(path).\(key)")
    }

    // MARK: Helpers

    /// The member, or nil when absent or null.
    private func presentValue(_ key: String) -> JSONValue? {
        guard case .object(let members) = self, let value = members[key] else { return nil }
        if case .null = value { return nil }
        return value
    }

    private func requireValue(_ key: String, in path: String, expected: String) throws(ParamError) -> JSONValue {
        let members = try requireObjectMembers(path: path)
        guard let value = members[key], value != .null else {
            throw ParamError(path: "\(path).\(key)", .missing(expected: expected))
        }
        return value
    }

    private static func integer(_ value: JSONValue, path: String) throws(ParamError) -> Int {
        guard case .number(let number) = value else {
            throw ParamError(path: path, .mismatch(expected: "an integer", found: value.kindDescription))
        }
        // Doubles at or beyond ±2^63 do not fit in an Int.
        guard number == number.rounded(.towardZero), number >= -9.223372036854775808e18, number < 9.223372036854775808e18
        else {
            throw ParamError(path: path, .mismatch(expected: "an integer", found: value.kindDescription))
        }
        return Int(number)
    }

    private static func numbers(_ value: JSONValue, count: Int, expected: String, path: String) throws(ParamError) -> [Double] {
        guard case .array(let elements) = value, elements.count == count else {
            throw ParamError(path: path, .mismatch(expected: expected, found: value.kindDescription))
        }
        var numbers: [Double] = []
        numbers.reserveCapacity(count)
        for (index, element) in elements.enumerated() {
            guard case .number(let number) = element else {
                throw ParamError(path: "\(path)[\(index)]", .mismatch(expected: "a number", found: element.kindDescription))
            }
            numbers.append(number)
        }
        return numbers
    }
}
