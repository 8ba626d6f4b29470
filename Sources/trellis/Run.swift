import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisServer
import TrellisProtocol

/// `trellis run FILE…`: runs scripts of `trellis` commands and assertions and reports TAP.
struct Run: ParsableCommand, OptionChecks {
    static let configuration = CommandConfiguration(
        abstract: "Run scripted tests: trellis commands and expectations, reported as TAP.",
        discussion: """
            Each line is a trellis command without the word 'trellis' (same grammar, # comments, \
            shell quoting) or an assertion:

              expect NAME 0:3 frame=0,110,100,100 alpha=1 [tolerance=0.5]
                  layout (model) values; 'expect NAME scene 0:3 …' reads the screen
              expect NAME visible=12 offset=0,400 pool.cell.created<=20
                  scene values and stats numbers (== != <= >= < >)
              expect NAME scene == FILE.json
              expect NAME body:card center=187.5,617 velocity=0,0 speed<1 angle=0
                  the animator's state (also item:ID); 'expect NAME dynamics running==false'
              expect NAME scroll dragging==false decelerating==false offset=0,1200 speed<1
                  the scroll state after drag, fling, touch (also bouncing, tracking, velocity=)
              expect-error CODE "message substring"   (after a command that must fail)
              rpc METHOD '{"session":"s",…}'
                  any protocol request as it is (what trellis record-script writes when
                  no readable command sends the same)

            Runs in process (no server) unless --socket is given; sessions always get a manual \
            clock. Against a server, the sessions a script names get a prefix of the run's own \
            (printed as a TAP comment), so a script can only reach sessions it created; \
            --names-as-written sends the names as they are. A `new` that fails (without an \
            expect-error after it) ends the run with TAP's Bail out!: the rest of the file would \
            drive a session it did not create. Prints TAP version 13; exit 0 when every test \
            passes, 65 when one fails or the run bails out, 64 for a script syntax error (file:line).

            --update rewrites each failed expect line with what the run found (the values of \
            KEY=V and KEY==V checks; bounds such as speed<1, tolerance= and scene == FILE stay) \
            and prints each change to stderr (- old, + new); exit 0 when every failure was such \
            a line, so a recorded script's checkpoints follow a deliberate change of behaviour.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Script files (.trellis).", valueName: "file")) var files: [String]
    @Option(help: ArgumentHelp("Also write a JUnit XML report here (for CI).", valueName: "file")) var junit: String?
    @Flag(help: "Log each command and its output as TAP comments.") var verbose = false
    @Flag(help: "With --socket: use session names as the scripts write them, not with the run's prefix (a script may then change sessions it did not create).")
    var namesAsWritten = false
    @Flag(help: "Rewrite each failed expect line's values (KEY=V, KEY==V) with what this run found, and print what changed.")
    var update = false

    /// Commands that make no sense on a script line.
    static let refused: Set<String> = ["run", "demo", "attach"]

    func checkOptions() throws {
        // The shared options carry --json for single commands; a script's output is TAP.
        if global.json {
            throw optionError("trellis run writes TAP (and JUnit XML with --junit FILE), not JSON: drop --json")
        }
    }

    func run() throws {
        try checkOptions()
        // Every file is read and checked before anything runs: a typo on the last line must not
        // leave a half-run script behind.
        let parser = ScriptParser(checkCommand: Self.check)
        var scripts: [Script] = []
        for file in files {
            guard let bytes = ScriptFile.read(file) else {
                printError("trellis: cannot read \(file)")
                throw ExitCode(Exit.noInput)
            }
            do {
                scripts.append(try parser.parse(String(decoding: bytes, as: UTF8.self), file: file))
            } catch {
                printError("trellis: \(error)")
                throw ExitCode(Exit.usage)
            }
        }

        // --socket given explicitly (not $TRELLIS_SOCKET) is what selects a real server.
        var connection: RPCClient?
        if global.socket != nil {
            do {
                var launcher = ServerLauncher(socketPath: global.socketPath)
                launcher.callTimeout = global.timeout
                connection = try launcher.connect(autoStart: !global.noStart)
            } catch {
                throw report(error, json: false, noStart: global.noStart)
            }
        }
        defer { connection?.close() }

        print("TAP version 13")
        // Embedded runs have a server of their own; on a shared one, names of the run's own.
        let prefix = connection == nil || namesAsWritten ? "" : ScriptCaller.runPrefix()
        if !prefix.isEmpty {
            print(TAPWriter.comments(["sessions are named \(prefix)NAME on \(global.socketPath) (--names-as-written: as written)"])[0])
        }
        var tap = TAPWriter()
        var suites: [JUnitWriter.Suite] = []
        var bailOut: String?
        // Failed expect lines --update rewrote (they count as passed for the exit).
        var updated = 0
        // Where a long run is (on a terminal only); erased before each line of TAP.
        let progress = ProgressLine()
        var failures = 0
        func showProgress(_ file: String) {
            progress.update("run: file \(suites.count + 1) of \(scripts.count) (\(file)): \(tap.count) test\(tap.count == 1 ? "" : "s"), \(failures) failed")
        }
        defer { progress.clear() }
        for script in scripts where bailOut == nil {
            showProgress(script.file)
            let base: any MethodCaller
            if let connection {
                base = connection
            } else {
                do { base = EmbeddedCaller(server: try InProcessServer()) } catch {
                    printError("trellis: cannot start the in-process server: \(error)")
                    throw ExitCode(Exit.software)
                }
            }
            let caller = ScriptCaller(base, sessionPrefix: prefix)
            defer { caller.cleanUp() }
            var runner = ScriptRunner(caller: caller) { words in Self.execute(words, caller: caller, scriptPath: script.file) }
            if verbose {
                runner.onCommand = { step, outcome in
                    progress.clear()
                    for line in TAPWriter.comments(["\(step.location): \(step.text)"] + outcome.output.map { "  " + $0 }) { print(line) }
                }
            }
            let outcome = runner.run(script) { result in
                progress.clear()
                for line in tap.lines(for: result) { print(line) }
                if !result.passed { failures += 1 }
                showProgress(script.file)
            }
            suites.append(JUnitWriter.Suite(file: script.file, results: outcome.results))
            bailOut = outcome.bailOut
            if update { updated += try Self.rewriteExpectations(script, outcome.results) }
        }
        progress.clear()
        if let bailOut {
            print(TAPWriter.bailOut(bailOut))
        } else {
            print(tap.plan)
        }

        if let junit {
            // Written with open(2) and write(2), so a failure says what errno says ("No such
            // file or directory"), not a Foundation error code.
            let bytes = Array(JUnitWriter.document(suites).utf8)
            let fd = open(junit, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            let written = fd >= 0 && bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            guard written else {
                printError("trellis: cannot write the JUnit report \(junit): \(reason)")
                throw ExitCode(Exit.cannotCreate)
            }
        }
        let failed = suites.flatMap(\.results).filter { !$0.passed }.count
        if let bailOut {
            let skipped = scripts.count - suites.count
            printError("trellis: bailed out at \(bailOut)" + (skipped > 0 ? "; \(skipped) file\(skipped == 1 ? "" : "s") not run" : ""))
            throw ExitCode(Exit.refused)
        }
        if failed > 0 && failed == updated {
            printError("trellis: \(updated) expect line\(updated == 1 ? "" : "s") updated; run again to check them")
            return
        }
        if failed > 0 {
            printError("trellis: \(failed) of \(tap.count) test\(tap.count == 1 ? "" : "s") failed" + (update ? " (\(updated) expect line\(updated == 1 ? "" : "s") updated, the others cannot be)" : ""))
            throw ExitCode(Exit.refused)
        }
    }

    /// `--update`: the script's failed `expect` lines rewritten with what the run found
    /// (`ExpectationUpdate`), the file replaced whole, each change printed to stderr as a diff
    /// (`-` the old line, `+` the new). Returns how many lines changed.
    static func rewriteExpectations(_ script: Script, _ results: [TestResult]) throws -> Int {
        let expectLines = Set(script.steps.compactMap { step -> Int? in
            if case .expect = step.action { return step.location.line }
            return nil
        })
        guard let bytes = ScriptFile.read(script.file) else { return 0 }
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var changes = 0
        for result in results where !result.passed && expectLines.contains(result.location.line) {
            let index = result.location.line - 1
            guard lines.indices.contains(index) else { continue }
            let indent = String(lines[index].prefix { $0 == " " || $0 == "\t" })
            let text = String(lines[index].dropFirst(indent.count))
            let carriageReturn = text.hasSuffix("\r")
            guard let rewritten = ExpectationUpdate.rewrite(carriageReturn ? String(text.dropLast()) : text, actual: result.actual) else { continue }
            printError("\(result.location):\n- \(text)\n+ \(rewritten)")
            lines[index] = indent + rewritten + (carriageReturn ? "\r" : "")
            changes += 1
        }
        guard changes > 0 else { return 0 }
        let temporary = script.file + ".update"
        do {
            try lines.joined(separator: "\n").write(toFile: temporary, atomically: false, encoding: .utf8)
            guard rename(temporary, script.file) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            unlink(temporary)
            printError("trellis: cannot rewrite \(script.file): \(String(cString: strerror(errno)))")
            throw ExitCode(Exit.cannotCreate)
        }
        return changes
    }

    /// Why a script line is not a command the CLI accepts, or nil when it is one: the line goes
    /// through the same argument parser as a command typed in a shell.
    static func check(_ words: [String]) -> String? {
        if let known = checked[words] { return known }
        let verdict = uncachedCheck(words)
        if checked.count < maximumCachedCommands { checked[words] = verdict }
        return verdict
    }

    /// `check`'s verdicts and the parsed commands, by a line's words. A recorded script repeats
    /// lines thousands of times (a tick of `advance` each frame) and the argument parser costs
    /// about a millisecond a line (5 ms in a debug build; a minute's recording took minutes to
    /// run); a parsed command is a value, run as a fresh copy each time. The CLI runs on one
    /// thread.
    nonisolated(unsafe) private static var checked: [[String]: String?] = [:]
    nonisolated(unsafe) private static var parsed: [[String]: any ParsableCommand] = [:]

    /// The root command `words` parse to, from the cache when the same words were parsed before.
    private static func parse(_ words: [String]) throws -> any ParsableCommand {
        if let command = parsed[words] { return command }
        let command = try Trellis.parseAsRoot(words)
        if parsed.count < maximumCachedCommands { parsed[words] = command }
        return command
    }
    /// Distinct lines kept parsed (a script's unique lines beyond it are parsed each time).
    private static let maximumCachedCommands = 100_000

    private static func uncachedCheck(_ words: [String]) -> String? {
        if let first = words.first, refused.contains(first) { return "'\(first)' cannot be used inside a script" }
        do {
            let command = try parse(words)
            if command is Trellis { return "'\(words.joined(separator: " "))': expected a command (new, reload, insert, …)" }
        } catch {
            if Trellis.exitCode(for: error) == .success { return "--help is not a script command" }
            return NegativeValueHint.message(for: error, words: words)
        }
        // Values (index paths, sizes, durations) are parsed inside run(): a dry run against a
        // server that answers nothing finds their errors before the script starts.
        let outcome = execute(words, caller: DryRunCaller(), scriptPath: "")
        if let failure = outcome.failure, failure.code == "usage" { return failure.message }
        return nil
    }

    /// Runs one script line as the real command, against the run's server, capturing what it
    /// prints and why it failed.
    static func execute(_ words: [String], caller: any MethodCaller, scriptPath: String) -> CommandOutcome {
        let host = ScriptHost(caller: caller, scriptPath: scriptPath)
        ScriptHost.current = host
        defer { ScriptHost.current = nil }
        do {
            var command = try parse(words)
            try command.run()
            return CommandOutcome(output: host.output)
        } catch {
            let code = Trellis.exitCode(for: error)
            if code == .success { return CommandOutcome(output: host.output) }
            return CommandOutcome(output: host.output, failure: failure(host: host, error: error, code: code.rawValue))
        }
    }

    /// The failure `expect-error` sees: the server's error when there was one, else the CLI's
    /// own refusal named after its exit code.
    static func failure(host: ScriptHost, error: any Error, code: Int32) -> CommandFailure {
        if let refusal = host.refusal { return refusal }
        switch host.lastError {
        case .server(let number, let message, let domainCode, let data)?:
            return CommandFailure(serverCode: number, domainCode: domainCode,
                                  message: host.lastRaw ? message
                                      : CommandWording.message(message, domainCode: domainCode, data: data, session: host.lastSession))
        case let other?:
            return CommandFailure(code: other.isConnectionError ? "connection" : "internal", message: other.description)
        case nil:
            let names: [Int32: String] = [Exit.usage: "usage", Exit.noInput: "no_input", Exit.refused: "invalid_json",
                                          Exit.unavailable: "connection", Exit.software: "internal"]
            // An ExitCode carries no text: the command printed it (usage errors, unreadable files).
            let message = error is ExitCode ? (host.output.last ?? "exit \(code)") : Trellis.message(for: error)
            return CommandFailure(code: names[code] ?? "exit_\(code)", aliases: [String(code)],
                                  message: message.hasPrefix("trellis: ") ? String(message.dropFirst(9)) : message)
        }
    }
}

/// A server that refuses every call: a dry run of a command stops at its first call, after
/// the command has parsed all its values.
private final class DryRunCaller: MethodCaller {
    func call(_ method: String, _ params: [String: JSONValue]) throws(ClientError) -> JSONValue {
        throw .launch("dry run")
    }
}
