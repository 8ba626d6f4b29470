import TrellisCore
import TrellisProtocol

/// Compares two JSON values structurally, numbers within a tolerance (a scene computed through
/// sin/cos differs in its last digits between machines), and names the first difference.
public enum JSONComparison {
    /// A difference: where (`views[3].frame[1]`), and the two values there as JSON.
    public struct Difference: Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var expected: String
        public var actual: String

        public init(path: String, expected: String, actual: String) {
            self.path = path
            self.expected = expected
            self.actual = actual
        }

        public var description: String { "\(path): expected \(expected), found \(actual)" }
    }

    /// The first difference in document order (object keys sorted), or nil when they match.
    public static func firstDifference(expected: JSONValue, actual: JSONValue, tolerance: Double, path: String = "scene") -> Difference? {
        switch (expected, actual) {
        case (.number(let a), .number(let b)):
            return abs(a - b) <= tolerance ? nil : difference(path, expected, actual)
        case (.array(let a), .array(let b)):
            for (index, (x, y)) in zip(a, b).enumerated() {
                if let d = firstDifference(expected: x, actual: y, tolerance: tolerance, path: "\(path)[\(index)]") { return d }
            }
            guard a.count == b.count else {
                return Difference(path: "\(path).count", expected: String(a.count), actual: String(b.count))
            }
            return nil
        case (.object(let a), .object(let b)):
            for key in Set(a.keys).union(b.keys).sorted() {
                let child = "\(path).\(key)"
                switch (a[key], b[key]) {
                case (let x?, let y?):
                    if let d = firstDifference(expected: x, actual: y, tolerance: tolerance, path: child) { return d }
                case (let x?, nil):
                    return Difference(path: child, expected: JSONWriter.string(x), actual: "(missing)")
                case (nil, let y?):
                    return Difference(path: child, expected: "(missing)", actual: JSONWriter.string(y))
                case (nil, nil):
                    break
                }
            }
            return nil
        default:
            return expected == actual ? nil : difference(path, expected, actual)
        }
    }

    private static func difference(_ path: String, _ expected: JSONValue, _ actual: JSONValue) -> Difference {
        Difference(path: path, expected: JSONWriter.string(expected), actual: JSONWriter.string(actual))
    }
}
