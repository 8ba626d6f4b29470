import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// Bounded work (PROTOCOL.md, "Budgets and limits"): a long `clock.advance` does not hold the
/// loop (other clients are served meanwhile; requests for its session wait, in order), a live
/// session whose physics cannot keep up drops steps and says so, and a restart replays a
/// bounded amount of a live session's physics.
@Suite(.serialized) struct BudgetTests {
    typealias T = PersistenceTests

    /// `count` boxes of 30×30 at one point, falling, colliding with each other and the bounds.
    static func crowd(_ c: RPCConnection, _ name: String, count: Int, clock: String = "manual") throws {
        try c.must("session.create", ["name": .string(name), "clock": .string(clock), "bounds": T.pair(400, 400)])
        for k in 0..<count {
            try c.must("body.add", ["session": .string(name), "body": .string("b\(k)"), "center": T.pair(200, 200), "size": T.pair(30, 30)])
        }
        let items: JSONValue = .array((0..<count).map { .object(["body": .string("b\($0)")]) })
        try c.must("dynamics.add", ["session": .string(name), "behavior": .object(["type": .string("gravity"), "items": items])])
        try c.must("dynamics.add", ["session": .string(name), "behavior": .object([
            "type": .string("collision"), "items": items, "translatesReferenceBoundsIntoBoundary": .bool(true)])])
    }

