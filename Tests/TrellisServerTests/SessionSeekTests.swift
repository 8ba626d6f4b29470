import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// Revisiting a recorded session (session.seek, session.fork's `at`) against a real `trellisd`:
/// a moment rebuilt from the history is the very scene the live session had then, byte for
/// byte, from any keyframe; a fork of a past moment goes its own way without touching the
/// original; bad moments are refused with the range the recording covers, and change nothing.
@Suite struct SessionSeekTests {
    typealias T = PersistenceTests

    static let frame = 1000.0 / 60

    /// Drives `name` frame by frame (one clock.advance of a sixtieth of a second each) for
    /// `frames` frames with a mix of changes between them (a reload, batches, an animated
    /// scroll, a pan and its fling, a layout change, a body under gravity); returns the scene
    /// at each frame once the changes made at its time were made (what a seek to it shows).
    static func drive(_ c: RPCConnection, _ name: String, frames: Int) throws -> [String] {
        let s = "\"session\":\"\(name)\""
        var scenes: [String] = []
        for k in 0...frames {
            switch k {
            case 3: try c.ok("data.reload", "{\(s),\"sections\":[{\"id\":\"a\",\"items\":[\(FlightRecorderTests.items(60))]}]}")
            case 10: try c.ok("batch", "{\(s),\"ops\":[{\"op\":\"insertItems\",\"at\":[[0,1]],\"items\":[{\"id\":\"new\"}]},{\"op\":\"deleteItems\",\"at\":[[0,5]]}]}")
            case 20: try c.ok("scroll.to", "{\(s),\"offset\":[0,160],\"animated\":true}")
            case 50: try c.ok("gesture.pan", "{\(s),\"phase\":\"began\",\"translation\":[0,0]}")
            case 51...56: try c.ok("gesture.pan", "{\(s),\"phase\":\"changed\",\"translation\":[0,\(-12 * (k - 50))]}")
            case 57: try c.ok("gesture.pan", "{\(s),\"phase\":\"ended\",\"translation\":[0,-80],\"velocity\":[0,-1500]}")
            case 90: try c.ok("layout.set", "{\(s),\"layout\":{\"type\":\"flow\",\"itemSize\":[80,40]},\"animated\":true,\"duration\":0.3}")
            case 120: try c.ok("body.add", "{\(s),\"body\":\"card\",\"center\":[150,100],\"size\":[60,40],\"angle\":0.3}")
            case 121: try c.ok("dynamics.add", "{\(s),\"behavior\":{\"type\":\"gravity\",\"items\":[{\"body\":\"card\"}]}}")
            case 122: try c.ok("dynamics.add", "{\(s),\"behavior\":{\"type\":\"collision\",\"items\":[{\"body\":\"card\"}],\"translatesReferenceBoundsIntoBoundary\":true}}")
            case 140...145: try c.ok("batch", "{\(s),\"ops\":[{\"op\":\"insertItems\",\"at\":[[0,0]],\"items\":[{\"id\":\"f\(k)\"}]}]}")
            default: break
            }
            scenes.append(JSONWriter.string(try T.scene(c, name)))
            if k < frames { try c.ok("clock.advance", "{\(s),\"ms\":\(frame)}") }
        }
        return scenes
    }

    static func seek(_ c: RPCConnection, _ name: String, _ moment: String) throws -> JSONValue {
        try c.ok("session.seek", "{\"session\":\"\(name)\",\(moment)}")
    }

