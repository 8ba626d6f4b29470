/// One test of a run: an `expect`, an `expect-error`, or a command that failed when nothing
/// said it would.
public struct TestResult: Hashable, Sendable {
    public var location: ScriptLocation
    /// The script line (the test's name in TAP and JUnit).
    public var name: String
    public var passed: Bool
    /// What was expected and found, written as the script writes it.
    public var expected: String
    public var actual: String
    /// The output of the command the test is about (for `expect-error` and failed commands).
    public var output: [String]

    public init(location: ScriptLocation, name: String, passed: Bool, expected: String, actual: String, output: [String] = []) {
        self.location = location
        self.name = name
        self.passed = passed
        self.expected = expected
        self.actual = actual
        self.output = output
    }
}