    @Test func aLongAdvanceGoesOnWhileOthersAreServedAndWhatNamesItsSessionWaitsInOrder() throws {
        let server = try ServerProcess(arguments: ["--request-budget-ms", "5", "--no-persistence"])
        defer { server.stop() }
        // The advance's client and the one waiting for it wait as long as the advance takes: about
        // 7 s of a debug build alone, several times that beside other builds.
        let c = try server.connect(seconds: 300), other = try server.connect(), same = try server.connect(seconds: 300)
        try Self.crowd(c, "m", count: 60)
        try other.must("session.create", ["name": .string("o"), "clock": .string("manual")])
        // 20 s of a 60-box crowd: thousands of steps, far more than one request's budget.
        c.sendRaw(#"{"jsonrpc":"2.0","id":100,"method":"clock.advance","params":{"session":"m","ms":20000}}"# + "\n")
        // Meanwhile: another session is served, and a request naming "m" waits for the advance.
        Thread.sleep(forTimeInterval: 0.2)
        let started = Date()
        _ = try other.result("hello")
        _ = try other.result("clock.advance", ["session": .string("o"), "ms": T.n(100)])
        let served = Date().timeIntervalSince(started)
        let waiting = try same.result("dynamics.item", ["session": .string("m"), "element": .object(["body": .string("b0")])])
        let reply = try #require(c.readMessage())
        #expect(reply["id"] == .number(100))
        #expect(reply["result"]?["time"] == .number(20_000))
        // The waiting request ran after the advance: it saw the session at 20 s, not before.
        let after = try c.result("dynamics.item", ["session": .string("m"), "element": .object(["body": .string("b0")])])
        #expect(waiting == after)
        #expect(served < 2, "the other session waited \(served) s")
        let stats = try other.result("stats")
        #expect(stats["pendingRequests"] == .number(0))
        // Every loop turn of the advance stayed near the budget (one step past it at most).
        let longest = stats["requestTimeMs"]?["max"]?.numberValue ?? .infinity
        #expect(longest < 2000, "a request held the loop \(longest) ms")

        // The same requests in one go, in process: the same numbers, bit for bit.
        let embedded = try InProcessServer()
        try Self.replay(in: embedded, count: 60)
        guard case .result(let item) = embedded.call("dynamics.item", .object(["session": .string("m"), "element": .object(["body": .string("b0")])])) else {
            Issue.record("in-process dynamics.item failed")
            return
        }
        #expect(item == after)
    }

    static func replay(in s: InProcessServer, count: Int) throws {
        func must(_ method: String, _ params: [String: JSONValue]) throws {
            if case .error(_, let message, _) = s.call(method, .object(params)) { throw TestFailure("\(method): \(message)") }
        }
        try must("session.create", ["name": .string("m"), "clock": .string("manual"), "bounds": T.pair(400, 400)])
        for k in 0..<count {
            try must("body.add", ["session": .string("m"), "body": .string("b\(k)"), "center": T.pair(200, 200), "size": T.pair(30, 30)])
        }
        let items: JSONValue = .array((0..<count).map { .object(["body": .string("b\($0)")]) })
        try must("dynamics.add", ["session": .string("m"), "behavior": .object(["type": .string("gravity"), "items": items])])
        try must("dynamics.add", ["session": .string("m"), "behavior": .object([
            "type": .string("collision"), "items": items, "translatesReferenceBoundsIntoBoundary": .bool(true)])])
        try must("clock.advance", ["session": .string("m"), "ms": T.n(20_000)])
    }

    /// Forty long bars turned 45°, side by side 25 pt apart: their bounds overlap pairwise
    /// (about 700 pairs), their cores are far apart (no item is crowded), so the pairs past
    /// the broadphase's store (2 × 8 per item) show in `stats`; four bars have none.
    @Test func pairsPastTheBroadphasesStoreShowInStats() throws {
        for (count, past) in [(40, true), (4, false)] {
            let s = try InProcessServer()
            func must(_ method: String, _ params: [String: JSONValue]) throws {
                if case .error(_, let message, _) = s.call(method, .object(params)) { throw TestFailure("\(method): \(message)") }
            }
            try must("session.create", ["name": .string("m"), "clock": .string("manual"), "bounds": T.pair(2000, 2000)])
            for k in 0..<count {
                try must("body.add", ["session": .string("m"), "body": .string("b\(k)"), "center": T.pair(500 + 25 * Double(k), 1000),
                                      "size": T.pair(1000, 10), "angle": T.n(Double.pi / 4)])
            }
            let items: JSONValue = .array((0..<count).map { .object(["body": .string("b\($0)")]) })
            try must("dynamics.add", ["session": .string("m"), "behavior": .object(["type": .string("collision"), "items": items])])
            try must("clock.advance", ["session": .string("m"), "ms": T.n(50)])
            guard case .result(let stats) = s.call("stats", .object(["session": .string("m")])) else {
                Issue.record("stats failed")
                return
            }
            let pairs = stats["dynamics"]?["pairsPastStore"]?.numberValue ?? -1
            #expect(past ? pairs > 0 : pairs == 0, "\(count) bars: \(pairs) pairs past the store")
            #expect(stats["dynamics"]?["contactsDropped"] == T.n(0), "not a contact limit")
        }
    }

    @Test func aLiveSessionThatCannotKeepUpDropsStepsAndSaysSo() throws {
        let server = try ServerProcess(arguments: ["--tick-budget-ms", "1", "--no-persistence"])
        defer { server.stop() }
        let c = try server.connect(), viewer = try server.connect()
        try Self.crowd(c, "live", count: 150, clock: "live")
        _ = try viewer.result("session.attach", ["session": .string("live")])
        var overloaded: JSONValue?
        let deadline = Date().addingTimeInterval(20)
        while overloaded == nil, Date() < deadline, let message = viewer.readMessage() {
            if message["method"] == .string("dynamics.overloaded") { overloaded = message["params"] }
        }
        let notice = try #require(overloaded)
        #expect((notice["droppedMs"]?.numberValue ?? 0) > 0)
        let stats = try c.result("stats", ["session": .string("live")])
        #expect((stats["dynamics"]?["stepsDropped"]?.numberValue ?? 0) > 0)
        #expect((stats["dynamics"]?["behindMs"]?.numberValue ?? 0) > 0)
        // It still answers at once.
        let started = Date()
        _ = try c.result("hello")
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test func aRestartCatchesUpAtMostFourSecondsOfALiveSessionsPhysics() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        // Bodies crowding on an undamped spring field never rest: before, a restart simulated up
        // to an hour of them (minutes of work) before answering.
        try c.must("session.create", ["name": .string("s"), "clock": .string("live"), "bounds": T.pair(400, 400)])
        for k in 0..<40 {
            try c.must("body.add", ["session": .string("s"), "body": .string(k == 0 ? "b" : "b\(k)"), "center": T.pair(300, 200), "size": T.pair(30, 30)])
        }
        let items: JSONValue = .array((0..<40).map { .object(["body": .string($0 == 0 ? "b" : "b\($0)")]) })
        try c.must("dynamics.add", ["session": .string("s"), "behavior": .object([
            "type": .string("field"), "kind": .string("spring"), "position": T.pair(200, 200), "items": items])])
        try c.must("dynamics.add", ["session": .string("s"), "behavior": .object(["type": .string("collision"), "items": items])])
        Thread.sleep(forTimeInterval: 0.5)
        try c.must("dynamics.update", ["session": .string("s"), "behavior": T.n(1), "strength": T.n(2)])
        first.crash()
        // Down for a while: the session's clock goes on meanwhile.
        Thread.sleep(forTimeInterval: 1)
        let started = Date()
        let second = try ServerProcess(directory: first.scratch)
        defer { second.stop() }
        let d = try second.connect()
        #expect(Date().timeIntervalSince(started) < 10)
        let stats = try d.result("stats", ["session": .string("s")])
        #expect(stats["dynamics"]?["behaviors"] == .number(2))
        let item = try d.result("dynamics.item", ["session": .string("s"), "element": .object(["body": .string("b")])])
        #expect(item["dynamic"] == .bool(true))
    }

    @Test func updatingABehaviourWhoseItemWasDeletedSkipsTheItem() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        defer { server.stop() }
        let c = try server.connect()
        try c.must("session.create", ["name": .string("u"), "clock": .string("manual"), "layout": T.flow(100), "sections": T.items(3)])
        try c.must("dynamics.add", ["session": .string("u"), "behavior": .object(["type": .string("gravity"), "items": .array([.string("i0"), .string("i1")])])])
        try c.must("batch", ["session": .string("u"), "animated": .bool(false),
                             "ops": .array([.object(["op": .string("deleteItems"), "at": .array([T.pair(0, 0)])])])])
        // PROTOCOL.md: behaviours that name a deleted item skip it and are not changed.
        let updated = try c.result("dynamics.update", ["session": .string("u"), "behavior": T.n(1), "gravityDirection": T.pair(1, 0)])
        #expect(updated["behavior"] == .number(1))
        let list = try c.result("dynamics.list", ["session": .string("u")])
        #expect(list["behaviors"]?.arrayValue?.first?["gravityDirection"] == T.pair(1, 0))
        // Naming a new item that does not exist is still refused.
        let refused = try c.call("dynamics.update", ["session": .string("u"), "behavior": T.n(1), "items": .array([.string("i1"), .string("nope")])])
        #expect(refused["error"]?["data"]?["code"] == .string("unknown_element"))
    }

