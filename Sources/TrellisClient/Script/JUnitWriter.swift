/// Writes results as JUnit XML, the report format CI systems read: one `<testsuite>` per
/// script file, one `<testcase>` per test, a `<failure>` with the diagnostics for each failed
/// one. No timings, so the same run gives the same file.
public enum JUnitWriter {
    /// One script's results, in script order.
    public struct Suite: Hashable, Sendable {
        public var file: String
        public var results: [TestResult]

        public init(file: String, results: [TestResult]) {
            self.file = file
            self.results = results
        }
    }

    public static func document(_ suites: [Suite]) -> String {
        let tests = suites.reduce(0) { $0 + $1.results.count }
        let failures = suites.reduce(0) { $0 + $1.results.filter { !$0.passed }.count }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"trellis run\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for suite in suites {
            let suiteFailures = suite.results.filter { !$0.passed }.count
            xml += "  <testsuite name=\"\(escape(suite.file))\" tests=\"\(suite.results.count)\" failures=\"\(suiteFailures)\" errors=\"0\" skipped=\"0\">\n"
            for result in suite.results {
                let attributes = "name=\"\(escape("\(result.location.line): \(result.name)"))\" classname=\"\(escape(suite.file))\" file=\"\(escape(result.location.file))\" line=\"\(result.location.line)\""
                guard !result.passed else {
                    xml += "    <testcase \(attributes)/>\n"
                    continue
                }
                var body = "at: \(result.location)\nexpected: \(result.expected)\nactual: \(result.actual)"
                if !result.output.isEmpty { body += "\noutput:\n" + result.output.joined(separator: "\n") }
                xml += "    <testcase \(attributes)>\n"
                xml += "      <failure message=\"\(escape("expected \(result.expected), found \(result.actual)"))\">\(escape(body))</failure>\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// Text as XML character data or an attribute value. Control characters XML 1.0 cannot
    /// carry at all become U+FFFD rather than making the file unreadable.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t", "\r": out += "&#\(scalar.value);"
            default:
                out.unicodeScalars.append(scalar.value < 0x20 ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }
}
