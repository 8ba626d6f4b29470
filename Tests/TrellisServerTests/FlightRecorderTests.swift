import Foundation
import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol
import TrellisTestSupport
@testable import TrellisServer

/// The flight recorder (recording.start/mark/stop) against a real `trellisd`: a session driven
/// over a socket with a mix of everything is recorded, the script replayed on a fresh server
/// gives the same frames byte for byte, and it passes under `trellis run` embedded and against
/// a server; refusals change nothing; a file that vanishes stops the recording with an event
/// and loses nothing written before.
@Suite struct FlightRecorderTests {
    typealias T = PersistenceTests

    /// Items `prefix0…` in one section, as data.reload params.
    static func items(_ count: Int, prefix: String = "i") -> String {
        (0..<count).map { "{\"id\":\"\(prefix)\($0)\"}" }.joined(separator: ",")
    }

    /// Drives `name` over `c` with a mix of everything a person does by hand: a reload, a
    /// batch, ticks, an animated scroll, a pan with its samples and a fling, a layout change,
    /// a body under gravity onto the bounds (dynamics), a mark; each change followed by frames.
    static func drive(_ c: RPCConnection, _ name: String) throws {
        let s = "\"session\":\"\(name)\""
        try c.ok("data.reload", "{\(s),\"sections\":[{\"id\":\"a\",\"items\":[\(items(40))]}]}")
        try c.ok("clock.advance", "{\(s),\"ms\":16}")
        try c.ok("batch", "{\(s),\"ops\":[{\"op\":\"insertItems\",\"at\":[[0,1]],\"items\":[{\"id\":\"new\"}]},{\"op\":\"deleteItems\",\"at\":[[0,5]]}]}")
        for _ in 0..<5 { try c.ok("clock.advance", "{\(s),\"ms\":16.666666666666668}") }
        try c.ok("scroll.to", "{\(s),\"offset\":[0,120],\"animated\":true}")
        try c.ok("clock.advance", "{\(s),\"ms\":100}")
        try c.ok("gesture.pan", "{\(s),\"phase\":\"began\",\"translation\":[0,0]}")
        for k in 1...4 {
            try c.ok("gesture.pan", "{\(s),\"phase\":\"changed\",\"translation\":[0,\(-15 * k)]}")
            try c.ok("clock.advance", "{\(s),\"ms\":16}")
        }
        try c.ok("gesture.pan", "{\(s),\"phase\":\"ended\",\"translation\":[0,-70],\"velocity\":[0,-1800]}")
        for _ in 0..<6 { try c.ok("clock.advance", "{\(s),\"ms\":33}") }
        try c.ok("recording.mark", "{\(s),\"label\":\"after the fling's start\"}")
        try c.ok("layout.set", "{\(s),\"layout\":{\"type\":\"flow\",\"itemSize\":[80,40]},\"animated\":true,\"duration\":0.2}")
        for _ in 0..<4 { try c.ok("clock.advance", "{\(s),\"ms\":50}") }
        try c.ok("body.add", "{\(s),\"body\":\"card\",\"center\":[150,100],\"size\":[60,40],\"angle\":0.3}")
        try c.ok("dynamics.add", "{\(s),\"behavior\":{\"type\":\"gravity\",\"items\":[{\"body\":\"card\"}]}}")
        try c.ok("dynamics.add", "{\(s),\"behavior\":{\"type\":\"collision\",\"items\":[{\"body\":\"card\"}],\"translatesReferenceBoundsIntoBoundary\":true}}")
        for _ in 0..<8 { try c.ok("clock.advance", "{\(s),\"ms\":40}") }
    }

    /// The frames a connection received (`frame` notifications), as the server wrote them.
    static func frameLines(_ c: RPCConnection) -> [String] {
        c.rawLines.map { String(decoding: $0, as: UTF8.self) }.filter { $0.contains("\"method\":\"frame\"") }
    }

