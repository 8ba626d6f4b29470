import Foundation
import Testing
import TrellisTestSupport

/// Every shell block of README.md runs as written. A block is marked on the line before its
/// fence: `<!-- readme-test: run -->` runs it (each line in order, in bash, against a server of
/// its own that the first `trellis` starts, in a scratch directory beside the repository's
/// files), and a line whose comment says `(exit N)` must exit N, every other line 0;
/// `<!-- readme-test: skip REASON -->` says why a block is not run here (a foreground server,
/// minutes of benchmarks). A block with neither mark fails the test, so no command reaches the
/// README without a decision. A plain fence marked `<!-- readme-test: output -->` right after a
/// run block is what that block's last command prints: a picture in the README is the program's.
/// A marked Python block runs against a server started at the socket it names, and must print a
/// JSON-RPC result. A socket a block names under `/tmp/` moves into the scratch directory (the
/// same path below it), so two test runs at once never share or stop each other's server.
@Suite(.serialized) struct ReadmeShellBlockTests {
    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A fenced shell block of the README: where it starts, its lines, and its mark.
    struct Block: CustomStringConvertible {
        enum Mark: Equatable { case run, skip(String), none }
        enum Language { case shell, python }
        var language: Language
        var line: Int
        var lines: [(number: Int, text: String)]
        var mark: Mark
        /// What the last command prints, when the README shows it (lines without the fence's
        /// indentation).
        var output: [String]? = nil
        var description: String { "README.md:\(line)" }
    }

    static func blocks() throws -> [Block] {
        let text = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var k = 0
        while k < lines.count {
            let fence = lines[k].trimmingCharacters(in: .whitespaces)
            let language: Block.Language
            switch fence {
            case "```sh", "```bash", "```shell": language = .shell
            case "```python": language = .python
            default: k += 1; continue
            }
            var previous = k - 1
            while previous >= 0 && lines[previous].trimmingCharacters(in: .whitespaces).isEmpty { previous -= 1 }
            let markLine = previous >= 0 ? lines[previous].trimmingCharacters(in: .whitespaces) : ""
            var mark = Block.Mark.none
            if markLine == "<!-- readme-test: run -->" {
                mark = .run
            } else if markLine.hasPrefix("<!-- readme-test: skip "), markLine.hasSuffix("-->") {
                mark = .skip(String(markLine.dropFirst("<!-- readme-test: skip ".count).dropLast(3))
                    .trimmingCharacters(in: .whitespaces))
            }
            let fenceLine = k + 1
            var body: [(Int, String)] = []
            k += 1
            while k < lines.count && lines[k].trimmingCharacters(in: .whitespaces) != "```" {
                body.append((k + 1, lines[k]))
                k += 1
            }
            var block = Block(language: language, line: fenceLine, lines: body, mark: mark)
            k += 1
            block.output = Self.shownOutput(lines, after: &k)
            blocks.append(block)
        }
        return blocks
    }

    /// The lines of a plain fence marked `<!-- readme-test: output -->` that starts at `k` (past
    /// blank lines), moving `k` past it; nil when there is none.
    static func shownOutput(_ lines: [String], after k: inout Int) -> [String]? {
        var j = k
        while j < lines.count && lines[j].trimmingCharacters(in: .whitespaces).isEmpty { j += 1 }
        guard j + 1 < lines.count, lines[j].trimmingCharacters(in: .whitespaces) == "<!-- readme-test: output -->",
              lines[j + 1].trimmingCharacters(in: .whitespaces) == "```" else { return nil }
        let indent = lines[j + 1].prefix { $0 == " " }.count
        var shown: [String] = []
        j += 2
        while j < lines.count && lines[j].trimmingCharacters(in: .whitespaces) != "```" {
            shown.append(String(lines[j].dropFirst(min(indent, lines[j].prefix { $0 == " " }.count))))
            j += 1
        }
        k = j + 1
        return shown
    }

