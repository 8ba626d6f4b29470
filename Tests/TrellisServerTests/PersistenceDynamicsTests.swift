import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// Dynamics survive restarts: from the journal alone the replay is exact (the same requests at
/// the same times on a deterministic engine); from a snapshot the bodies, behaviours and each
/// item's position and velocity come back, and the simulation goes on from there.
@Suite(.serialized) struct PersistenceDynamicsTests {
    typealias T = PersistenceTests

    static func dropScene(_ c: RPCConnection, _ m: JSONValue) throws {
        try c.must("session.create", ["name": m, "clock": .string("manual"), "bounds": T.pair(400, 600), "layout": T.flow(100),
                                      "sections": T.items(3)])
        try c.must("body.add", ["session": m, "body": .string("sq"), "center": T.pair(200, 100), "size": T.pair(100, 100),
                                "data": .object(["label": .string("orange")])])
        let items: JSONValue = .array([.object(["body": .string("sq")]), .string("i0")])
        try c.must("dynamics.add", ["session": m, "behavior": .object(["type": .string("gravity"), "items": items])])
        try c.must("dynamics.add", ["session": m, "behavior": .object([
            "type": .string("collision"), "items": items, "translatesReferenceBoundsIntoBoundary": .bool(true)])])
        try c.must("dynamics.add", ["session": m, "behavior": .object([
            "type": .string("item"), "items": items, "elasticity": T.n(0.6), "addLinearVelocity": T.pair(120, 0)])])
        try c.must("dynamics.add", ["session": m, "behavior": .object([
            "type": .string("push"), "items": .array([.string("i0")]), "mode": .string("instantaneous"), "magnitude": T.n(2),
            "angle": T.n(0)])])
        try c.must("clock.advance", ["session": m, "ms": T.n(700)])
    }

    static func state(_ c: RPCConnection, _ m: JSONValue) throws -> [JSONValue] {
        [try c.result("dynamics.item", ["session": m, "element": .object(["body": .string("sq")])]),
         try c.result("dynamics.item", ["session": m, "element": .string("i0")]),
         try c.result("dynamics.list", ["session": m])]
    }

    @Test func theJournalAloneReplaysTheSimulationExactly() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        let m: JSONValue = .string("m")
        try Self.dropScene(c, m)
        let before = try Self.state(c, m)
        #expect(before[0]["dynamic"] == .bool(true))
        let scene = try T.scene(c, "m")
        first.crash()

        let second = try ServerProcess(directory: first.scratch)
        let d = try second.connect()
        #expect(try Self.state(d, m) == before)
        #expect(T.normalized(try T.scene(d, "m"), keepTime: true) == T.normalized(scene, keepTime: true))
        second.stop()
    }

    @Test func aSnapshotKeepsBodiesBehavioursAndTheirMotion() throws {
        let arguments = ["--journal-compact-bytes", "3000"]
        let first = try ServerProcess(arguments: arguments)
        let c = try first.connect()
        let m: JSONValue = .string("m")
        try Self.dropScene(c, m)
        let state = first.directory + "/state"
        var steps = 0
        while T.fileSize(state + "/snapshot.json") < 0 && steps < 400 {
            steps += 1
            try c.must("clock.advance", ["session": m, "ms": T.n(1)])
            try T.settled(c)
        }
        let snapshot = try String(contentsOfFile: state + "/snapshot.json", encoding: .utf8)
        #expect(snapshot.contains("\"dynamics\""))
        #expect(T.fileSize(state + "/journal.ndjson") == 0)
        let before = try Self.state(c, m)
        first.crash()

        let second = try ServerProcess(arguments: arguments, directory: first.scratch)
        let d = try second.connect()
        let after = try Self.state(d, m)
        // Positions, velocities and behaviours (with the push that already fired) as they were.
        #expect(after == before)
        #expect(second.stderrText.contains("failed") == false)
        // It goes on: the square falls on and comes to rest on the bottom (600 − 50).
        try d.must("clock.advance", ["session": m, "ms": T.n(20_000)])
        let rest = try d.result("dynamics.item", ["session": m, "element": .object(["body": .string("sq")])])
        let y = rest["center"]?.arrayValue?[1].numberValue ?? 0
        #expect(abs(y - 550) < 1, "\(rest)")
        #expect(try d.result("dynamics.list", ["session": m])["running"] == .bool(false))
        second.stop()
    }
}
