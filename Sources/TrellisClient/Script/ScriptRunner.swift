/// Runs a parsed script: each command through `execute` (the real CLI commands, supplied by
/// the `trellis` executable), each expectation against `caller`, and turns what happened into
/// tests, reported one by one as they finish.
///
/// A command that fails without an `expect-error` after it is a failed test; the script goes
/// on (a refused command changes nothing, so later checks still mean something).
public struct ScriptRunner {
    public var caller: any MethodCaller
    public var execute: ([String]) -> CommandOutcome
    /// Told about every command and its outcome (for `--verbose` logs).
    public var onCommand: (ScriptStep, CommandOutcome) -> Void = { _, _ in }

    public init(caller: any MethodCaller, execute: @escaping ([String]) -> CommandOutcome) {
        self.caller = caller
        self.execute = execute
    }

    @discardableResult
    public func run(_ script: Script, report: (TestResult) -> Void = { _ in }) -> [TestResult] {
        var results: [TestResult] = []
        let check = ExpectationCheck(caller: caller, scriptPath: script.file)
        func add(_ result: TestResult) {
            results.append(result)
            report(result)
        }
        for step in script.steps {
            switch step.action {
            case .expect(let expectation):
                let outcome = check.evaluate(expectation)
                add(TestResult(location: step.location, name: step.text, passed: outcome.passed,
                               expected: outcome.expected, actual: outcome.actual))
            case .command(let words, let expectedError):
                let outcome = execute(words)
                onCommand(step, outcome)
                if let expectedError {
                    add(Self.judge(outcome, expectedError, command: step))
                } else if let failure = outcome.failure {
                    add(TestResult(location: step.location, name: step.text, passed: false,
                                   expected: "success", actual: "\(failure.code): \(failure.message)", output: outcome.output))
                }
            }
        }
        return results
    }

    static func judge(_ outcome: CommandOutcome, _ expected: ExpectedError, command: ScriptStep) -> TestResult {
        let wanted = expected.code + (expected.substring.map { " \"\($0)\"" } ?? "")
        let name = "\(expected.text) after \(command.text)"
        guard let failure = outcome.failure else {
            return TestResult(location: expected.location, name: name, passed: false, expected: wanted,
                              actual: "the command succeeded", output: outcome.output)
        }
        let passed = failure.matches(code: expected.code) && (expected.substring.map { failure.message.contains($0) } ?? true)
        return TestResult(location: expected.location, name: name, passed: passed, expected: wanted,
                          actual: "\(failure.code) \"\(failure.message)\"", output: passed ? [] : outcome.output)
    }
}
