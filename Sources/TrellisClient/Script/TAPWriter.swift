/// Writes results as TAP version 13 (testanything.org): `ok`/`not ok` lines numbered from 1,
/// a YAML block under each failure, `# ` comments for anything else, the plan `1..N` last
/// (TAP allows a trailing plan, so results stream as the script runs).
public struct TAPWriter {
    public private(set) var count = 0

    public init() {}

    public var header: String { "TAP version 13" }

    /// The line (and for a failure, its diagnostic block) for the next test.
    public mutating func lines(for result: TestResult) -> [String] {
        count += 1
        let status = result.passed ? "ok" : "not ok"
        var lines = ["\(status) \(count) - \(Self.escape(result.name)) (\(result.location))"]
        guard !result.passed else { return lines }
        lines.append("  ---")
        lines.append("  at: \(Self.yamlScalar(result.location.description))")
        lines.append("  expected: \(Self.yamlScalar(result.expected))")
        lines.append("  actual: \(Self.yamlScalar(result.actual))")
        if !result.output.isEmpty {
            lines.append("  output: |")
            for line in result.output { lines.append("    " + line) }
        }
        lines.append("  ...")
        return lines
    }

    /// Free text (a command's output) as TAP comments, which consumers ignore.
    public static func comments(_ text: [String]) -> [String] { text.map { "# " + $0 } }

    public var plan: String { "1..\(count)" }

    /// The line that ends a run early; TAP consumers stop reading there, plan or no plan.
    public static func bailOut(_ reason: String) -> String { "Bail out! " + reason }

    /// `#` starts a directive (SKIP, TODO) in a test line's description; TAP's escape is `\#`.
    static func escape(_ name: String) -> String {
        name.replacingAll("\\", with: "\\\\").replacingAll("#", with: "\\#")
    }

    /// A YAML double-quoted scalar: always valid, whatever the text holds.
    static func yamlScalar(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 { out += "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}

extension String {
    /// Every occurrence of `target` replaced (the library does not link Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
