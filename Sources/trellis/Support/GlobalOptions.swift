import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// Options every server command takes: where the server is, and how to print.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The server's socket (default: $TRELLIS_SOCKET, else $XDG_RUNTIME_DIR/trellis/default.sock, else /tmp/trellis-$UID/default.sock).",
        valueName: "path"))
    var socket: String?

    @Flag(name: .long, help: "Print the server's raw JSON result instead of text.")
    var json = false

    @Flag(name: .long, help: "Fail (exit 69) instead of starting a server when none is running.")
    var noStart = false

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for each reply.", valueName: "seconds"))
    var timeout: Double = 30

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout takes seconds above 0 and at most 86400, found \(timeout)")
        }
    }

    var socketPath: String {
        ServerAddress(explicit: socket, environment: ProcessInfo.processInfo.environment, uid: getuid()).path
    }
}
