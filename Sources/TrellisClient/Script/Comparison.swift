/// An assertion's operator: `==` (also written `=`), `!=`, `<=`, `>=`, `<`, `>`.
public enum Comparison: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
    case less = "<"
    case greater = ">"

    /// Whether `actual OP expected` holds; equality allows `tolerance` either way.
    public func holds(_ actual: Double, _ expected: Double, tolerance: Double = 0) -> Bool {
        switch self {
        case .equal: return abs(actual - expected) <= tolerance
        case .notEqual: return abs(actual - expected) > tolerance
        case .lessOrEqual: return actual <= expected + tolerance
        case .greaterOrEqual: return actual >= expected - tolerance
        case .less: return actual < expected
        case .greater: return actual > expected
        }
    }

    /// Splits `key<op>value` at its first operator (`pool.cell.created<=20`); nil when the
    /// word has none. A single `=` reads as `==`.
    public static func split(_ word: String) -> (key: String, comparison: Comparison, value: String)? {
        guard let index = word.firstIndex(where: { "=!<>".contains($0) }) else { return nil }
        let key = String(word[..<index])
        let rest = word[index...]
        // Two-character operators first, so "<=" is not read as "<" followed by "=…".
        for comparison in [Comparison.equal, .notEqual, .lessOrEqual, .greaterOrEqual] where rest.hasPrefix(comparison.rawValue) {
            return (key, comparison, String(rest.dropFirst(2)))
        }
        switch rest.first {
        case "=": return (key, .equal, String(rest.dropFirst()))
        case "<": return (key, .less, String(rest.dropFirst()))
        case ">": return (key, .greater, String(rest.dropFirst()))
        default: return nil  // a lone "!"
        }
    }
}
