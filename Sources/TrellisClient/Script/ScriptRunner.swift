/// Runs a parsed script: each command through `execute` (the real CLI commands, supplied by
/// the `trellis` executable), each expectation against `caller`, and turns what happened into
/// tests, reported one by one as they finish.
///
/// A command that fails without an `expect-error` after it is a failed test; the script goes
/// on (a refused command changes nothing, so later checks still mean something) unless it was
/// `new`: the rest of the file would then drive a session it did not create (on a shared
/// server, perhaps someone else's), so the run bails out there.
public struct ScriptRunner {
    public var caller: any MethodCaller
    public var execute: ([String]) -> CommandOutcome
    /// Told about every command and its outcome (for `--verbose` logs).
    public var onCommand: (ScriptStep, CommandOutcome) -> Void = { _, _ in }

    public init(caller: any MethodCaller, execute: @escaping ([String]) -> CommandOutcome) {
        self.caller = caller
        self.execute = execute
    }

    /// Commands whose unexpected failure ends the run: the sessions the script needs.
    public static let bailingCommands: Set<String> = ["new"]

    @discardableResult
    public func run(_ script: Script, report: (TestResult) -> Void = { _ in }) -> ScriptOutcome {
        var outcome = ScriptOutcome()
        let check = ExpectationCheck(caller: caller, scriptPath: script.file)
        func add(_ result: TestResult) {
            outcome.results.append(result)
            report(result)
        }
        for step in script.steps {
            switch step.action {
            case .expect(let expectation):
                let outcome = check.evaluate(expectation)
                add(TestResult(location: step.location, name: step.text, passed: outcome.passed,
                               expected: outcome.expected, actual: outcome.actual))
            case .command(let words, let expectedError):
                let result = execute(words)
                onCommand(step, result)
                if let expectedError {
                    add(Self.judge(result, expectedError, command: step))
                } else if let failure = result.failure {
                    add(TestResult(location: step.location, name: step.text, passed: false,
                                   expected: "success", actual: "\(failure.code): \(failure.message)", output: result.output))
                    if let command = words.first, Self.bailingCommands.contains(command) {
                        outcome.bailOut = "\(step.location): '\(step.text)' failed, and the rest of the file would drive a session it did not create"
                        return outcome
                    }
                }
            }
        }
        return outcome
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

/// What running one script gave: its tests, and why it stopped early when it did.
public struct ScriptOutcome: Sendable {
    public var results: [TestResult] = []
    /// TAP's `Bail out!` reason: the script could not go on without changing what it did not make.
    public var bailOut: String?

    public init() {}
}