    /// Runs a recorded script's requests over `c` as `trellis run` would (`RecordedScriptRequests`),
    /// attaching `c` as a viewer right after the first one made the session.
    static func replay(_ script: String, on c: RPCConnection, session: String) throws {
        for (k, request) in try RecordedScriptRequests.requests(in: script).enumerated() {
            try c.must(request.method, request.params)
            if k == 0 { try c.must("session.attach", ["session": .string(session)]) }
        }
    }

    @Test func aRecordedSessionReplaysFrameByFrameAndPassesUnderTrellisRun() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        c.keepsRawLines = true
        try c.ok("session.create", #"{"name":"m","clock":"manual","bounds":[320,480]}"#)
        let started = try c.ok("recording.start", #"{"session":"m"}"#)
        #expect(started["checkpoints"] == .string("frames") && started["maximumBytes"] == T.n(Double(8 << 20)))
        let path = started["path"]?.stringValue ?? ""
        #expect(path.hasPrefix(server.directory + "/state/recordings/") && path.hasSuffix(".trellis"))
        try c.must("session.attach", ["session": .string("m")])
        try Self.drive(c, "m")
        let stopped = try c.ok("recording.stop", #"{"session":"m"}"#)
        let script = stopped["script"]?.stringValue ?? ""
        #expect(stopped["ended"] == nil)
        #expect(stopped["bytes"] == T.n(Double(script.utf8.count)))
        // One per accepted request: 3 + 5 + 2 + 1 + 4·2 + 1 + 6 + 1 + 4 + 3 + 8 (a mark is no change).
        #expect(stopped["changes"] == T.n(42))
        // The file on the server holds the same script.
        #expect((try? String(contentsOfFile: path, encoding: .utf8)) == script)
        let live = Self.frameLines(c)
        #expect(live.count >= 20)

        // Readable where the CLI says the same, raw otherwise; checkpoints in numbers.
        #expect(script.contains("\nadvance m 16.666666666666668ms\n"))
        #expect(script.contains("\nscroll m --to=0,120 --animated\n"))
        #expect(script.contains("\nrpc gesture.pan '{\"phase\":\"changed\",\"session\":\"m\",\"translation\":[0,-45]}'\n"))
        #expect(script.contains("\n# mark: after the fling's start\n"))
        #expect(script.contains("\nexpect m dynamics running==true behaviors==2\n"))
        #expect(script.contains("\nexpect m scroll dragging==true decelerating==false bouncing==false tracking==true\n"))

        // Replayed on a fresh server: the very same frames, byte for byte, in the same order.
        let other = try ServerProcess(arguments: ["--no-persistence"])
        defer { other.stop() }
        let r = try other.connect()
        r.keepsRawLines = true
        try Self.replay(script, on: r, session: "m")
        _ = try r.ok("session.info", #"{"session":"m"}"#)
        let replayed = Self.frameLines(r)
        #expect(replayed.count == live.count)
        for (k, (a, b)) in zip(live, replayed).enumerated() where a != b {
            Issue.record("frame \(k) differs:\n  live:   \(a.prefix(400))\n  replay: \(b.prefix(400))")
            break
        }
        #expect(try T.scene(r, "m") == T.scene(c, "m"))
        #expect(try r.ok("dynamics.item", #"{"session":"m","element":{"body":"card"}}"#)
                == c.ok("dynamics.item", #"{"session":"m","element":{"body":"card"}}"#))

        // And the script is a test that passes, embedded and against a server.
        let directory = server.directory
        let file = directory + "/recorded.trellis"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        for arguments in [["run", file], ["--socket", other.socketPath, "run", file]] {
            let run = trellisCombinedOutput(arguments)
            #expect(run.status == 0, "trellis \(arguments.joined(separator: " ")):\n\(run.output.suffix(3000))")
            #expect(!run.output.contains("not ok"))
            #expect(run.output.contains("ok 1 - expect m time=0ms visible=0"))
        }
    }

    @Test func refusalsAreClearAndChangeNothing() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        try c.ok("session.create", #"{"name":"m","clock":"manual"}"#)
        func refused(_ method: String, _ params: String, _ code: String, _ text: String) throws {
            let reply = try c.reply(method, params)
            #expect(reply["error"]?["data"]?["code"] == .string(code) || (code == "invalid_params" && reply["error"]?["code"] == T.n(-32602)),
                    "\(method) \(params): \(JSONWriter.string(reply))")
            #expect((reply["error"]?["message"]?.stringValue ?? "").contains(text), "\(method) \(params): \(JSONWriter.string(reply))")
        }
        try refused("recording.start", #"{"session":"nope"}"#, "unknown_session", "no session named 'nope'")
        try refused("recording.stop", #"{"session":"m"}"#, "invalid_state", "is not being recorded")
        try refused("recording.mark", #"{"session":"m","label":"x"}"#, "invalid_state", "is not being recorded")
        try refused("recording.start", #"{"session":"m","checkpoints":"often"}"#, "invalid_params", "\"changes\"")
        try refused("recording.start", #"{"session":"m","destination":"a\nb"}"#, "invalid_params", "control characters")
        try refused("recording.start", #"{"session":"m","extra":1}"#, "invalid_params", "extra")
        // None of those started anything.
        try refused("recording.stop", #"{"session":"m"}"#, "invalid_state", "is not being recorded")

        try c.ok("recording.start", #"{"session":"m"}"#)
        try refused("recording.start", #"{"session":"m"}"#, "invalid_state", "already being recorded")
        try refused("recording.mark", #"{"session":"m","label":"\#(String(repeating: "x", count: 201))"}"#, "invalid_params", "200 bytes")
        try c.ok("clock.advance", #"{"session":"m","ms":10}"#)
        let stopped = try c.ok("recording.stop", #"{"session":"m"}"#)
        #expect(stopped["changes"] == T.n(1))
        try refused("recording.stop", #"{"session":"m"}"#, "invalid_state", "is not being recorded")

        // A state given at creation is checked like any request: ranges, unknown keys, company.
        try refused("session.create", #"{"name":"x","state":{"name":"x"}}"#, "invalid_params", "params.state")
        let state = #"{"sections":[],"name":"x","clock":"manual","time":0,"bounds":[100,-5],"contentInset":[0,0,0,0],"contentOffset":[0,0],"layout":{"type":"flow"},"selected":[],"allowsSelection":true,"allowsMultipleSelection":false}"#
        try refused("session.create", #"{"name":"x","state":\#(state)}"#, "invalid_params", "params.state.bounds[1]")
        try refused("session.create", #"{"name":"x","bounds":[1,1],"state":\#(state)}"#, "invalid_params", "bounds")
        #expect(try c.ok("session.list", "{}")["sessions"]?.arrayValue?.count == 1)

        // Without a state directory there is nowhere to write.
        let bare = try ServerProcess(arguments: ["--no-persistence"])
        defer { bare.stop() }
        let b = try bare.connect()
        try b.ok("session.create", #"{"name":"m","clock":"manual"}"#)
        let reply = try b.reply("recording.start", #"{"session":"m"}"#)
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))
        #expect((reply["error"]?["message"]?.stringValue ?? "").contains("--state-dir"))
    }

    @Test func aVanishedFileStopsTheRecordingWithAnEventAndKeepsWhatWasWritten() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        try c.ok("session.create", #"{"name":"m","clock":"manual"}"#)
        let viewer = try server.connect()
        try viewer.must("session.attach", ["session": .string("m"), "readOnly": .bool(true)])
        let path = try c.ok("recording.start", #"{"session":"m"}"#)["path"]?.stringValue ?? ""
        try c.ok("clock.advance", #"{"session":"m","ms":10}"#)
        // Lines reach the file at most 50 ms after they were accepted (ScriptRecording.flushMilliseconds).
        usleep(150_000)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        #expect(before.contains("\nadvance m 10ms\n"))
        // The disk goes away under the server: the whole recordings directory.
        try FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        // Writes look for their file at most every 100 ms (ScriptRecording.placeCheckInterval).
        usleep(150_000)
        // The change itself is accepted; the recording stops and says so to the viewers.
        #expect(try c.ok("clock.advance", #"{"session":"m","ms":20}"#)["time"] == T.n(30))
        var notice: JSONValue?
        while let message = viewer.readMessage() {
            if message["method"] == .string("recording.stopped") { notice = message["params"]; break }
        }
        #expect(notice?["session"] == .string("m"))
        #expect((notice?["reason"]?.stringValue ?? "").contains("was removed or replaced"))
        #expect(notice?["bytes"] == T.n(Double(before.utf8.count)))
        // Marks are refused now; the stop still hands over all that was written.
        #expect(try c.reply("recording.mark", #"{"session":"m"}"#)["error"]?["data"]?["code"] == .string("invalid_state"))
        let stopped = try c.ok("recording.stop", #"{"session":"m"}"#)
        #expect(stopped["script"] == .string(before))
        #expect((stopped["ended"]?.stringValue ?? "").contains("was removed"))
        #expect(stopped["changes"] == T.n(1))
        // And recording again works: the directory is made anew.
        try c.ok("recording.start", #"{"session":"m"}"#)
    }

    @Test func aDestroyedSessionsRecordingEndsWithItsKillAndIsStillCollected() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        try c.ok("session.create", #"{"name":"a b","clock":"manual"}"#)
        try c.ok("recording.start", #"{"session":"a b","checkpoints":"marks"}"#)
        try c.ok("clock.advance", #"{"session":"a b","ms":5}"#)
        try c.ok("session.destroy", #"{"session":"a b"}"#)
        // A new session of the same name is not the one recorded.
        try c.ok("session.create", #"{"name":"a b","clock":"manual"}"#)
        try c.ok("clock.advance", #"{"session":"a b","ms":7}"#)
        let stopped = try c.ok("recording.stop", #"{"session":"a b"}"#)
        let script = stopped["script"]?.stringValue ?? ""
        #expect(script.hasSuffix("advance 'a b' 5ms\nkill 'a b'\n# recording ended: the session was destroyed\n"), "\(script)")
        #expect(!script.contains("7ms"))
        #expect(stopped["changes"] == T.n(2))
        // Checkpoints only at marks: just the first one, at the start.
        #expect(script.components(separatedBy: "\nexpect 'a b' time=").count == 2)
    }

    @Test func aNameThatReadsAsAnOptionIsRecordedAsRawLinesAndReplays() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        try c.ok("session.create", #"{"name":"-x","clock":"manual"}"#)
        // A checkpoint after every change, so each raw line is seen followed by one.
        try c.ok("recording.start", #"{"session":"-x","checkpoints":"changes"}"#)
        try c.ok("clock.advance", #"{"session":"-x","ms":5}"#)
        try c.ok("scroll.to", #"{"session":"-x","offset":[0,-20]}"#)
        let script = try c.ok("recording.stop", #"{"session":"-x"}"#)["script"]?.stringValue ?? ""
        #expect(script.contains("\nrpc clock.advance '{\"ms\":5,\"session\":\"-x\"}'\nexpect '-x' time=5ms"), "\(script)")
        #expect(script.contains("\nrpc scroll.to '{\"offset\":[0,-20],\"session\":\"-x\"}'\n"))
        let file = server.directory + "/x.trellis"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        let run = trellisCombinedOutput(["run", file])
        #expect(run.status == 0 && !run.output.contains("not ok"), "\(run.output)")
    }

    @Test func aServerHoldsAtMost64Recordings() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        for k in 0..<RecordingMethods.maximumRecordings {
            try c.ok("session.create", "{\"name\":\"s\(k)\",\"clock\":\"manual\"}")
            try c.ok("recording.start", "{\"session\":\"s\(k)\"}")
        }
        try c.ok("session.create", #"{"name":"one-more","clock":"manual"}"#)
        let reply = try c.reply("recording.start", #"{"session":"one-more"}"#)
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))
        #expect((reply["error"]?["message"]?.stringValue ?? "").contains("already holds 64 recordings"))
        try c.ok("recording.stop", #"{"session":"s0"}"#)
        try c.ok("recording.start", #"{"session":"one-more"}"#)
    }
}