    /// Lines without trailing blanks, and without blank lines at the end.
    static func normalised(_ lines: [String]) -> [String] {
        var lines = lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The exit a line expects: `(exit N)` in its comment, else 0.
    static func expectedExit(_ line: String) -> Int32 {
        guard let hash = line.range(of: "  #"), let open = line.range(of: "(exit ", range: hash.upperBound..<line.endIndex),
              let close = line[open.upperBound...].firstIndex(of: ")"),
              let code = Int32(line[open.upperBound..<close]) else { return 0 }
        return code
    }

    /// The block as a bash script that stops at the first line exiting otherwise than expected.
    /// When the block shows its output, the last command's stdout goes to `outputFile` too.
    static func script(_ block: Block, outputFile: String? = nil) -> String {
        if block.language == .python {
            // A Python client talks to a server that is already there: each socket it names is
            // started first, as `trellis` would start it, then the block runs and must print a
            // JSON-RPC result.
            var script = ""
            for path in socketPaths(in: block) { script += "trellis --socket \(path) ls >/dev/null || exit 1\n" }
            script += "python3 - > .python-output <<'README_PYTHON'\n"
            script += block.lines.map(\.text).joined(separator: "\n") + "\nREADME_PYTHON\n"
            script += "rc=$?; cat .python-output; if [ \"$rc\" -ne 0 ]; then echo \"README.md:\(block.line): python exit $rc\" >&2; exit 1; fi\n"
            script += "grep -q '\"result\"' .python-output || { echo \"README.md:\(block.line): no JSON-RPC result printed\" >&2; exit 1; }\n"
            return script
        }
        var script = ""
        let commands = block.lines.filter {
            let command = $0.text.trimmingCharacters(in: .whitespaces)
            return !command.isEmpty && !command.hasPrefix("#")
        }
        for (k, (number, text)) in commands.enumerated() {
            let command = text.trimmingCharacters(in: .whitespaces)
            let expected = expectedExit(text)
            if k == commands.count - 1, let outputFile {
                script += "{ \(command)\n} | tee \(outputFile); rc=${PIPESTATUS[0]}\n"
                script += "if [ \"$rc\" -ne \(expected) ]; then echo \"README.md:\(number): exit $rc, expected \(expected)\" >&2; exit 1; fi\n"
                continue
            }
            script += command + "\n"
            script += "rc=$?; if [ \"$rc\" -ne \(expected) ]; then echo \"README.md:\(number): exit $rc, expected \(expected)\" >&2; exit 1; fi\n"
        }
        return script
    }

    @Test func everyShellBlockIsMarkedRunOrSkipWithAReason() throws {
        let blocks = try Self.blocks()
        #expect(blocks.count >= 8)
        for block in blocks {
            #expect(block.mark != .none, "\(block): mark it <!-- readme-test: run --> or <!-- readme-test: skip REASON -->")
            if case .skip(let reason) = block.mark { #expect(reason.count >= 10, "\(block): say why it is skipped") }
        }
    }

    @Test(arguments: try ReadmeShellBlockTests.blocks().filter { $0.mark == .run })
    func aRunnableBlockRunsAsWritten(_ written: Block) throws {
        let scratch = TrellisdProcess.temporaryDirectory()
        let block = Self.block(written, temporaryFilesUnder: scratch)
        let fm = FileManager.default
        try fm.createDirectory(atPath: scratch + "/work", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try fm.createDirectory(atPath: scratch + "/runtime", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? fm.removeItem(atPath: scratch) }
        // The repository's files where the README expects them, written files in the scratch.
        for entry in try fm.contentsOfDirectory(atPath: Self.root) where entry != ".git" {
            try fm.createSymbolicLink(atPath: scratch + "/work/" + entry, withDestinationPath: Self.root + "/" + entry)
        }
        let bin = builtExecutable("trellis").deletingLastPathComponent().path
        let socket = scratch + "/runtime/trellis.sock"
        var environment = ProcessInfo.processInfo.environment
        environment["TRELLIS_SOCKET"] = socket
        environment["XDG_RUNTIME_DIR"] = scratch + "/runtime"
        environment["XDG_STATE_HOME"] = scratch + "/state"
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let sockets = [socket] + Self.socketPaths(in: block)
        defer {
            // Its servers go with it: the one the first `trellis` started, and any the block named.
            for path in sockets {
                _ = Self.run(["trellis", "--socket", path, "--no-start", "shutdown"], environment: environment,
                             directory: scratch + "/work", seconds: 20)
            }
        }
        let outputFile = scratch + "/last-output"
        // A safety net, not a measure: the block that runs every example three times takes
        // about 150 s of a debug build's CPU, more on a loaded machine.
        let result = Self.run(["bash", "-c", Self.script(block, outputFile: block.output == nil ? nil : outputFile)],
                              environment: environment, directory: scratch + "/work", seconds: 480)
        #expect(result.status == 0, "\(block) failed:\n\(result.output)")
        if let shown = block.output {
            let printed = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
            let actual = Self.normalised(printed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            #expect(actual == Self.normalised(shown), "\(block): the README shows another output than its last command prints:\n\(printed)")
        }
    }

    /// `block` with every `/tmp/` path it names under `scratch` instead.
    static func block(_ block: Block, temporaryFilesUnder scratch: String) -> Block {
        var moved = block
        moved.lines = block.lines.map { ($0.number, $0.text.replacingOccurrences(of: "/tmp/", with: scratch + "/tmp/")) }
        return moved
    }

    /// `--socket PATH` values a block names (each a server the block may start), or for Python
    /// the quoted paths ending in `.sock` it connects to.
    static func socketPaths(in block: Block) -> [String] {
        var paths: [String] = []
        for (_, text) in block.lines {
            if block.language == .python {
                for piece in text.split(separator: "\"", omittingEmptySubsequences: false) where piece.hasPrefix("/") && piece.hasSuffix(".sock") {
                    paths.append(String(piece))
                }
                continue
            }
            let words = text.split(separator: " ")
            for (k, word) in words.enumerated() where word == "--socket" && k + 1 < words.count {
                paths.append(String(words[k + 1]))
            }
        }
        return paths
    }

    /// Runs `arguments` (found on PATH) to its end or for at most `seconds` (then it is
    /// killed): its status and its output, both streams.
    static func run(_ arguments: [String], environment: [String: String], directory: String,
                    seconds: Double) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        guard let handle = try? FileHandle(forWritingTo: output) else { return (-1, "cannot write \(output.path)") }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "cannot run \(arguments): \(error)") }
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        var timedOut = false
        if process.isRunning {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        try? handle.close()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return (timedOut ? -1 : process.terminationStatus, (timedOut ? "timed out after \(Int(seconds)) s\n" : "") + text)
    }
}
