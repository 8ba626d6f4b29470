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
            xml += "  <testsuite name=\"\(XMLText.escape(suite.file))\" tests=\"\(suite.results.count)\" failures=\"\(suiteFailures)\" errors=\"0\" skipped=\"0\">\n"
            for result in suite.results {
                let attributes = "name=\"\(XMLText.escape("\(result.location.line): \(result.name)"))\" classname=\"\(XMLText.escape(suite.file))\" file=\"\(XMLText.escape(result.location.file))\" line=\"\(result.location.line)\""
                guard !result.passed else {
                    xml += "    <testcase \(attributes)/>\n"
                    continue
                }
                var body = "at: \(result.location)\nexpected: \(result.expected)\nactual: \(result.actual)"
                if !result.output.isEmpty { body += "\noutput:\n" + result.output.joined(separator: "\n") }
                xml += "    <testcase \(attributes)>\n"
                xml += "      <failure message=\"\(XMLText.escape("expected \(result.expected), found \(result.actual)"))\">\(XMLText.escape(body))</failure>\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

}
