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
            Open the URL it prints, http://BIND:PORT/?token=TOKEN (the session NAME, or the \
            list of sessions when there is no NAME; add &session=OTHER for another). Each page \
            attaches on its own connection to trellisd and mirrors the scene; when trellisd is \
            not there the page says so and tries again every second. Pages only watch, unless \
            --control: then drags and the wheel pan the session (a flick flings), a click taps, \
            and a toolbar inserts, deletes, moves and switches the layout. Every request needs \
            the token (a random one is made at each start unless --token or \
            $TRELLIS_WEB_TOKEN gives one), as ?token=… or in the cookie the browser keeps once a \
            URL carried it: trellisd serves only its own user, and so does its bridge. With \
            --no-token (loopback only) there is no token, and a connection is served only when \
            its socket belongs to this user.
            """
    )

    @Argument(help: "The session a page shows when its URL names none.")
    var name: String?

    @Option(name: .long, help: "The TCP port to listen on.")
    var port: Int = 8080

    @Option(name: .long, help: ArgumentHelp("The address to listen on: loopback by default; 0.0.0.0 for every address.", valueName: "address"))
    var bind: String = "127.0.0.1"

    @Flag(name: .long, help: "Let pages drive the session: pointer and wheel pans, clicks, the toolbar.")
    var control = false

    @Option(name: .long, help: ArgumentHelp(
        "The secret every request must carry as ?token=… (16–256 characters: letters, digits, - _ . ~). Default: $TRELLIS_WEB_TOKEN (which ps does not show), else a random one; the URL printed carries it.",
        valueName: "token"))
    var token: String?

    @Flag(name: .long, help: "No token, on loopback only: serve a connection only when its socket belongs to this user (or root), found in /proc/net/tcp.")
    var noToken = false

    @Option(name: .long, help: ArgumentHelp(
        "trellisd's socket (default: $TRELLIS_SOCKET, else $XDG_RUNTIME_DIR/trellis/default.sock, else /tmp/trellis-$UID/default.sock).",
        valueName: "path"))
    var socket: String?

    @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0…65535, found \(port)") }
        let given = AccessToken.given(option: token, environment: ProcessInfo.processInfo.environment)
        if let given, AccessToken(given.value) == nil {
            throw ValidationError(AccessToken.rule(found: given.value, source: given.source))
        }
        if noToken, let refusal = NoTokenRule.refusal(tokenSource: given?.source, bind: bind) { throw ValidationError(refusal) }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
    }

    func run() async throws {
        let socketPath = (socket?.isEmpty == false) ? socket!
            : SocketPath.resolve(environment: ProcessInfo.processInfo.environment, uid: getuid())
        var logger = Logger(label: "trellis-web")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        // trellisd serves only its own uid; anyone who reaches this port (another local user on
        // loopback, anyone at all elsewhere) would otherwise see, or with --control drive, every
        // session. So a token always, as Jupyter does, unless --no-token asks for the uid check.
        let given = AccessToken.given(option: token, environment: ProcessInfo.processInfo.environment)
        let access: WebAccess = noToken ? .sameUser : .token(given.flatMap { AccessToken($0.value) } ?? AccessToken.random())
        let viewer = WebViewer(
            options: WebViewerOptions(socketPath: socketPath, defaultSession: name, host: bind, port: port,
                                      control: control, access: access),
            logger: logger)
        let bind = bind, mode = control ? "watch and drive" : "watch"
        let app = viewer.application { port in
            let host = bind.contains(":") ? "[\(bind)]" : bind
            let query = if case .token(let token) = access { "?token=\(token.value)" } else { "" }
            // Unbuffered: a script that starts trellis-web waits for this line to know the port.
            FileHandle.standardOutput.write(Data("trellis-web: http://\(host):\(port)/\(query) (\(mode)) → trellisd at \(socketPath)\n".utf8))
        }
        do {
            try await app.runService()
        } catch let error as IOError where [EADDRINUSE, EADDRNOTAVAIL, EACCES].contains(error.errnoCode) {
            // NIO's text names the system call; say what to change instead.
            let reason = String(cString: strerror(error.errnoCode))
            throw Self.cannotListen("cannot listen on \(bind):\(port): \(reason); choose another --port (0 picks a free one) or --bind an address of this machine")
        } catch let error as SocketAddressError.UnknownHost {
            throw Self.cannotListen("cannot listen on '\(bind)': no address has that name (\(error.errorDescription)); "
                + "--bind takes an address of this machine: 127.0.0.1 (the default), ::1, localhost, or 0.0.0.0 for all of them")
        } catch is SocketAddressError {
            throw Self.cannotListen("cannot listen on '\(bind)': not an address trellis-web can listen on; "
                + "--bind takes an address of this machine: 127.0.0.1 (the default), ::1, localhost, or 0.0.0.0 for all of them")
        }
    }

    /// Says why nothing listens; the exit status to end with, 69 (EX_UNAVAILABLE).
    static func cannotListen(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("trellis-web: \(message)\n".utf8))
        return ExitCode(69)
    }
}