    @Test func deletingAnItemInContactEndsItsContactsRightAfterTheReply() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        defer { server.stop() }
        let c = try server.connect(), viewer = try server.connect()
        try c.must("session.create", ["name": .string("d"), "clock": .string("manual"), "bounds": T.pair(300, 200),
                                      "layout": T.flow(100), "sections": T.items(1)])
        try c.must("dynamics.add", ["session": .string("d"), "behavior": .object(["type": .string("gravity"), "items": .array([.string("i0")])])])
        try c.must("dynamics.add", ["session": .string("d"), "behavior": .object([
            "type": .string("collision"), "items": .array([.string("i0")]), "translatesReferenceBoundsIntoBoundary": .bool(true)])])
        try c.must("clock.advance", ["session": .string("d"), "ms": T.n(1000)])
        _ = try viewer.result("session.attach", ["session": .string("d")])
        try c.must("batch", ["session": .string("d"), "animated": .bool(false),
                             "ops": .array([.object(["op": .string("deleteItems"), "at": .array([T.pair(0, 0)])])])])
        // No clock.advance: the ended event comes with the batch's own frame.
        var ended = false
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(viewer.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while let message = viewer.readMessage() {
            if message["method"] == .string("dynamics.collision"), message["params"]?["phase"] == .string("ended") {
                #expect(message["params"]?["items"] == .array([.string("i0")]))
                ended = true
                break
            }
        }
        #expect(ended)
    }
}
