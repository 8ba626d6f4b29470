import Foundation
import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol
import TrellisTestSupport

/// The real `trellis` executable against a real `trellisd`, as a user runs them: stdout,
/// stderr and exit codes.
@Suite struct CLIIntegrationTests {
    @Test func sessionLifecycle() throws {
        let server = try CLIServer()
        defer { server.stop() }
        var r = server.trellis("new", "a", "--bounds", "320x480", "--layout", "circle", "--manual-clock")
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(r.stdout == "a: circle 320x480, 0 items in 0 sections, manual clock, 0 viewers\n")
        #expect(server.trellis("new", "b").status == 0)
        r = server.trellis("ls")
        #expect(r.stdout == """
            a: circle 320x480, 0 items in 0 sections, manual clock, 0 viewers
            b: flow 375x812, 0 items in 0 sections, live clock, 0 viewers

            """)
        r = server.trellis("info", "a")
        #expect(r.status == 0)
        #expect(r.stdout.contains("bounds: 320,480\n") && r.stdout.contains("layout: circle\n") && r.stdout.contains("clock: manual\n"))
        r = server.trellis("--json", "info", "b")
        #expect(r.stdout.hasPrefix("{") && r.stdout.contains("\"name\":\"b\""))
        r = server.trellis("kill", "a")
        #expect(r.status == 0 && r.stdout.isEmpty)
        #expect(server.trellis("ls").stdout == "b: flow 375x812, 0 items in 0 sections, live clock, 0 viewers\n")
        r = server.trellis("kill", "a")
        #expect(r.status == 65)
        #expect(r.stderr == "no session named 'a'; sessions: b\n")
        r = server.trellis("new", "b")
        #expect(r.status == 65 && r.stderr.contains("already exists"))
        r = server.trellis("new", "b", "--replace", "--layout", "circle")
        #expect(r.status == 0 && r.stdout.hasPrefix("b: circle"))
        #expect(server.trellis("new", "c", "--replace").status == 0)   // nothing to replace
    }

    @Test func reloadThenQueryGivesFlowLayoutFrames() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "f", "--item-size", "100x100", "--manual-clock").status == 0)
        var r = server.trellis("reload", "f", "--items", "5")
        #expect(r.stdout == "5 items in 1 section\n")
        // UICollectionViewFlowLayout: 3 items of 100 across 375 points, the free 75 points
        // spread between them (137.5 apart); lines 10 apart.
        r = server.trellis("query", "f", "--rect", "0,0,375,812")
        #expect(r.status == 0)
        #expect(r.stdout == """
            0:0 item0 frame=0,0,100,100 alpha=1
            0:1 item1 frame=137.5,0,100,100 alpha=1
            0:2 item2 frame=275,0,100,100 alpha=1
            0:3 item3 frame=0,110,100,100 alpha=1
            0:4 item4 frame=137.5,110,100,100 alpha=1

            """)
        r = server.trellis("query", "f", "--at", "0:4")
        #expect(r.stdout == "0:4 item4 frame=137.5,110,100,100 alpha=1\n")
        r = server.trellis("query", "f", "--at", "0:9")
        #expect(r.status == 65 && !r.stderr.isEmpty)
        // Short forms, then the scene once the animations are over.
        r = server.trellis("insert", "f", "0:0..1", "--id-prefix", "n")
        #expect(r.stdout == "update 1: inserted 0:0..1\n")
        r = server.trellis("delete", "f", "0:2")
        #expect(r.stdout == "update 2: deleted 0:2\n")
        r = server.trellis("move", "f", "0:0", "0:5")
        #expect(r.stdout == "update 3: moved 0:0>0:5\n")
        #expect(server.trellis("advance", "f", "1s").stdout == "time=1000ms\n")
        r = server.trellis("scene", "f")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first == "time=1000ms offset=0,0 contentSize=375,210 bounds=375x812")
        let prefixes: [String] = lines.dropFirst().map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(prefixes == [
            "0:0 n1 frame=0,0,100,100", "0:1 item1 frame=137.5,0,100,100", "0:2 item2 frame=275,0,100,100",
            "0:3 item3 frame=0,110,100,100", "0:4 item4 frame=137.5,110,100,100", "0:5 n0 frame=275,110,100,100",
        ])
        r = server.trellis("tap", "f", "150,10")
        #expect(r.stdout.hasSuffix("didSelect 0:1 item1\ndidUnhighlight 0:1 item1\nselected: item1\n"))
        #expect(server.trellis("hit", "f", "120,10").stdout == "no view at 120,10\n")
        r = server.trellis("stats", "f")
        #expect(r.stdout.contains("items: 6\n") && r.stdout.contains("pool.cell.created: "))
    }

    @Test func insetsAndDeselectingEverythingReachTheSession() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "f", "--item-size", "100x100", "--bounds", "375x300", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "f", "--items", "20").status == 0)
        // UIScrollView.contentInset: 40 more points to scroll above the content.
        var r = server.trellis("inset", "f", "40,0,60,0")
        #expect(r.status == 0 && r.stdout == "offset=0,0 contentSize=375,760\n")
        r = server.trellis("scroll", "f", "--to", "0,-40")
        #expect(r.stdout == "offset=0,-40 contentSize=375,760\n")
        // Back to none: the offset comes back inside the content.
        #expect(server.trellis("inset", "f", "0").stdout == "offset=0,0 contentSize=375,760\n")
        r = server.trellis("inset", "f", "0,0,2000000,0")
        #expect(r.status == 65 && r.stderr.contains("from -1000000 to 1000000"))
        #expect(server.trellis("select", "f", "0:3").stdout == "selected: item3\n")
        r = server.trellis("deselect", "f", "--all")
        #expect(r.status == 0 && r.stdout == "selected: none\n")
        r = server.trellis("deselect", "f")
        #expect(r.status == 64 && r.stderr.contains("give either an item S:I or --all"))
        #expect(server.trellis("deselect", "f", "0:1", "--all").status == 64)
    }

    @Test func refusedBatchPrintsUIKitsMessageAndExits65() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "b", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "b", "--items", "5").status == 0)
        var r = server.trellis("batch", "b", "--delete", "0:9")
        #expect(r.status == 65)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "attempt to delete item 9 from section 0 which only contains 5 items before the update\n")
        r = server.trellis("batch", "b", "--insert", "0:1=n", "--move", "0:3:0:1")
        #expect(r.status == 65)
        #expect(r.stderr == "attempt to perform an insert and a move to the same index path (<NSIndexPath> {length = 2, path = 0 - 1})\n")
        r = server.trellis("--json", "batch", "b", "--delete", "0:1", "--reload", "0:1")
        #expect(r.status == 65)
        #expect(r.stderr.contains("\"code\":\"invalid_update\"") && r.stderr.contains("delete_and_reload_same_index_path"))
        // Nothing changed; an accepted batch is update 1.
        r = server.trellis("batch", "b", "--delete", "0:4", "--insert", "0:0=first", "--no-animation")
        #expect(r.status == 0)
        #expect(r.stdout == "update 1: inserted 0:0; deleted 0:4\n")
    }

    /// `--json` prints the reply: its mapping as runs by default, per item with `--mapping items`;
    /// another form is refused by the CLI before anything is sent.
    @Test func batchMappingFormsThroughTheCLI() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "b", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "b", "--items", "4").status == 0)
        var r = server.trellis("--json", "batch", "b", "--insert", "0:0=x", "--no-animation")
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"mapping\":[[[0,0],[0,1],4]]"), "\(r.stdout)")
        r = server.trellis("--json", "batch", "b", "--delete", "0:0", "--no-animation", "--mapping", "items")
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"mapping\":[[[0,1],[0,0]],[[0,2],[0,1]],[[0,3],[0,2]],[[0,4],[0,3]]]"), "\(r.stdout)")
        r = server.trellis("batch", "b", "--delete", "0:0", "--mapping", "runs")
        #expect(r.status == 64, "\(r.stderr)")
        #expect(server.trellis("info", "b").stdout.contains("items: 4\n"))
    }

    /// UIKit counts a new section's items as part of the section insert, so the items of
    /// `--insert 1:…` travel inside the section `--insert-section 1` makes (they were dropped,
    /// and the batch answered success with the section empty).
    @Test func itemsInsertedIntoANewSectionArriveInsideIt() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "n", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "n", "--items", "3").status == 0)
        var r = server.trellis("batch", "n", "--insert-section", "1=s1", "--insert", "1:0..3", "--id-prefix", "x", "--no-animation")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(server.trellis("info", "n").stdout.contains("items: 7\n"))
        r = server.trellis("query", "n", "--at", "1:3")
        #expect(r.stdout.hasPrefix("1:3 x3 "), "\(r.stdout)")
        // Items that cannot fill the new section from 0 refuse the whole batch, as the engine would.
        r = server.trellis("batch", "n", "--insert-section", "2", "--insert", "2:0", "--insert", "2:2")
        #expect(r.status == 65)
        #expect(r.stderr == "attempt to insert item 2 into section 2, but there are only 2 items in section 2 after the update\n")
        r = server.trellis("--json", "batch", "n", "--insert-section", "2", "--insert", "2:0=a", "--insert", "2:0=b")
        #expect(r.status == 65)
        #expect(r.stderr.contains("\"code\":\"invalid_update\"") && r.stderr.contains("duplicate_insert_index_path"), "\(r.stderr)")
        #expect(server.trellis("info", "n").stdout.contains("sections: 2\n"))
    }

    /// Numbers are rounded for people (`-100.00000000000001` → `-100`), exact with --json.
    @Test func numbersAreRoundedForPeopleAndExactInJSON() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "r", "--manual-clock").status == 0)
        var r = server.trellis("scroll", "r", "--to=-100.00000000000001,0.30000000000000004")
        #expect(r.stdout == "offset=-100,0.3 contentSize=375,0\n", "\(r.stdout)")
        r = server.trellis("info", "r")
        #expect(r.stdout.contains("scroll.contentOffset: -100,0.3\n"), "\(r.stdout)")
        r = server.trellis("--json", "info", "r")
        #expect(r.stdout.contains("\"contentOffset\":[-100.00000000000001,0.30000000000000004]"), "\(r.stdout)")
    }

    /// Refusals speak the CLI's words (not "create one with session.create") and say the next
    /// step: --replace for a taken name, reload or a section for an empty session, how to start
    /// a server under --no-start. UIKit's text stays first; --json keeps the server's error.
    @Test func refusalsNameCommandsNotMethods() throws {
        let server = try CLIServer()
        defer { server.stop() }
        var r = server.trellis("kill", "nowhere")
        #expect(r.status == 65)
        #expect(r.stderr == "no session named 'nowhere'; there are no sessions (create one with `trellis new nowhere`)\n")
        r = server.trellis("--json", "kill", "nowhere")
        #expect(r.stderr.contains("session.create"))
        #expect(server.trellis("new", "e").status == 0)
        r = server.trellis("new", "e")
        #expect(r.status == 65)
        #expect(r.stderr == "a session named 'e' already exists: choose another name, or replace it with `trellis new e --replace` (its viewers are told it closed)\n")
        r = server.trellis("insert", "e", "0:0..2")
        #expect(r.status == 65)
        #expect(r.stderr == """
            attempt to insert item 0 into section 0, but there are only 0 sections after the update
            session 'e' has no sections yet: `trellis reload e --items N` gives it one of N items, or `trellis batch e --insert-section 0 --insert 0:0..J` inserts one holding items 0 to J

            """)
        r = server.trellis("advance", "e", "16ms")
        #expect(r.stderr == "session 'e' has a live clock; `trellis advance` needs a session made with `trellis new e --manual-clock`\n")
        r = server.trellis("body", "rm", "e", "card")
        #expect(r.stderr == "unknown body 'card'; the session has no bodies (`trellis body add` adds one)\n")
        r = server.trellis("dynamics", "add", "e", "gravity", "body:card")
        #expect(r.stderr == "unknown body 'card': add it first with `trellis body add`\n")
        let socket = CLIServer.temporaryDirectory() + "/run/s.sock"
        r = runTrellis(["--socket", socket, "--no-start", "ls"])
        #expect(r.status == 69)
        #expect(r.stderr.hasSuffix("\nno server runs there and --no-start forbids starting one: start it with `trellisd --socket \(socket) &` (or leave out --no-start and trellis starts it)\n"), "\(r.stderr)")
    }

    /// `--json attach` prints each frame as JSON (it printed the text drawing), the scene as
    /// `--json scene` prints it; and it needs no terminal.
    @Test func jsonAttachPrintsFramesAsJSON() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "j", "--manual-clock").status == 0)
        #expect(server.trellis("reload", "j", "--items", "2").status == 0)
        let r = server.trellis("--json", "attach", "j", "--frames", "1")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let frame = try JSONParser.parse(Array(try #require(lines.first).utf8))
        #expect(frame["seq"] == .number(0))
        let scene = try JSONParser.parse(Array(server.trellis("--json", "scene", "j").stdout.utf8))
        #expect(frame["scene"] == scene)
        #expect(frame["scene"]?["views"]?.arrayValue?.count == 2)
    }

    @Test func startsAServerWhenNoneRunsAndShutdownStopsIt() throws {
        let directory = CLIServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/run/s.sock"
        let env = ["XDG_STATE_HOME": directory + "/state"]
        var r = runTrellis(["--socket", socket, "--no-start", "ls"], environment: env)
        #expect(r.status == 69)
        #expect(r.stderr.hasPrefix("trellis: cannot connect to \(socket)"))
        r = runTrellis(["--socket", socket, "new", "auto"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "auto: flow 375x812, 0 items in 0 sections, live clock, 0 viewers\n")
        #expect(runTrellis(["--socket", socket, "ls"], environment: env).stdout.hasPrefix("auto: "))
        r = runTrellis(["--socket", socket, "shutdown"], environment: env)
        #expect(r.status == 0)
        // The detached server goes away; then shutdown finds nothing (and starts nothing).
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, (try? RPCClient(path: socket)) != nil { usleep(20_000) }
        #expect((try? RPCClient(path: socket)) == nil)
        r = runTrellis(["--socket", socket, "shutdown"], environment: env)
        #expect(r.status == 69)
        #expect(r.stderr == "trellis: no server running on \(socket)\n")
    }

    @Test func usageErrorsExit64() throws {
        let socket = CLIServer.temporaryDirectory() + "/run/s.sock"
        for arguments in [["new"], ["insert", "x", "0:a"], ["scroll", "x"], ["advance", "x", "soon"],
                          ["new", "x", "--bounds", "3"], ["batch", "x"], ["frobnicate"],
                          ["ls", "--timeout", "nan"], ["ls", "--timeout", "0"], ["ls", "--timeout", "-5"]] {
            let r = runTrellis(["--socket", socket] + arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(!r.stderr.isEmpty)
        }
        // No server was started for any of them.
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    /// argument-parser checks `validate()` before it reports unknown options: a typo'd flag was
    /// reported as the option it meant being missing ("give exactly one of --items or --file").
    @Test func aTypoInAFlagIsReportedAsATypo() throws {
        let socket = CLIServer.temporaryDirectory() + "/run/s.sock"
        for (arguments, typo, meant) in [(["reload", "s", "--itmes", "5"], "--itmes", "--items"),
                                         (["query", "s", "--rec", "0,0,10,10"], "--rec", "--rect"),
                                         (["scroll", "s", "--too", "0,10"], "--too", "--to"),
                                         (["attach", "s", "--frames", "0", "--sise", "80x24"], "--sise", "--size")] {
            let r = runTrellis(["--socket", socket] + arguments)
            #expect(r.status == 64)
            #expect(r.stderr.hasPrefix("Error: Unknown option '\(typo)'. Did you mean '\(meant)'?"), "\(arguments): \(r.stderr)")
        }
        // Without the typo, the check between options still speaks, with the pointer to help.
        let r = runTrellis(["--socket", socket, "reload", "s"])
        #expect(r.status == 64)
        #expect(r.stderr == "trellis: give exactly one of --items or --file\n  See 'trellis reload --help' for more information.\n")
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test func aNegativeValueGetsAHintNotAMissingArgument() throws {
        let socket = CLIServer.temporaryDirectory() + "/run/s.sock"
        let dashed = runTrellis(["--socket", socket, "delete", "s", "-1:0"])
        #expect(dashed.status == 64)
        #expect(dashed.stderr.contains("'-1:0' starts with '-', so it was read as an option; put -- before values that start with '-' (… -- -1:0)"), "\(dashed.stderr)")
        let separated = runTrellis(["--socket", socket, "delete", "s", "--", "-1:0"])
        #expect(separated.status == 64)
        #expect(separated.stderr == "trellis: '-1:0': sections and items are numbered from 0, so neither part of an index path can be negative\n")
        let option = runTrellis(["--socket", socket, "scroll", "s", "--to", "-10,-10"])
        #expect(option.status == 64)
        #expect(option.stderr.contains("write it as --to=-10,-10"), "\(option.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test func aRequestOverTheServersMessageLimitIsRefusedBeforeItIsSent() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "s").status == 0)
        let before = try RPCClient(path: server.socketPath).call("stats")["requests"]?.numberValue ?? -1
        let r = server.trellis("delete", "s", "0:0..199999")
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("trellis: batch: the request is "), "\(r.stderr)")
        #expect(r.stderr.contains("over the server's limit of 1048576 bytes per message (trellisd --max-message-bytes); send it in smaller parts"))
        // The client asked hello for the limit; the batch itself never reached the server.
        let after = try RPCClient(path: server.socketPath).call("stats")["requests"]?.numberValue ?? -1
        #expect(after == before + 2)
    }

    @Test func anUnwritableJUnitPathIsReportedPlainly() throws {
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "# nothing to check\n".write(toFile: directory + "/t.trellis", atomically: true, encoding: .utf8)
        let r = runTrellis(["run", "t.trellis", "--junit", "/nonexistent-dir/report.xml"], in: directory)
        #expect(r.status == 73)
        #expect(r.stderr.contains("trellis: cannot write the JUnit report /nonexistent-dir/report.xml: "), "\(r.stderr)")
        #expect(!r.stderr.contains("NSCocoaErrorDomain"), "\(r.stderr)")
    }

    @Test func helpDocumentsTheExitCodes() {
        let r = runTrellis(["--help"])
        #expect(r.status == 0)
        for code in ["64", "65", "69", "70"] { #expect(r.stdout.contains("  \(code)  ")) }
    }
}

// MARK: Processes

struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `trellis` with `arguments` to completion (in `directory` when given).
func runTrellis(_ arguments: [String], environment: [String: String] = [:], in directory: String? = nil) -> CLIResult {
    let process = Process()
    process.executableURL = builtExecutable("trellis")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var env = ProcessInfo.processInfo.environment
    env["TRELLIS_SOCKET"] = nil
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    do { try process.run() } catch { return CLIResult(status: -1, stdout: "", stderr: "cannot run trellis: \(error)") }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                     stderr: String(decoding: stderr, as: UTF8.self))
}

/// The server the CLI tests drive (TrellisTestSupport's real trellisd).
typealias CLIServer = TrellisdProcess

extension TrellisdProcess {
    /// `trellis --socket <this server> arguments…`.
    func trellis(_ arguments: String...) -> CLIResult {
        runTrellis(["--socket", socketPath] + arguments)
    }
}
