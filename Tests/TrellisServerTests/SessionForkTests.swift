import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// `session.fork` against a real `trellisd`: the copy continues bit for bit as the source
/// would (animations, a fling and physics in flight), the source does not change, refusals
/// change nothing, and a fork comes back after a restart.
@Suite struct SessionForkTests {
    typealias T = PersistenceTests

    /// A manual session with everything in flight at once: the persistence tests' animations,
    /// a fling, and a body falling onto a floor that it bounces off.
    static func driveEverything(_ c: RPCConnection, name: String) throws {
        try T.driveManual(c, name: name)
        let s: JSONValue = .string(name)
        try c.must("gesture.pan", ["session": s, "phase": .string("began"), "translation": T.pair(0, 0)])
        try c.must("gesture.pan", ["session": s, "phase": .string("changed"), "translation": T.pair(0, -100)])
        try c.must("gesture.pan", ["session": s, "phase": .string("ended"), "translation": T.pair(0, -150), "velocity": T.pair(0, -1500)])
        try c.must("body.add", ["session": s, "body": .string("card"), "center": T.pair(150, 100), "size": T.pair(100, 60),
                                "angle": T.n(0.2)])
        let card: JSONValue = .array([.object(["body": .string("card")])])
        try c.must("dynamics.add", ["session": s, "behavior": .object(["type": .string("gravity"), "items": card])])
        try c.must("dynamics.add", ["session": s, "behavior": .object(["type": .string("collision"), "items": card,
                                                                        "translatesReferenceBoundsIntoBoundary": .bool(true)])])
        try c.must("dynamics.add", ["session": s, "behavior": .object(["type": .string("item"), "items": card,
                                                                        "elasticity": T.n(0.6)])])
        try c.must("clock.advance", ["session": s, "ms": T.n(90)])
    }

    static func card(_ c: RPCConnection, _ name: String) throws -> JSONValue {
        try c.result("dynamics.item", ["session": .string(name), "element": .object(["body": .string("card")])])
    }

    @Test func aForkContinuesBitForBitAndTheSourceDoesNotMove() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        defer { server.stop() }
        let c = try server.connect()
        try Self.driveEverything(c, name: "m")
        #expect(try c.result("stats", ["session": .string("m")])["animating"] == .bool(true))
        let before = try c.result("session.info", ["session": .string("m")])
        let sceneBefore = try T.scene(c, "m")

        let fork = try c.result("session.fork", ["session": .string("m"), "name": .string("f")])
        #expect(fork["name"] == .string("f") && fork["clock"] == .string("manual") && fork["seq"] == T.n(0))
        #expect(fork["time"] == before["time"] && fork["items"] == before["items"] && fork["layout"] == before["layout"])
        // The source: the same scene, the same frame number, nothing published.
        #expect(try T.scene(c, "m") == sceneBefore)
        #expect(try c.result("session.info", ["session": .string("m")])["seq"] == before["seq"])

