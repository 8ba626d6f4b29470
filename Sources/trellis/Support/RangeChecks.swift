import ArgumentParser
import TrellisClient

/// Checks command-line values against the server's documented ranges; a value outside is
/// refused as the server would refuse it (exit 65, and `invalid_params` to a script's
/// `expect-error`), before anything is sent.
func checkingRanges<T>(_ body: () throws(RangeError) -> T) throws -> T {
    do { return try body() } catch {
        ScriptHost.current?.refusal = CommandFailure(code: "invalid_params", aliases: ["-32602", String(Exit.refused)], message: error.message)
        printError("trellis: \(error.message)")
        throw ExitCode(Exit.refused)
    }
}