    @Test func aSeekIsTheLiveFrameByteForByteFromAnyKeyframe() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        try c.ok("session.create", #"{"name":"m","clock":"manual","bounds":[320,480]}"#)
        try c.ok("recording.start", #"{"session":"m","checkpoints":"marks"}"#)
        // 200 frames: 3.3 s, so keyframes (each second) come between changes and mid-animation.
        let live = try Self.drive(c, "m", frames: 200)
        for n in [0, 1, 3, 4, 11, 21, 33, 55, 58, 60, 61, 89, 91, 100, 119, 121, 123, 130, 141, 146, 180, 199, 200] {
            let r = try Self.seek(c, "m", "\"atFrame\":\(n)")
            #expect(r["frame"] == T.n(Double(n)))
            let scene = JSONWriter.string(r["scene"] ?? .null)
            #expect(scene == live[n], "frame \(n) differs:\n  live: \(live[n].prefix(300))\n  seek: \(scene.prefix(300))")
        }
        // `at` in ms lands on the same frames (a frame's time as a reply writes it).
        let time = try T.scene(c, "m")["time"]?.numberValue ?? -1
        let r = try Self.seek(c, "m", "\"at\":\(time)")
        #expect(JSONWriter.string(r["scene"] ?? .null) == live[200])
        // And the live session did not move: the seeks only read it.
        #expect(JSONWriter.string(try T.scene(c, "m")) == live[200])
        // The history outlives the file's own end; it goes with the recording's collection.
        try c.ok("recording.stop", #"{"session":"m"}"#)
        #expect(try c.reply("session.seek", #"{"session":"m","atFrame":1}"#)["error"]?["data"]?["code"] == .string("invalid_state"))
    }

    @Test func aForkOfAPastMomentGoesItsOwnWayWithoutTouchingTheOriginal() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        try c.ok("session.create", #"{"name":"m","clock":"manual","bounds":[320,480]}"#)
        try c.ok("recording.start", #"{"session":"m"}"#)
        let live = try Self.drive(c, "m", frames: 100)
        let forked = try c.ok("session.fork", #"{"session":"m","name":"then","atFrame":60}"#)
        #expect(forked["name"] == .string("then") && forked["clock"] == .string("manual"))
        #expect(forked["time"] == T.n(WireEncoding.milliseconds(60 * Self.frame / 1000)))
        // The fork holds the model of frame 60 (view ids are its own, as any fork's).
        let original = try T.scene(c, "m")
        let atSixty = try Self.seek(c, "m", "\"atFrame\":60")["scene"] ?? .null
        #expect(try T.attributes(c, "then")["attributes"]?.arrayValue?.count ?? 0 > 0)
        #expect(try T.scene(c, "then")["contentOffset"] == atSixty["contentOffset"])
        // It diverges: a batch and a scroll on the fork, none of it reaching the original.
        try c.ok("batch", #"{"session":"then","ops":[{"op":"deleteItems","at":[[0,0],[0,1],[0,2]]}]}"#)
        try c.ok("scroll.to", #"{"session":"then","offset":[0,0]}"#)
        try c.ok("clock.advance", #"{"session":"then","ms":500}"#)
        #expect(try T.scene(c, "m") == original)
        #expect(JSONWriter.string(original) == live[100])
        #expect(try c.ok("session.info", #"{"session":"then"}"#)["items"] != c.ok("session.info", #"{"session":"m"}"#)["items"])
        // The original's recording goes on: the fork was no change of it.
        try c.ok("clock.advance", #"{"session":"m","ms":16}"#)
        let stopped = try c.ok("recording.stop", #"{"session":"m"}"#)
        let script = stopped["script"]?.stringValue ?? ""
        let mentionsTheFork = script.contains("\"then\"")
        #expect(script.hasPrefix("# Recorded by trellisd") && !mentionsTheFork)
        // A restart brings the fork back as it was made (journaled as the session it is).
        let before = try T.scene(c, "then")
        server.stop()
        let restarted = try ServerProcess(directory: server.scratch)
        defer { restarted.stop() }
        let again = try restarted.connect()
        #expect(try T.scene(again, "then") == before)
    }

    @Test func badMomentsAreRefusedWithTheRangeAndChangeNothing() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        try c.ok("session.create", #"{"name":"m","clock":"manual"}"#)
        try c.ok("session.create", #"{"name":"plain","clock":"manual"}"#)
        try c.ok("clock.advance", #"{"session":"m","ms":100}"#)
        try c.ok("recording.start", #"{"session":"m"}"#)
        _ = try Self.drive(c, "m", frames: 30)
        let info = try c.ok("session.info", #"{"session":"m"}"#)
        func refusal(_ params: String) throws -> (code: JSONValue?, message: String) {
            let reply = try c.reply("session.seek", params)
            let error = reply["error"]
            return (error?["data"]?["code"] ?? error?["code"], error?["message"]?.stringValue ?? "no error: \(JSONWriter.string(reply))")
        }
        let range = "0 … 500 ms, frames 0 … 30"
        var r = try refusal(#"{"session":"m","at":-1}"#)
        #expect(r.code == .string("out_of_range") && r.message.contains("before the start") && r.message.contains(range), "\(r.message)")
        r = try refusal(#"{"session":"m","atFrame":-2}"#)
        #expect(r.code == .string("out_of_range") && r.message.contains("before the start"), "\(r.message)")
        r = try refusal(#"{"session":"m","at":500.5}"#)
        #expect(r.code == .string("out_of_range") && r.message.contains("past the end") && r.message.contains(range), "\(r.message)")
        r = try refusal(#"{"session":"m","atFrame":31}"#)
        #expect(r.code == .string("out_of_range") && r.message.contains("past the end"), "\(r.message)")
        r = try refusal(#"{"session":"m","atFrame":1.5}"#)
        #expect(r.code == T.n(-32602) && r.message.contains("whole frame number"), "\(r.message)")
        r = try refusal(#"{"session":"m","at":"12s"}"#)
        #expect(r.code == T.n(-32602) && r.message.contains("params.at"), "\(r.message)")
        r = try refusal(#"{"session":"m","at":null}"#)
        #expect(r.code == T.n(-32602) && r.message.contains("finite"), "\(r.message)")
        r = try refusal(#"{"session":"m","at":1,"atFrame":1}"#)
        #expect(r.code == T.n(-32602) && r.message.contains("not both"), "\(r.message)")
        r = try refusal(#"{"session":"m"}"#)
        #expect(r.code == T.n(-32602) && r.message.contains("atFrame"), "\(r.message)")
        r = try refusal(#"{"session":"nope","at":0}"#)
        #expect(r.code == .string("unknown_session"), "\(r.message)")
        r = try refusal(#"{"session":"plain","at":0}"#)
        #expect(r.code == .string("invalid_state") && r.message.contains("not being recorded") && r.message.contains("record-script"), "\(r.message)")
        // A fork of a bad moment makes no session.
        let fork = try c.reply("session.fork", #"{"session":"m","name":"x","at":600}"#)
        #expect(fork["error"]?["data"]?["code"] == .string("out_of_range"))
        #expect(try c.reply("session.info", #"{"session":"x"}"#)["error"] != nil)
        // Nothing moved.
        #expect(try c.ok("session.info", #"{"session":"m"}"#) == info)
        // The first and last moments are in range.
        #expect(try Self.seek(c, "m", "\"at\":0")["time"] == T.n(100))
        #expect(try Self.seek(c, "m", "\"atFrame\":30")["frame"] == T.n(30))
        // A destroyed session's history ends at its destruction and is still there to revisit.
        try c.ok("session.destroy", #"{"session":"m"}"#)
        #expect(try Self.seek(c, "m", "\"atFrame\":30")["frame"] == T.n(30))
        r = try refusal(#"{"session":"m","atFrame":31}"#)
        #expect(r.code == .string("out_of_range") && r.message.contains("destroyed"), "\(r.message)")
    }

    /// A long replay does not hold the loop: with one change replayed per loop turn, a seek over
    /// a thousand changes takes many turns, another client is answered meanwhile, and a request
    /// naming the session waits behind it; the scene is the live one all the same. A fork of a
    /// past moment is deferred the same way.
    @Test func aLongSeekReplaysOverLoopTurnsAndLeavesTheLoopFree() throws {
        let server = try ServerProcess(arguments: ["--seek-changes-per-turn", "1"])
        defer { server.stop() }
        let c = try server.connect(seconds: 120), other = try server.connect(seconds: 120)
        try c.ok("session.create", #"{"name":"m","clock":"manual","bounds":[320,480],"sections":[{"id":"s","items":[]}]}"#)
        try c.ok("recording.start", #"{"session":"m","checkpoints":"marks"}"#)
        // 1,000 changes at one moment (no keyframe among them: one every 1,024 changes or a
        // second), sent a hundred at a time.
        let count = 1000
        for start in stride(from: 0, to: count, by: 100) {
            var lines = ""
            for k in start..<(start + 100) {
                lines += #"{"jsonrpc":"2.0","id":\#(k),"method":"batch","params":{"session":"m","ops":[{"op":"insertItems","at":[[0,0]],"items":[{"id":"i\#(k)"}]}]}}"# + "\n"
            }
            c.sendRaw(lines)
            for _ in 0..<100 { #expect(try #require(c.readMessage())["error"] == nil) }
        }
        try c.ok("clock.advance", #"{"session":"m","ms":50}"#)
        let live = JSONWriter.string(try T.scene(c, "m"))
        try c.ok("clock.advance", #"{"session":"m","ms":50}"#)

        c.sendRaw(#"{"jsonrpc":"2.0","id":"seek","method":"session.seek","params":{"session":"m","at":50}}"# + "\n")
        // Served while the seek replays: it is pending, and not answered yet.
        let stats = try other.ok("stats", "{}")
        #expect(stats["pendingRequests"] == T.n(1), "\(JSONWriter.string(stats))")
        var ready = pollfd(fd: c.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 0) == 0, "the seek was answered before another client's request: it held the loop")
        // Naming the session, a request waits for the seek (and sees the session unchanged).
        #expect(try other.ok("session.info", #"{"session":"m"}"#)["items"] == T.n(Double(count)))
        let seek = try #require(c.readMessage())
        #expect(seek["id"] == .string("seek"))
        #expect(JSONWriter.string(seek["result"]?["scene"] ?? .null) == live)
        // The log says how many turns it took: one change each (the batches and the advance).
        let turns = server.stderrText.components(separatedBy: "seek of 'm' replayed \(count + 1) changes over ").dropFirst().first
        #expect(turns.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0 >= count + 1, "\(server.stderrText.suffix(600))")

        // A fork of that moment, deferred too, makes the session as it was then.
        let forked = try c.ok("session.fork", #"{"session":"m","name":"then","at":50}"#)
        #expect(forked["name"] == .string("then"))
        #expect(JSONWriter.string(try T.scene(c, "then")["contentOffset"] ?? .null) == JSONWriter.string(try T.scene(c, "m")["contentOffset"] ?? .null))
        #expect(try c.ok("session.info", #"{"session":"then"}"#)["items"] == T.n(Double(count)))
    }

    /// recording.info gives what a timeline needs: a range that grows with the live session (the
    /// one session.seek accepts, to the frame), the marks in order with their frames, and the
    /// file's and the history's ends; it changes nothing and names a session not recorded.
    @Test func recordingInfoGivesTheRangeAndTheMarksASeekAccepts() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let c = try server.connect()
        try c.ok("session.create", #"{"name":"m","clock":"manual","bounds":[320,480]}"#)
        let notRecorded = try c.reply("recording.info", #"{"session":"m"}"#)
        #expect(notRecorded["error"]?["data"]?["code"] == .string("invalid_state"))
        try c.ok("recording.start", #"{"session":"m"}"#)
        var info = try c.ok("recording.info", #"{"session":"m"}"#)
        #expect(info["at"] == T.n(0) && info["lastFrame"] == T.n(0) && info["marks"] == .array([]))
        #expect(info["writing"] == .bool(true) && info["checkpoints"] == .string("frames") && info["historyEnded"] == nil)
        try c.ok("clock.advance", #"{"session":"m","ms":250}"#)
        try c.ok("recording.mark", #"{"session":"m","label":"first"}"#)
        try c.ok("data.reload", #"{"session":"m","sections":[{"id":"a","items":[{"id":"x"}]}]}"#)
        try c.ok("clock.advance", #"{"session":"m","ms":1000}"#)
        try c.ok("recording.mark", #"{"session":"m","label":"second"}"#)
        try c.ok("clock.advance", #"{"session":"m","ms":10}"#)
        let before = JSONWriter.string(try T.scene(c, "m"))
        info = try c.ok("recording.info", #"{"session":"m"}"#)
        #expect(info["at"] == T.n(1260) && info["lastFrame"] == T.n(75))
        #expect(info["marks"] == .array([
            .object(["label": .string("first"), "at": T.n(250), "frame": T.n(15)]),
            .object(["label": .string("second"), "at": T.n(1250), "frame": T.n(75)]),
        ]))
        // Its range is session.seek's: the last frame is accepted, the one after refused.
        _ = try Self.seek(c, "m", "\"atFrame\":75")
        #expect(try c.reply("session.seek", #"{"session":"m","atFrame":76}"#)["error"]?["data"]?["code"] == .string("out_of_range"))
        #expect(JSONWriter.string(try T.scene(c, "m")) == before)
        // A destroyed session's recording still answers, its history ended with the session.
        try c.ok("session.destroy", #"{"session":"m"}"#)
        info = try c.ok("recording.info", #"{"session":"m"}"#)
        #expect(info["writing"] == .bool(false) && info["historyEnded"] != nil && info["at"] == T.n(1260))
        #expect(try c.reply("recording.info", #"{"session":"m","at":1}"#)["error"]?["code"] == T.n(-32602))
        try c.ok("recording.stop", #"{"session":"m"}"#)
        #expect(try c.reply("recording.info", #"{"session":"m"}"#)["error"]?["data"]?["code"] == .string("unknown_session"))
    }
}
