import Foundation
import Testing
import TrellisCore
@testable import TrellisProtocol

/// trellisd as a separate process on a real Unix socket, driven by clients in this process.
@Suite(.serialized) struct ServerIntegrationTests {
    static func items(_ n: Int, prefix: String = "i") -> JSONValue {
        .array([.object(["id": .string("s0"), "items": .array((0..<n).map { .object(["id": .string("\(prefix)\($0)")]) })])])
    }

    static func createDemo(_ c: RPCConnection, items n: Int = 30) throws {
        try c.result("session.create", ["name": .string("demo"), "bounds": .array([.number(375), .number(812)]),
                                        "layout": .object(["type": .string("flow"), "itemSize": .array([.number(100), .number(100)])]),
                                        "clock": .string("manual")])
        try c.result("data.reload", ["session": .string("demo"), "sections": items(n)])
    }

    /// Applies a viewer's keyframe and every frame it received, then compares with query.scene.
    static func mirror(_ viewer: RPCConnection, keyframe: JSONValue) throws -> Scene {
        var state = ViewerState(keyframe: try WireScene.scene(keyframe))
        var lastSeq = Int.min
        for note in viewer.notifications where note["method"] == .string("frame") {
            let params = note["params"]!
            let seq = Int(params["seq"]!.numberValue!)
            #expect(seq > lastSeq)
            lastSeq = seq
            state.apply(try WireScene.delta(params))
        }
        viewer.notifications.removeAll()
        return state.scene
    }

    @Test func everyViewerEndsWithTheServersScene() throws {
        let server = try ServerProcess()
        let controller = try server.connect()
        try Self.createDemo(controller)
        let viewers = try (0..<3).map { _ in try server.connect() }
        var keyframes: [JSONValue] = []
        for v in viewers { keyframes.append(try v.result("session.attach", ["session": .string("demo")])["keyframe"]!) }
        // A scripted scenario: scroll, batch with animation stepped by the manual clock, layout change.
        try controller.result("scroll.to", ["session": .string("demo"), "offset": .array([.number(0), .number(300)])])
        try controller.result("batch", ["session": .string("demo"), "ops": .array([
            .object(["op": .string("deleteItems"), "at": .array([.array([.number(0), .number(3)]), .array([.number(0), .number(4)])])]),
            .object(["op": .string("insertItems"), "at": .array([.array([.number(0), .number(0)])]), "items": .array([.object(["id": .string("new")])])]),
        ]), "duration": .number(0.3), "curve": .string("easeOut")])
        for _ in 0..<5 { try controller.result("clock.advance", ["session": .string("demo"), "ms": .number(40)]) }
        try controller.result("layout.set", ["session": .string("demo"), "layout": .object(["type": .string("circle")]),
                                             "animated": .bool(true), "duration": .number(0.5)])
        for _ in 0..<4 { try controller.result("clock.advance", ["session": .string("demo"), "ms": .number(100)]) }
        let truth = try WireScene.scene(try controller.result("query.scene", ["session": .string("demo")]))
        for (viewer, keyframe) in zip(viewers, keyframes) {
            _ = try viewer.result("hello")   // every frame before this reply has arrived
            let mirrored = try Self.mirror(viewer, keyframe: keyframe)
            #expect(Bool(mirrored == truth), "viewer's mirror differs from query.scene")
        }
        // The three viewers were caught up: their frames went out by splice, whole.
        let stats = try controller.result("stats")
        #expect((stats["framesSpliced"]?.numberValue ?? 0) > 0)
        server.stop()
    }

