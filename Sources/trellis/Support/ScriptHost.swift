import TrellisClient

/// A script run in progress (`trellis run`): commands call its caller instead of connecting,
/// and what they would print, and the error that made one fail, are kept for the runner.
final class ScriptHost {
    /// Set by the runner around each command. Commands run synchronously on the main thread,
    /// one at a time, and a process runs at most one script at once, so a plain static is
    /// enough; a TaskLocal would need a Sendable host, which a caller holding a socket is not.
    nonisolated(unsafe) static var current: ScriptHost?

    let caller: any MethodCaller
    /// The script being run: files its commands name (`--file data.json`) are relative to it.
    let scriptPath: String
    /// stdout and stderr lines, in the order the command wrote them.
    var output: [String] = []
    /// The server's (or connection's) error behind the last failure, for `expect-error`.
    var lastError: ClientError?
    /// The session the failing command named: the refusal's wording suggests commands on it.
    var lastSession: String?
    /// The failing command sent raw params (`trellis rpc`): its refusal is the server's own text.
    var lastRaw = false
    /// The CLI's own refusal behind the last failure when it stands for a protocol error (a
    /// value outside its range refused before sending, as the server would: `invalid_params`).
    var refusal: CommandFailure?

    init(caller: any MethodCaller, scriptPath: String) {
        self.caller = caller
        self.scriptPath = scriptPath
    }
}
