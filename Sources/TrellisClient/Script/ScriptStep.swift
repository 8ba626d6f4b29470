/// One thing a script does: run a command (perhaps expected to fail), or check an expectation.
public struct ScriptStep: Hashable, Sendable {
    /// What the step does.
    public enum Action: Hashable, Sendable {
        /// A `trellis` command's words without the leading `trellis`, and the `expect-error`
        /// line that follows it, when there is one.
        case command([String], expectedError: ExpectedError?)
        /// An `expect` line.
        case expect(Expectation)
    }

    public var location: ScriptLocation
    /// The line as written, without surrounding spaces (the test's name in reports).
    public var text: String
    public var action: Action

    public init(location: ScriptLocation, text: String, action: Action) {
        self.location = location
        self.text = text
        self.action = action
    }
}

/// `expect-error CODE ["substring"]`: the command before it must fail with this code, and its
/// message must contain the substring.
public struct ExpectedError: Hashable, Sendable {
    /// A server's `data.code` (`invalid_update`, `out_of_range`, …), a JSON-RPC name
    /// (`invalid_params`, `method_not_found`) or number (`-32602`), or the CLI's own
    /// (`connection`, `no_input`) for failures that never reached the server.
    public var code: String
    public var substring: String?
    public var location: ScriptLocation
    public var text: String

    public init(code: String, substring: String?, location: ScriptLocation, text: String) {
        self.code = code
        self.substring = substring
        self.location = location
        self.text = text
    }
}

/// A parsed script file: its steps in order.
public struct Script: Hashable, Sendable {
    public var file: String
    public var steps: [ScriptStep]

    public init(file: String, steps: [ScriptStep]) {
        self.file = file
        self.steps = steps
    }
}
