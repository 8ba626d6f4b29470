import ArgumentParser
import Foundation
import Logging
import TrellisProtocol
import TrellisWeb

/// `trellis-web`: serves a page that shows a trellisd session in a browser, read-only.
@main
struct TrellisWebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis-web",
        abstract: "Show trellisd sessions in a browser (read-only).",
        discussion: """
            Open http://BIND:PORT/ (the session NAME) or http://BIND:PORT/?session=OTHER. Each \
            page attaches read-only on its own connection to trellisd and mirrors the scene; \
            when trellisd is not there the page says so and tries again every second.
            """
    )

    @Argument(help: "The session a page shows when its URL names none.")
    var name: String?

    @Option(name: .long, help: "The TCP port to listen on.")
    var port: Int = 8080

    @Option(name: .long, help: ArgumentHelp("The address to listen on: a loopback one (nothing authenticates a browser yet).", valueName: "address"))
    var bind: String = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp(
        "trellisd's socket (default: $TRELLIS_SOCKET, else $XDG_RUNTIME_DIR/trellis/default.sock, else /tmp/trellis-$UID/default.sock).",
        valueName: "path"))
    var socket: String?

    @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    /// The addresses only this machine reaches.
    static let loopback: Set<String> = ["127.0.0.1", "::1", "localhost"]

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0…65535, found \(port)") }
        // Nothing authenticates a browser yet (the token comes with the page's controls): any
        // other address would show every session to whoever reaches it.
        guard Self.loopback.contains(bind) else {
            throw ValidationError("--bind \(bind): only a loopback address (127.0.0.1, ::1, localhost) for now; reach it from elsewhere through an SSH tunnel (ssh -L \(port):127.0.0.1:\(port) HOST)")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
    }

    func run() async throws {
        let socketPath = (socket?.isEmpty == false) ? socket!
            : SocketPath.resolve(environment: ProcessInfo.processInfo.environment, uid: getuid())
        var logger = Logger(label: "trellis-web")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let viewer = WebViewer(
            options: WebViewerOptions(socketPath: socketPath, defaultSession: name, host: bind, port: port),
            logger: logger)
        let bind = bind
        let app = viewer.application { port in
            // Unbuffered: a script that starts trellis-web waits for this line to know the port.
            FileHandle.standardOutput.write(Data("trellis-web: http://\(bind):\(port)/ → trellisd at \(socketPath)\n".utf8))
        }
        try await app.runService()
    }
}