    @Test func readOnlyViewersCannotMutate() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        try Self.createDemo(c, items: 3)
        let viewer = try server.connect()
        try viewer.result("session.attach", ["session": .string("demo"), "readOnly": .bool(true)])
        let reply = try viewer.call("batch", ["session": .string("demo"), "ops": .array([])])
        #expect(reply["error"]?["data"]?["code"] == .string("read_only"))
        #expect(try viewer.result("query.scene", ["session": .string("demo")])["views"] != nil)
        server.stop()
    }

    @Test func refusedBatchIsAnInvalidUpdateWithUIKitsMessageAndChangesNothing() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        try Self.createDemo(c, items: 5)
        let before = try c.result("query.scene", ["session": .string("demo")])
        let reply = try c.call("batch", ["session": .string("demo"), "ops": .array([
            .object(["op": .string("insertItems"), "at": .array([.array([.number(0), .number(0)])]), "items": .array([.object(["id": .string("x")])])]),
        ]), "sections": Self.items(5)])
        let error = reply["error"]!
        #expect(error["code"] == .number(-32001))
        #expect(error["data"]?["code"] == .string("invalid_update"))
        #expect(error["message"]?.stringValue == "Invalid update: invalid number of items in section 0.  The number of items contained in an existing section after the update (5) must be equal to the number of items contained in that section before the update (5), plus or minus the number of items inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).")
        #expect(try c.result("query.scene", ["session": .string("demo")]) == before)
        server.stop()
    }

    @Test func badInputGetsClearErrorsAndTheServerLivesOn() throws {
        let server = try ServerProcess(arguments: ["--max-message-bytes", "4096"])
        let c = try server.connect()
        func next() -> JSONValue { c.readMessage() ?? .null }
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\n")
        #expect(next()["error"]?["code"] == .number(-32700))
        c.sendRaw("[1,2]\n")
        #expect(next()["error"]?["code"] == .number(-32600))
        c.sendRaw("{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"hello\"}\n")
        #expect(next()["error"]?["code"] == .number(-32600))
        #expect(try c.call("no.such.method")["error"]?["code"] == .number(-32601))
        let wrongType = try c.call("session.create", ["name": .number(3)])
        #expect(wrongType["error"]?["message"]?.stringValue == "params.name: expected a string, found a number (3)")
        #expect(try c.call("query.scene", ["session": .string("ghost")])["error"]?["data"]?["code"] == .string("unknown_session"))
        try Self.createDemo(c, items: 3)
        let outOfRange = try c.call("scroll.toItem", ["session": .string("demo"), "at": .array([.number(0), .number(7)])])
        #expect(outOfRange["error"]?["data"]?["code"] == .string("out_of_range"))
        #expect(outOfRange["error"]?["message"]?.stringValue == "index path 0:7 is out of range: section 0 has 3 items (valid items 0..<3)")
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"hello\",\"params\":{\"x\":\(deep)}}\n")
        #expect(next()["error"]?["code"] == .number(-32700))
        c.sendRaw(String(repeating: "x", count: 10_000) + "\n")
        let oversized = next()
        #expect(oversized["error"]?["data"]?["code"] == .string("limit_exceeded"))
        #expect(try c.result("hello")["server"] == .string("trellisd"))
        server.stop()
    }

    @Test func vanishingAndStalledViewersDoNotStallTheRest() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        try Self.createDemo(c, items: 200)
        // One viewer attaches and never reads again; another attaches and disappears.
        let stalled = try server.connect()
        let attachedAt = try stalled.result("session.attach", ["session": .string("demo")])["seq"]?.numberValue ?? -1
        let vanishing = try server.connect()
        try vanishing.result("session.attach", ["session": .string("demo")])
        vanishing.close()
        let healthy = try server.connect()
        let keyframe = try healthy.result("session.attach", ["session": .string("demo")])["keyframe"]!
        // Many frames with many changed views: the stalled viewer's socket fills up.
        for step in 0..<150 {
            try c.result("scroll.to", ["session": .string("demo"), "offset": .array([.number(0), .number(Double(step % 2) * 3000)])])
        }
        // Reading drains its backlog; within a frame after that it gets one catch-up delta.
        _ = try healthy.result("hello")
        usleep(200_000)
        _ = try healthy.result("hello")
        let truth = try WireScene.scene(try c.result("query.scene", ["session": .string("demo")]))
        let mirrored = try Self.mirror(healthy, keyframe: keyframe)
        #expect(Bool(mirrored == truth), "healthy viewer's mirror differs from query.scene")
        let stats = try c.result("stats", ["session": .string("demo")])
        let viewers = stats["viewers"]?.arrayValue ?? []
        #expect(viewers.count == 2)   // the vanished one is gone
        #expect(viewers.contains { ($0["framesSkipped"]?.numberValue ?? 0) > 0 })
        server.stop()
    }

    @Test func aViewerAboveItsLimitTooLongIsCutAndTheRestCarryOn() throws {
        let server = try ServerProcess(arguments: ["--viewer-soft-limit", "16384", "--viewer-hard-limit", "65536",
                                                   "--viewer-soft-seconds", "0.3"])
        let c = try server.connect()
        try Self.createDemo(c, items: 200)
        let stalled = try server.connect()
        let attachedAt = try stalled.result("session.attach", ["session": .string("demo")])["seq"]?.numberValue ?? -1
        // Fill the stalled viewer's socket and then its queue above the soft limit.
        var step = 0
        let deadline = Date().addingTimeInterval(10)
        func disconnected() throws -> Double { try c.result("stats")["viewersDisconnected"]?.numberValue ?? 0 }
        while try disconnected() == 0, Date() < deadline {
            try c.result("scroll.to", ["session": .string("demo"), "offset": .array([.number(0), .number(Double(step % 2) * 3000)])])
            step += 1
            if step > 300 { usleep(20_000) }   // the socket is full by now: let the soft-limit clock run out
        }
        #expect(try disconnected() == 1)
        #expect(server.stderrText.contains("disconnecting viewer"))
        // It can read what was queued before the cut: whole frames of its session, in order (a
        // gap where it skipped), then the connection ends.
        var seqs: [Double] = []
        while let message = stalled.readMessage() {
            #expect(message["method"] == .string("frame") && message["params"]?["session"] == .string("demo"), "\(message)")
            seqs.append(message["params"]?["seq"]?.numberValue ?? -1)
        }
        #expect(!seqs.isEmpty)
        #expect(seqs.first.map { $0 > attachedAt } == true)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "\(seqs)")
        #expect(stalled.readMessage() == nil)
        // The controller was never slowed or cut, and a new viewer attaches fine.
        let fresh = try server.connect()
        #expect(try fresh.result("session.attach", ["session": .string("demo")])["keyframe"] != nil)
        #expect((try c.result("stats", ["session": .string("demo")])["viewers"]?.arrayValue ?? []).count == 1)
        server.stop()
    }

    @Test func aLaggingViewerLosesFramesButNotEvents() throws {
        let server = try ServerProcess(arguments: ["--viewer-soft-limit", "16384"])
        let c = try server.connect()
        try Self.createDemo(c, items: 200)
        let viewer = try server.connect()
        let keyframe = try viewer.result("session.attach", ["session": .string("demo")])["keyframe"]!
        // The viewer does not read until it is behind.
        func skipped() throws -> Double {
            let viewers = try c.result("stats", ["session": .string("demo")])["viewers"]?.arrayValue ?? []
            return viewers.first?["framesSkipped"]?.numberValue ?? 0
        }
        var step = 0
        while try skipped() == 0, step < 2000 {
            try c.result("scroll.to", ["session": .string("demo"), "offset": .array([.number(0), .number(Double(step % 2) * 3000)])])
            step += 1
        }
        #expect(try skipped() > 0)
        // While it lags, an animated batch runs to its end: its update.completed must still arrive.
        let update = try c.result("batch", ["session": .string("demo"), "ops": .array([
            .object(["op": .string("deleteItems"), "at": .array([.array([.number(0), .number(0)])])])])])["update"]!
        try c.result("clock.advance", ["session": .string("demo"), "ms": .number(1000)])
        // Reading drains the backlog; the frame timer then sends one catch-up delta and the events.
        let deadline = Date().addingTimeInterval(10)
        var completed = false
        while !completed, Date() < deadline, let message = viewer.readMessage() {
            if message["method"] == .string("update.completed") {
                #expect(message["params"]?["update"] == update)
                completed = true
            } else {
                viewer.notifications.append(message)
            }
        }
        #expect(completed)
        let truth = try WireScene.scene(try c.result("query.scene", ["session": .string("demo")]))
        #expect(Bool(try Self.mirror(viewer, keyframe: keyframe) == truth), "the lagging viewer's mirror differs from query.scene")
        server.stop()
    }

    @Test func pipelinedRequestsAreAnsweredInOrderInOneGo() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        var text = ""
        for id in 1...200 { text += #"{"jsonrpc":"2.0","id":\#(id),"method":"hello"}"# + "\n" }
        text += #"{"jsonrpc":"2.0","method":"no.such.method"}"# + "\n"   // a notification: no reply
        text += #"{"jsonrpc":"2.0","id":201,"method":"shutdown"}"# + "\n"
        c.sendRaw(text)
        for id in 1...201 {
            let reply = c.readMessage()
            #expect(reply?["id"] == .number(Double(id)), "reply \(id)")
        }
        // The shutdown's own reply went out before the connection closed.
        #expect(c.readMessage() == nil)
        server.process.waitUntilExit()
    }

    @Test func secondServerOnTheSameSocketIsRefused() throws {
        let server = try ServerProcess()
        let second = Process()
        second.executableURL = ServerProcess.executable
        second.arguments = ["--socket", server.socketPath]
        // A file, not a pipe: a pipe's write end can leak into other children and never reach EOF.
        let log = server.directory + "/second.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        second.standardError = FileHandle(forWritingAtPath: log)
        try second.run()
        second.waitUntilExit()
        #expect(second.terminationStatus != 0)
        let message = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(message.contains("already running on \(server.socketPath)"))
        #expect(try server.connect().result("hello")["server"] == .string("trellisd"))
        server.stop()
    }

    @Test func crashedServerLeavesAStaleSocketTheNextOneReplaces() throws {
        let first = try ServerProcess()
        first.crash()
        #expect(access(first.socketPath, F_OK) == 0)   // the stale file is still there
        let second = try ServerProcess(directory: first.scratch)
        #expect(try second.connect().result("hello")["server"] == .string("trellisd"))
        second.stop()
        #expect(access(second.socketPath, F_OK) != 0)  // a graceful stop removes it
    }

    @Test func socketAndDirectoryArePrivate() throws {
        let server = try ServerProcess()
        var info = stat()
        #expect(stat(server.directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(stat(server.socketPath, &info) == 0 && info.st_mode & 0o777 == 0o600)
        server.stop()
    }

    @Test func liveClockTicksOnlyWhileSomethingMoves() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        try c.result("session.create", ["name": .string("live"), "layout": .object(["type": .string("flow")])])
        try c.result("data.reload", ["session": .string("live"), "sections": Self.items(20)])
        let viewer = try server.connect()
        let keyframe = try viewer.result("session.attach", ["session": .string("live")])["keyframe"]!
        #expect(try c.result("stats")["ticking"] == .bool(false))
        try c.result("layout.set", ["session": .string("live"), "layout": .object(["type": .string("circle")]),
                                    "animated": .bool(true), "duration": .number(0.25)])
        #expect(try c.result("stats")["ticking"] == .bool(true))
        usleep(600_000)
        let stats = try c.result("stats")
        #expect(stats["ticking"] == .bool(false))
        // Every tick was timed twice: wall clock, and on-CPU, which cannot exceed it.
        let wall = stats["frameTimeMs"], cpu = stats["frameCpuMs"]
        #expect(wall?["ticks"] == cpu?["ticks"])
        #expect((wall?["ticks"]?.numberValue ?? 0) >= 5)
        if let w = wall?["max"]?.numberValue, let c = cpu?["max"]?.numberValue { #expect(c > 0 && c <= w + 0.01) }
        else { Issue.record("stats lacks frameTimeMs.max or frameCpuMs.max: \(stats)") }
        _ = try viewer.result("hello")
        let frames = viewer.notifications.filter { $0["method"] == .string("frame") }.count
        #expect(frames >= 5)    // ~15 at 60 fps over 0.25 s; at least a few on a busy machine
        #expect(viewer.notifications.contains { $0["method"] == .string("transition.completed") && $0["params"]?["finished"] == .bool(true) })
        let truth = try WireScene.scene(try c.result("query.scene", ["session": .string("live")]))
        let mirrored = try Self.mirror(viewer, keyframe: keyframe)
        #expect(Bool(mirrored == truth))
        server.stop()
    }

    @Test func clientsOverTheLimitAreTurnedAwayWithAReason() throws {
        let server = try ServerProcess(arguments: ["--max-clients", "2"])
        usleep(200_000)   // let the server see the harness's start-up probe go away
        let a = try server.connect(), b = try server.connect()
        _ = try a.result("hello"); _ = try b.result("hello")
        let c = try server.connect()
        let refusal = c.readMessage()
        #expect(refusal?["error"]?["data"]?["code"] == .string("limit_exceeded"))
        #expect(refusal?["error"]?["message"]?.stringValue?.contains("--max-clients") == true)
        #expect(c.readMessage() == nil)   // then closed
        // A client that writes its request before reading (after the refusal was sent) can still
        // write, then reads the refusal: the server drains its input instead of resetting it.
        let eager = try server.connect()
        usleep(100_000)
        let request = Array((#"{"jsonrpc":"2.0","id":1,"method":"hello"}"# + "\n").utf8)
        let sent = request.withUnsafeBytes { send(eager.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #expect(sent == request.count, "the write failed: \(String(cString: strerror(errno)))")
        let refused = eager.readMessage()
        #expect(refused?["error"]?["data"]?["code"] == .string("limit_exceeded"), "\(String(describing: refused))")
        #expect(eager.readMessage() == nil)
        b.close()
        usleep(100_000)
        #expect(try server.connect().result("hello")["server"] == .string("trellisd"))
        server.stop()
    }

    @Test func viewersAreToldWhenTheSessionCloses() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        try Self.createDemo(c, items: 2)
        let viewer = try server.connect()
        try viewer.result("session.attach", ["session": .string("demo")])
        try c.result("session.destroy", ["session": .string("demo")])
        let note = viewer.readMessage()
        #expect(note?["method"] == .string("session.closed"))
        server.stop()
    }
}
