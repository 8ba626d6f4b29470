import ArgumentParser
import Foundation
import Logging
import NIOCore
import TrellisProtocol
import TrellisWeb

/// `trellis-web`: serves a page that shows a trellisd session in a browser (and, with
/// `--control`, drives it).
@main
struct TrellisWebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis-web",
        abstract: "Show trellisd sessions in a browser; drive them with --control.",
        discussion: """
            Open http://BIND:PORT/ (the session NAME, or the list of sessions when there is no \
            NAME) or http://BIND:PORT/?session=OTHER. Each page attaches on its own connection \
            to trellisd and mirrors the scene; when trellisd is not there the page says so and \
            tries again every second. Pages only watch, unless --control: then drags and the \
            wheel pan the session (a flick flings), a click taps, and a toolbar inserts, \
            deletes, moves and switches the layout. On loopback no token is needed; any other \
            --bind needs --token (a random one is made and printed when none is given), and \
            every request must carry it as ?token=….
            """
    )

    @Argument(help: "The session a page shows when its URL names none.")
    var name: String?

    @Option(name: .long, help: "The TCP port to listen on.")
    var port: Int = 8080

    @Option(name: .long, help: ArgumentHelp("The address to listen on; any but loopback needs a token.", valueName: "address"))
    var bind: String = "127.0.0.1"

    @Flag(name: .long, help: "Let pages drive the session: pointer and wheel pans, clicks, the toolbar.")
    var control = false

    @Option(name: .long, help: ArgumentHelp(
        "A secret every request must carry as ?token=… (16–256 characters: letters, digits, - _ . ~). Default: none on loopback, a random one on any other address.",
        valueName: "token"))
    var token: String?

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
        if let token, AccessToken(token) == nil {
            throw ValidationError(AccessToken.rule(found: token))
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
    }

    func run() async throws {
        let socketPath = (socket?.isEmpty == false) ? socket!
            : SocketPath.resolve(environment: ProcessInfo.processInfo.environment, uid: getuid())
        var logger = Logger(label: "trellis-web")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        // Off loopback anyone who reaches the port would see (or, with --control, drive) every
        // session: a token is then required, as Jupyter requires one.
        let token = token.flatMap(AccessToken.init) ?? (Self.loopback.contains(bind) ? nil : AccessToken.random())
        let viewer = WebViewer(
            options: WebViewerOptions(socketPath: socketPath, defaultSession: name, host: bind, port: port,
                                      control: control, token: token),
            logger: logger)
        let bind = bind, mode = control ? "watch and drive" : "watch"
        let app = viewer.application { port in
            let host = bind.contains(":") ? "[\(bind)]" : bind
            let query = token.map { "?token=\($0.value)" } ?? ""
            // Unbuffered: a script that starts trellis-web waits for this line to know the port.
            FileHandle.standardOutput.write(Data("trellis-web: http://\(host):\(port)/\(query) (\(mode)) → trellisd at \(socketPath)\n".utf8))
        }
        do {
            try await app.runService()
        } catch let error as IOError where [EADDRINUSE, EADDRNOTAVAIL, EACCES].contains(error.errnoCode) {
            // NIO's text names the system call; say what to change instead.
            let reason = String(cString: strerror(error.errnoCode))
            FileHandle.standardError.write(Data("""
                trellis-web: cannot listen on \(bind):\(port): \(reason); \
                choose another --port (0 picks a free one) or --bind an address of this machine

                """.utf8))
            throw ExitCode(69)
        }
    }
}
