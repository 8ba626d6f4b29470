import Foundation
import Testing
import TrellisTestSupport
import TrellisClient

/// `trellis record-script`, `mark` and `rpc` as a person types them: a session explored from
/// the shell becomes a script that passes under `trellis run` in both modes; every mistake is
/// refused with a clear message and the documented exit, and starts nothing.
@Suite struct RecordScriptCLITests {
    static func scratch() throws -> String {
        let directory = TrellisdProcess.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aSessionExploredFromTheShellBecomesAPassingScript() throws {
        let server = try CLIServer(keepsState: true)
        defer { server.stop() }
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/explore.trellis"
        #expect(server.trellis("new", "explore", "--manual-clock", "--bounds", "375x667").status == 0)
        #expect(server.trellis("reload", "explore", "--items", "300").status == 0)
        // Checkpoints after every change (the default, frames, is README's example).
        var r = server.trellis("record-script", "explore", "--out", out, "--checkpoints", "changes")
        #expect(r.status == 0 && r.stdout.hasPrefix("recording explore (server file \(server.directory)/state/recordings/"), "\(r.stdout)\(r.stderr)")
        #expect(server.trellis("insert", "explore", "0:0").status == 0)
        #expect(server.trellis("advance", "explore", "300ms").status == 0)
        #expect(server.trellis("fling", "explore", "--velocity", "0,-3000").status == 0)
        r = server.trellis("mark", "explore", "after the fling")
        #expect(r.status == 0 && r.stdout.hasPrefix("marked ("))
        #expect(server.trellis("advance", "explore", "2s").status == 0)
        r = server.trellis("rpc", "scroll.to", #"{"session":"explore","offset":[0,200]}"#)
        #expect(r.status == 0 && r.stdout == "{\"contentOffset\":[0,200],\"contentSize\":[375,3050]}\n", "\(r.stdout)\(r.stderr)")
        r = server.trellis("record-script", "explore", "--stop")
        #expect(r.status == 0 && r.stdout.hasPrefix("wrote \(out): 8 changes, "), "\(r.stdout)\(r.stderr)")
        let script = try String(contentsOfFile: out, encoding: .utf8)
        #expect(script.hasPrefix("# Recorded by trellisd from session explore (manual clock) at time 0ms.\n"))
        // The fling's samples and the ticks between them, each a line.
        #expect(script.contains("rpc gesture.pan '{\"phase\":\"began\",\"session\":\"explore\",\"translation\":[0,0]}'\nexpect explore "))
        #expect(script.contains("\nadvance explore 16.666666666666668ms\n"))
        #expect(script.contains("\"phase\":\"ended\""))
        #expect(script.contains("\n# mark: after the fling\n"))
        #expect(script.contains("\nadvance explore 2000ms\n"))
        #expect(script.contains("\nscroll explore --to=0,200\n"))
        for arguments in [["run", out], ["run", out, "--socket", server.socketPath]] {
            let run = runTrellis(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stdout.suffix(2000))\(run.stderr)")
            #expect(!run.stdout.contains("not ok") && run.stdout.contains("ok 1 - expect explore time=0ms visible="))
        }
        // Started with no destination (a raw request), the stop prints the script.
        #expect(server.trellis("rpc", "recording.start", #"{"session":"explore","checkpoints":"marks"}"#).status == 0)
        #expect(server.trellis("advance", "explore", "5ms").status == 0)
        r = server.trellis("record-script", "explore", "--stop")
        #expect(r.status == 0 && r.stdout.hasPrefix("# Recorded by trellisd from session explore") && r.stdout.hasSuffix("\nadvance explore 5ms\n\n"), "\(r.stdout)")
    }

    @Test func mistakesAreRefusedClearlyAndStartNothing() throws {
        let server = try CLIServer(keepsState: true)
        defer { server.stop() }
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(server.trellis("new", "s", "--manual-clock").status == 0)

        var r = server.trellis("record-script", "s")
        #expect(r.status == 64 && r.stderr.contains("give --out FILE to start recording, or --stop to end it"))
        r = server.trellis("record-script", "s", "--out", directory + "/x.trellis", "--checkpoints", "often")
        #expect(r.status == 64 && r.stderr.contains("--checkpoints: expected frames, changes or marks, found 'often'"))
        r = server.trellis("record-script", "s", "--out", directory + "/x.trellis", "--checkpoint-every", "0")
        #expect(r.status == 64 && r.stderr.contains("--checkpoint-every: expected a whole number of frames from 1 to 36000 (60 a second), found 0"), "\(r.stderr)")
        r = server.trellis("record-script", "s", "--out", directory + "/x.trellis", "--checkpoints", "marks", "--checkpoint-every", "6")
        #expect(r.status == 64 && r.stderr.contains("--checkpoint-every goes with --checkpoints frames only, not marks"), "\(r.stderr)")
        r = server.trellis("record-script", "nope", "--out", directory + "/x.trellis")
        #expect(r.status == 65 && r.stderr == "no session named 'nope'; sessions: s\n", "\(r.stderr)")
        r = server.trellis("record-script", "s", "--stop")
        #expect(r.status == 65 && r.stderr.contains("session 's' is not being recorded; start a recording with: trellis record-script s --out FILE"))
        r = server.trellis("mark", "s", "x")
        #expect(r.status == 65 && r.stderr.contains("is not being recorded"))
        // A destination that cannot be written: refused before anything is recorded.
        r = server.trellis("record-script", "s", "--out", directory + "/missing/x.trellis")
        #expect(r.status == 73 && r.stderr.contains("cannot write \(directory)/missing/x.trellis: No such file or directory; the recording did not start"), "\(r.stderr)")
        r = server.trellis("record-script", "s", "--out", directory)
        #expect(r.status == 73 && r.stderr.contains("it is a directory"))
        #expect(server.trellis("record-script", "s", "--stop").stderr.contains("is not being recorded"))
        // Recording twice (the first spacing its checkpoints, as the server says back).
        r = server.trellis("--json", "record-script", "s", "--out", directory + "/x.trellis", "--checkpoint-every", "30")
        #expect(r.status == 0 && r.stdout.contains("\"checkpointEvery\":30"), "\(r.stdout) \(r.stderr)")
        r = server.trellis("record-script", "s", "--out", directory + "/y.trellis")
        #expect(r.status == 65 && r.stderr.contains("session 's' is already being recorded (to "))
        // A destination gone unwritable by the stop: the script stays on the server, named.
        try FileManager.default.createDirectory(atPath: directory + "/gone", withIntermediateDirectories: true)
        r = server.trellis("record-script", "s", "--stop", "--out", directory + "/gone/missing/z.trellis")
        #expect(r.status == 73 && r.stderr.contains("the script is kept on the server at \(server.directory)/state/recordings/"), "\(r.stderr)")
        #expect(server.trellis("record-script", "s", "--stop").status == 65)

        // A server without a state directory cannot record, and says what to do.
        let bare = try CLIServer()
        defer { bare.stop() }
        #expect(bare.trellis("new", "s").status == 0)
        r = bare.trellis("record-script", "s", "--out", directory + "/x.trellis")
        #expect(r.status == 65 && r.stderr.contains("start trellisd with --state-dir DIR"))
    }

    @Test func rawRequestsRefuseWhatIsNotARequest() throws {
        let server = try CLIServer(keepsState: true)
        defer { server.stop() }
        var r = server.trellis("rpc", "hello")
        #expect(r.status == 0 && r.stdout.hasPrefix("{") && r.stdout.contains("\"protocol\""))
        r = server.trellis("rpc", "session.create", "{\"name\":")
        #expect(r.status == 64 && r.stderr.contains("rpc params: not JSON"))
        r = server.trellis("rpc", "session.create", "[1]")
        #expect(r.status == 64 && r.stderr.contains("rpc params: expected a JSON object such as '{\"session\":\"demo\"}', found an array"), "\(r.stderr)")
        r = server.trellis("rpc", "no such method")
        #expect(r.status == 64 && r.stderr.contains("expected a method name"))
        r = server.trellis("rpc", "session.craete", "{}")
        #expect(r.status == 70 && r.stderr.contains("unknown method 'session.craete'"))
        r = server.trellis("rpc", "session.info", "{\"session\":\"nope\"}")
        #expect(r.status == 65 && r.stderr.contains("no session named 'nope'"))
        // A refusal is printed as the server wrote it: the user wrote params, not options.
        #expect(server.trellis("new", "rec", "--manual-clock").status == 0)
        #expect(server.trellis("rpc", "recording.start", #"{"session":"rec","checkpoints":"marks"}"#).status == 0)
        r = server.trellis("rpc", "session.seek", #"{"session":"rec","at":-1}"#)
        #expect(r.status == 65 && r.stderr.contains("params.at: -1 ms is before the start") && !r.stderr.contains("--at"), "\(r.stderr)")
        r = server.trellis("rpc", "session.seek", #"{"session":"rec","atFrame":"x"}"#)
        #expect(r.status == 65 && r.stderr.contains("params.atFrame: expected a whole frame number") && !r.stderr.contains("--at-frame"), "\(r.stderr)")
        // The commands that take `--at` still name it so.
        r = server.trellis("snapshot", "rec", "--svg", "-", "--at-frame", "99")
        #expect(r.status == 65 && r.stderr.contains("--at-frame: frame 99 is past the end"), "\(r.stderr)")
        // In a script, bad params are a syntax error found before anything runs.
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "new a\nrpc clock.advance '{\"session\":\"a\",\"ms\":'\n".write(toFile: directory + "/bad.trellis", atomically: true, encoding: .utf8)
        r = runTrellis(["run", directory + "/bad.trellis"])
        #expect(r.status == 64 && r.stderr.contains("bad.trellis:2: rpc params: not JSON"), "\(r.stderr)")
    }
}
