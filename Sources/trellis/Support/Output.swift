import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// A line of a command's normal output: stdout, or the script run's log.
func printOutput(_ text: String) {
    if let host = ScriptHost.current { host.output.append(contentsOf: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)) } else { print(text) }
}

/// A line for stderr, or for the script run's log when one is in progress.
func printError(_ text: String) {
    if let host = ScriptHost.current {
        host.output.append(contentsOf: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        return
    }
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Parses command-line values; a syntax error is a usage error (exit 64) with its message.
func parsing<T>(_ body: () throws(SyntaxError) -> T) throws -> T {
    do { return try body() } catch {
        printError("trellis: \(error.message)")
        throw ExitCode(Exit.usage)
    }
}

/// A usage error found while running (after argument-parser's own checks): message and exit 64.
func usageError(_ message: String) -> ExitCode {
    printError("trellis: \(message)")
    return ExitCode(Exit.usage)
}