        // Stepped alike, the two give the same scene (view ids aside: a fork numbers its views
        // afresh) and the same physics, to the last bit, at every step.
        for step in [16.0, 33.0, 7.0, 120.0, 400.0, 1000.0] {
            try c.must("clock.advance", ["session": .string("m"), "ms": T.n(step)])
            try c.must("clock.advance", ["session": .string("f"), "ms": T.n(step)])
            #expect(T.normalized(try T.scene(c, "f"), keepTime: true) == T.normalized(try T.scene(c, "m"), keepTime: true), "after \(step) ms")
            var forked = try Self.card(c, "f"), source = try Self.card(c, "m")
            #expect(forked == source, "after \(step) ms")
            forked = try c.result("session.info", ["session": .string("f")])["scroll"] ?? .null
            source = try c.result("session.info", ["session": .string("m")])["scroll"] ?? .null
            #expect(forked == source, "after \(step) ms")
        }
        #expect(try T.attributes(c, "f") == T.attributes(c, "m"))
        #expect(try c.result("dynamics.list", ["session": .string("f")]) == c.result("dynamics.list", ["session": .string("m")]))
        // And they are two sessions: changing one leaves the other.
        try c.must("dynamics.remove", ["session": .string("f"), "behavior": T.n(1)])
        #expect(try c.result("dynamics.list", ["session": .string("f")])["behaviors"]?.arrayValue?.count == 2)
        #expect(try c.result("dynamics.list", ["session": .string("m")])["behaviors"]?.arrayValue?.count == 3)
    }

    @Test func aChangeToTheForkLeavesTheSource() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        defer { server.stop() }
        let c = try server.connect()
        try c.must("session.create", ["name": .string("m"), "clock": .string("manual")])
        try c.must("data.reload", ["session": .string("m"), "sections": T.items(10)])
        try c.must("session.fork", ["session": .string("m"), "name": .string("f")])
        try c.must("batch", ["session": .string("f"), "animated": .bool(false), "ops": .array([
            .object(["op": .string("deleteItems"), "at": .array([T.pair(0, 0)])])])])
        #expect(try c.result("session.info", ["session": .string("f")])["items"] == T.n(9))
        #expect(try c.result("session.info", ["session": .string("m")])["items"] == T.n(10))
        // A fork of a live session is manual unless asked: its time stays where it was forked.
        try c.must("session.create", ["name": .string("live")])
        let live = try c.result("session.fork", ["session": .string("live"), "name": .string("still")])
        usleep(50_000)
        #expect(try c.result("session.info", ["session": .string("still")])["time"] == live["time"])
        let running = try c.result("session.fork", ["session": .string("live"), "name": .string("running"), "clock": .string("live")])
        #expect(running["clock"] == .string("live"))
    }

    @Test func refusalsChangeNothing() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        defer { server.stop() }
        let c = try server.connect()
        try c.must("session.create", ["name": .string("m"), "clock": .string("manual")])
        try c.must("session.create", ["name": .string("taken"), "clock": .string("manual")])
        let list = try c.result("session.list")
        let cases: [(params: [String: JSONValue], code: String, says: String)] = [
            (["session": .string("m"), "name": .string("taken")], "session_exists", "a session named 'taken' already exists"),
            (["session": .string("m"), "name": .string("m")], "session_exists", "a session named 'm' already exists"),
            (["session": .string("nope"), "name": .string("x")], "unknown_session", "nope"),
            (["session": .string("m"), "name": .string("")], "invalid_params", "params.name: expected a non-empty name"),
            (["session": .string("m"), "name": .string("a\nb")], "invalid_params", "without control characters"),
            (["session": .string("m"), "name": .string(String(repeating: "n", count: 129))], "invalid_params", "at most 128 characters"),
            (["session": .string("m"), "name": .number(3)], "invalid_params", "params.name"),
            (["session": .string("m")], "invalid_params", "params.name"),
            (["name": .string("x")], "invalid_params", "params.session"),
            (["session": .string("m"), "name": .string("x"), "clock": .string("sometimes")], "invalid_params",
             #"params.clock: expected "manual" (the default) or "live", found "sometimes""#),
            // A past moment needs a recording of the source (session.seek's history).
            (["session": .string("m"), "name": .string("x"), "at": T.n(5)], "invalid_state", "is not being recorded"),
            (["session": .string("m"), "name": .string("x"), "after": T.n(5)], "invalid_params", "after"),
        ]
        for (params, code, says) in cases {
            let reply = try c.call("session.fork", params)
            let error = reply["error"]
            let domain = error?["data"]?["code"]?.stringValue ?? (error?["code"] == T.n(-32602) ? "invalid_params" : "?")
            #expect(domain == code, "\(params): \(reply)")
            #expect(error?["message"]?.stringValue?.contains(says) == true, "\(params): \(reply)")
            #expect(try c.result("session.list") == list, "\(params) changed the sessions")
        }
    }

    @Test func aForkComesBackAfterARestart() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try Self.driveEverything(c, name: "m")
        try c.must("session.fork", ["session": .string("m"), "name": .string("f")])
        try c.must("clock.advance", ["session": .string("f"), "ms": T.n(250)])
        let scene = T.normalized(try T.scene(c, "f"), keepTime: true)
        let card = try Self.card(c, "f")
        first.crash()

        let second = try ServerProcess(directory: first.scratch)
        defer { second.stop() }
        let d = try second.connect()
        #expect(T.normalized(try T.scene(d, "f"), keepTime: true) == scene)
        #expect(try Self.card(d, "f") == card)
    }
}
