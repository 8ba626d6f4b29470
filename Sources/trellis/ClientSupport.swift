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

    var socketPath: String {
        ServerAddress(explicit: socket, environment: ProcessInfo.processInfo.environment, uid: getuid()).path
    }
}

/// The CLI's exit codes (sysexits.h), listed in `trellis --help`.
enum Exit {
    static let usage: Int32 = 64        // EX_USAGE: bad arguments (argument-parser's own code too)
    static let refused: Int32 = 65      // EX_DATAERR: the server refused the request
    static let noInput: Int32 = 66      // EX_NOINPUT: a --file that cannot be read
    static let unavailable: Int32 = 69  // EX_UNAVAILABLE: cannot connect to or start the server
    static let software: Int32 = 70     // EX_SOFTWARE: an unexpected reply or internal error
    static let cannotCreate: Int32 = 73 // EX_CANTCREAT: an output file (trellis run --junit) cannot be written

    static let help = """
        Exit codes:
          0   success
          64  usage error (bad arguments or values)
          65  refused by the server (invalid_update, out_of_range, …); its message
              (UIKit's text for a refused batch) goes to stderr
          66  a --file that cannot be read
          69  cannot connect to or start the server
          70  internal error (an unexpected reply)
        trellis run: 0 every test passed, 65 a test failed, 64 a script syntax
        error (file:line on stderr), 66 a script that cannot be read, 69 no server
        on --socket, 73 the --junit file cannot be written
        """
}

/// One connected invocation: calls the server and prints results as text or JSON.
struct ClientContext {
    let global: GlobalOptions
    /// The server: its socket, or the script run's caller (embedded or shared, see `ScriptHost`).
    let caller: any MethodCaller
    /// The socket connection when there is one of this invocation's own (nil inside a script run).
    let connection: RPCClient?

    func call(_ method: String, _ params: [String: JSONValue] = [:]) throws(ClientError) -> JSONValue {
        try caller.call(method, params)
    }

    /// Prints `result` raw with `--json`, else the lines `human` makes of it.
    func emit(_ result: JSONValue, _ human: (JSONValue) -> [String]) {
        if global.json {
            printOutput(JSONWriter.string(result))
        } else {
            for line in human(result) { printOutput(line) }
        }
    }
}

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

    init(caller: any MethodCaller, scriptPath: String) {
        self.caller = caller
        self.scriptPath = scriptPath
    }
}

/// A line of a command's normal output: stdout, or the script run's log.
func printOutput(_ text: String) {
    if let host = ScriptHost.current { host.output.append(contentsOf: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)) } else { print(text) }
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

/// Connects (starting a server unless told not to), runs `body`, and maps failures to the
/// documented exit codes with the message on stderr.
func withServer(_ global: GlobalOptions, autoStart: Bool = true, _ body: (ClientContext) throws -> Void) throws {
    if let host = ScriptHost.current {
        // Inside `trellis run`: the run's server, which stays open for the next line.
        do {
            try body(ClientContext(global: global, caller: host.caller, connection: nil))
        } catch let error as ClientError {
            host.lastError = error
            throw report(error, json: global.json)
        }
        return
    }
    do {
        var launcher = ServerLauncher(socketPath: global.socketPath)
        launcher.callTimeout = global.timeout
        let client = try launcher.connect(autoStart: autoStart && !global.noStart)
        defer { client.close() }
        try body(ClientContext(global: global, caller: client, connection: client))
    } catch let error as ClientError {
        if !autoStart, error.nothingListens {
            printError("trellis: no server running on \(global.socketPath)")
            throw ExitCode(Exit.unavailable)
        }
        throw report(error, json: global.json)
    }
}

