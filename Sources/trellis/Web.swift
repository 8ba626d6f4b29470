import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis web`: the browser viewer. Makes sure a server runs (and, with `--demo`, that the
/// demo plays on its session), then becomes `trellis-web` (the binary built beside this one), so the
/// everyday CLI does not link the HTTP stack.
struct Web: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Watch (and with --control drive) sessions in a browser: runs trellis-web.",
        discussion: """
            Starts the server in the background when none runs, then runs trellis-web on it: \
            open the URL it prints, which carries the token every request needs (the browser \
            keeps it in a cookie after that; --no-token serves this user alone instead). With \
            --demo the session 'demo' is made afresh and shown playing the demo's steps (as \
            tools/web shows it; a page with --control takes over until left alone); \
            with --control the page drives it: drag or scroll to pan (a flick flings), click to \
            select, and the toolbar inserts, deletes, moves and switches the layout. Ctrl-C \
            stops trellis-web; the server and its sessions stay.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The session to show (default: the list of sessions, or 'demo' with --demo).") var name: String?
    @Option(help: "The TCP port to listen on.") var port = 8080
    @Option(help: ArgumentHelp("The address to listen on: loopback by default; 0.0.0.0 for every address.", valueName: "address"))
    var bind = "127.0.0.1"
    @Flag(help: "Let pages drive the session: pointer and wheel pans, clicks, the toolbar.") var control = false
    @Option(help: ArgumentHelp("The secret every request must carry as ?token=… (default: $TRELLIS_WEB_TOKEN, else a random one; the URL printed carries it).", valueName: "token"))
    var token: String?
    @Flag(help: "No token, on loopback only: serve only connections whose socket belongs to this user (trellis-web --help).")
    var noToken = false
    @Flag(help: "Make the session 'demo' afresh and show it playing the demo's steps (trellis demo --headless, stopped with trellis-web).") var demo = false
    @Option(help: "Items the demo session starts with.") var items = 24
    @Option(help: "trellis-web's log level: trace, debug, info, notice, warning, error or critical.") var logLevel = "info"

    func validate() throws {
        if demo, let name, name != "demo" { throw ValidationError("--demo shows the session 'demo'; leave out '\(name)'") }
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0…65535, found \(port)") }
        guard (1...200).contains(items) else { throw ValidationError("--items takes 1 to 200") }
        let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
        guard levels.contains(logLevel) else { throw ValidationError("--log-level takes one of \(levels.joined(separator: ", ")), found '\(logLevel)'") }
        // Checked here too, so a bad token changes nothing (the demo session is not replaced).
        let given = AccessToken.given(option: token, environment: ProcessInfo.processInfo.environment)
        if let given, AccessToken(given.value) == nil { throw ValidationError(AccessToken.rule(found: given.value, source: given.source)) }
        if noToken, let refusal = NoTokenRule.refusal(tokenSource: given?.source, bind: bind) { throw ValidationError(refusal) }
    }

    func run() throws {
        let executable = try Self.webExecutable()
        try withServer(global) { c in
            if !demo, let name {
                // A wrong name is better said now than by a page retrying every second.
                _ = try c.call("session.info", ["session": .string(name)])
            }
        }
        if demo { try startDemo() }
        var arguments = [executable, "--socket", global.socketPath, "--port", String(port), "--bind", bind, "--log-level", logLevel]
        if control { arguments.append("--control") }
        // The token through the environment, not argv, which every local user can read in ps.
        if let token { setenv(AccessToken.environmentVariable, token, 1) }
        if noToken { arguments.append("--no-token") }
        if let session = demo ? "demo" : name { arguments.append(session) }
        fflush(nil)  // every stream: what was printed must come before trellis-web's own output
        // exec, not a child: Ctrl-C and a service manager's signals reach trellis-web itself.
        let argv = arguments.map { strdup($0) } + [nil]
        execv(executable, argv)
        printError("trellis: could not run \(executable): \(String(cString: strerror(errno)))")
        throw ExitCode(Exit.software)
    }

    /// Starts `trellis demo --headless` as a child that plays the demo's steps on the session
    /// 'demo' (made afresh, live clock), and waits for its line saying the session is made. The
    /// child stays this process's after the exec, so it stops when trellis-web does.
    func startDemo() throws {
        let own = ServerLauncher.currentExecutable() ?? CommandLine.arguments[0]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: own)
        process.arguments = ["--socket", global.socketPath, "--timeout", String(global.timeout), "demo", "--headless",
                             "--items", String(items)]
        let ready = Pipe()
        process.standardOutput = ready
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            printError("trellis: could not start the demo (\(own) demo --headless): \(error)")
            throw ExitCode(Exit.software)
        }
        // Its one line; nothing (its end) when it could not make the session, whose reason it
        // printed on stderr.
        var line = Data()
        let handle = ready.fileHandleForReading
        while let byte = try? handle.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") { line.append(first) }
        try? handle.close()
        guard !line.isEmpty else {
            printError("trellis: the demo did not start (its message is above)")
            throw ExitCode(Exit.software)
        }
        printError(String(decoding: line, as: UTF8.self))
    }

    /// trellis-web beside this executable (both are products of one build), else on PATH.
    static func webExecutable() throws -> String {
        let own = ServerLauncher.currentExecutable() ?? CommandLine.arguments[0]
        let beside = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("trellis-web").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/trellis-web"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        printError("trellis: trellis-web is not built: run `swift build` (or `swift build --product trellis-web`); looked in \(beside) and on PATH")
        throw ExitCode(Exit.unavailable)
    }
}
