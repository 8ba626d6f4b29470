/// What running one script command gave: its output (what the CLI would have printed, stdout
/// and stderr in order) and, when it failed, why.
public struct CommandOutcome: Hashable, Sendable {
    public var output: [String]
    public var failure: CommandFailure?

    public init(output: [String], failure: CommandFailure? = nil) {
        self.output = output
        self.failure = failure
    }
}

/// Why a command failed, by the names `expect-error` may use for it.
public struct CommandFailure: Hashable, Sendable {
    /// The main name: the server's `data.code`, a JSON-RPC error's name, or the CLI's own
    /// (`usage`, `connection`, `no_input`, `internal`).
    public var code: String
    /// Other names that match too: the JSON-RPC number (`-32001`).
    public var aliases: [String]
    public var message: String

    public init(code: String, aliases: [String] = [], message: String) {
        self.code = code
        self.aliases = aliases
        self.message = message
    }

    /// A server's refusal: its domain code, else JSON-RPC's name for the number.
    public init(serverCode: Int, domainCode: String?, message: String) {
        let names = [-32700: "parse_error", -32600: "invalid_request", -32601: "method_not_found",
                     -32602: "invalid_params", -32603: "internal_error"]
        self.init(code: domainCode ?? names[serverCode] ?? String(serverCode), aliases: [String(serverCode)], message: message)
    }

    public func matches(code expected: String) -> Bool { expected == code || aliases.contains(expected) }
}