/// Prints a client error and returns the exit to throw.
func report(_ error: ClientError, json: Bool) -> ExitCode {
    switch error {
    case .server(let code, let message, _, let data):
        if json {
            var object: [String: JSONValue] = ["code": .number(Double(code)), "message": .string(message)]
            if let data { object["data"] = data }
            printError(JSONWriter.string(.object(object)))
        } else {
            // The server's message alone, so scripts can match UIKit's exact text.
            printError(message)
        }
        // JSON-RPC's own codes mean client and server disagree about the protocol itself.
        let protocolFaults: Set<Int> = [-32700, -32600, -32601, -32603]
        return ExitCode(protocolFaults.contains(code) ? Exit.software : Exit.refused)
    case .badReply:
        printError("trellis: \(error)")
        return ExitCode(Exit.software)
    case .connect, .disconnected, .timeout, .launch:
        printError("trellis: \(error)")
        return ExitCode(Exit.unavailable)
    }
}

/// A line for stderr, or for the script run's log when one is in progress.
func printError(_ text: String) {
    if let host = ScriptHost.current {
        host.output.append(contentsOf: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        return
    }
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Reads a JSON file (`-` for stdin); exit 66 when it cannot be read, 65 when it is not JSON.
func readJSONFile(_ path: String) throws -> JSONValue {
    let path = ScriptHost.current.map { ScriptFile.resolve(path, relativeTo: $0.scriptPath) } ?? path
    let data: Data
    if path == "-" {
        data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
        guard let contents = FileManager.default.contents(atPath: path) else {
            printError("trellis: cannot read \(path)")
            throw ExitCode(Exit.noInput)
        }
        data = contents
    }
    do {
        return try JSONParser.parse([UInt8](data), limits: JSONLimits(maximumDepth: 64, maximumStringBytes: 64 << 20, maximumElements: 1 << 26))
    } catch {
        printError("trellis: \(path) is not valid JSON: \(error.message)")
        throw ExitCode(Exit.refused)
    }
}

/// Animation options of data changes (batch, apply, insert, delete, move).
struct AnimationOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Animation duration in seconds (or 300ms; default 0.3).", valueName: "seconds"))
    var duration: String?

    @Option(help: ArgumentHelp("Delay before the animation, in seconds.", valueName: "seconds"))
    var delay: String?

    @Option(help: "linear, easeIn, easeOut, easeInEaseOut (default) or spring.")
    var curve: String?

    @Option(help: "Spring damping ratio (with --curve spring).")
    var damping: Double?

    @Option(help: "Spring initial velocity (with --curve spring).")
    var velocity: Double?

    @Flag(help: "Apply the change at once, without animation.")
    var noAnimation = false

    /// The protocol's animation keys; `animated` defaults to true on the server.
    func params(animatedByDefault: Bool = true) throws -> [String: JSONValue] {
        var p: [String: JSONValue] = [:]
        if noAnimation { p["animated"] = .bool(false); return p }
        if let duration { p["duration"] = .number(try parsing { () throws(SyntaxError) in try CommandSyntax.seconds(duration) }) }
        if let delay { p["delay"] = .number(try parsing { () throws(SyntaxError) in try CommandSyntax.seconds(delay) }) }
        if let curve { p["curve"] = .string(curve) }
        if let damping { p["damping"] = .number(damping) }
        if let velocity { p["velocity"] = .number(velocity) }
        if !animatedByDefault && !p.isEmpty { p["animated"] = .bool(true) }
        return p
    }
}

/// Animation options of changes that happen at once unless asked (`layout`, `scroll`).
struct OptInAnimationOptions: ParsableArguments {
    @Flag(help: "Animate (implied by --duration or --curve).") var animated = false
    @Option(help: ArgumentHelp("Animation duration in seconds (or 300ms; default 0.3 for layouts, 0.33 for scrolls).", valueName: "seconds"))
    var duration: String?
    @Option(help: "linear, easeIn, easeOut, easeInEaseOut or spring (default easeInEaseOut for layouts, easeOut for scrolls).")
    var curve: String?

    /// The protocol's animation keys, empty when nothing asked for an animation.
    func params() throws -> [String: JSONValue] {
        var p: [String: JSONValue] = [:]
        if animated || duration != nil || curve != nil { p["animated"] = .bool(true) }
        if let duration { p["duration"] = .number(try parsing { () throws(SyntaxError) in try CommandSyntax.seconds(duration) }) }
        if let curve { p["curve"] = .string(curve) }
        return p
    }
}

/// Layout metrics shared by `new` and `layout`.
struct LayoutOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Item size WIDTHxHEIGHT (flow default 50x50, circle 70x70).", valueName: "WxH"))
    var itemSize: String?

    @Option(help: "Flow: line and inter-item spacing at once.")
    var spacing: Double?

    @Option(help: "Flow: minimum line spacing (default 10).")
    var lineSpacing: Double?

    @Option(help: "Flow: minimum inter-item spacing (default 10).")
    var interitemSpacing: Double?

    @Option(help: ArgumentHelp("Flow: section insets TOP,LEFT,BOTTOM,RIGHT or one number.", valueName: "insets"))
    var sectionInset: String?

    @Option(help: ArgumentHelp("Flow: header size WIDTHxHEIGHT.", valueName: "WxH"))
    var headerSize: String?

    @Option(help: ArgumentHelp("Flow: footer size WIDTHxHEIGHT.", valueName: "WxH"))
    var footerSize: String?

    @Option(help: "Flow: vertical (default) or horizontal.")
    var direction: String?

    @Option(help: "Circle: the radius (default: from the bounds).")
    var radius: Double?

    /// The protocol's layout object for `type`.
    func spec(type: String) throws -> JSONValue {
        var spec: [String: JSONValue] = ["type": .string(type)]
        if let itemSize {
            let size = try parsing { () throws(SyntaxError) in try CommandSyntax.size(itemSize) }
            spec["itemSize"] = .array([.number(size.width), .number(size.height)])
        }
        switch type {
        case "flow":
            if radius != nil { throw usageError("--radius applies to the circle layout only") }
            if let spacing { spec["minimumLineSpacing"] = .number(spacing); spec["minimumInteritemSpacing"] = .number(spacing) }
            if let lineSpacing { spec["minimumLineSpacing"] = .number(lineSpacing) }
            if let interitemSpacing { spec["minimumInteritemSpacing"] = .number(interitemSpacing) }
            if let sectionInset {
                let i = try parsing { () throws(SyntaxError) in try CommandSyntax.insets(sectionInset) }
                spec["sectionInset"] = .array([i.top, i.left, i.bottom, i.right].map { .number($0) })
            }
            for (key, value) in [("headerSize", headerSize), ("footerSize", footerSize)] {
                guard let value else { continue }
                let size = try parsing { () throws(SyntaxError) in try CommandSyntax.size(value) }
                spec[key] = .array([.number(size.width), .number(size.height)])
            }
            if let direction { spec["scrollDirection"] = .string(direction) }
        case "circle":
            let flowOnly = [spacing.map { _ in "--spacing" }, lineSpacing.map { _ in "--line-spacing" },
                            interitemSpacing.map { _ in "--interitem-spacing" }, sectionInset.map { _ in "--section-inset" },
                            headerSize.map { _ in "--header-size" }, footerSize.map { _ in "--footer-size" },
                            direction.map { _ in "--direction" }].compactMap { $0 }
            if let first = flowOnly.first { throw usageError("\(first) applies to the flow layout only") }
            if let radius { spec["radius"] = .number(radius) }
        default:
            throw usageError("'\(type)': expected a layout, flow or circle")
        }
        return .object(spec)
    }
}

/// An index path as the protocol writes it.
func wire(_ path: TrellisCore.IndexPath) -> JSONValue { .array([.number(Double(path.section)), .number(Double(path.item))]) }

/// Destroys the session the params name when it exists (its viewers see `session.closed`),
/// then creates it afresh; returns the `session.create` result.
@discardableResult
func replaceSession(_ c: ClientContext, _ params: [String: JSONValue]) throws -> JSONValue {
    do {
        _ = try c.call("session.destroy", ["session": params["name"] ?? .null])
    } catch {
        guard case .server(_, _, "unknown_session", _) = error else { throw error }
    }
    return try c.call("session.create", params)
}
