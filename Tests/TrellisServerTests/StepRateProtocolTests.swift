import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// The animator's step rate over the wire, against a real `trellisd` on its socket: chosen at
/// `session.create` (`dynamicsStepRate`), changed by `dynamics.setStepRate`, reported by
/// `session.info`, `session.list` and `dynamics.list`; every other value refused, changing nothing.
@Suite struct StepRateProtocolTests {
    typealias T = PersistenceTests

    static func rate(_ c: RPCConnection, _ session: String) throws -> (info: JSONValue?, list: JSONValue?) {
        let info = try c.result("session.info", ["session": .string(session)])["dynamicsStepRate"]
        let list = try c.result("dynamics.list", ["session": .string(session)])["stepRate"]
        return (info, list)
    }

    @Test func setAtCreationChangedLaterAndReported() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        defer { server.stop() }
        let c = try server.connect()
        // The default is UIKit's 60.
        let plain = try c.result("session.create", ["name": .string("plain"), "clock": .string("manual")])
        #expect(plain["dynamicsStepRate"] == .number(60))
        #expect(try Self.rate(c, "plain") == (.number(60), .number(60)))

        let created = try c.result("session.create", ["name": .string("fine"), "clock": .string("manual"), "dynamicsStepRate": .number(120)])
        #expect(created["dynamicsStepRate"] == .number(120))
        #expect(try Self.rate(c, "fine") == (.number(120), .number(120)))
        let listed = try c.result("session.list")["sessions"]?.arrayValue ?? []
        #expect(listed.map { $0["dynamicsStepRate"] } == [.number(120), .number(60)])

        let changed = try c.result("dynamics.setStepRate", ["session": .string("fine"), "rate": .number(240)])
        #expect(changed == .object(["stepRate": .number(240), "previous": .number(120)]))
        #expect(try Self.rate(c, "fine") == (.number(240), .number(240)))
        // The same rate again is accepted and changes nothing.
        let again = try c.result("dynamics.setStepRate", ["session": .string("fine"), "rate": .number(240)])
        #expect(again == .object(["stepRate": .number(240), "previous": .number(240)]))
        // 60.0 is 60: JSON does not tell them apart.
        #expect(try c.result("dynamics.setStepRate", ["session": .string("plain"), "rate": .number(60.0)])["stepRate"] == .number(60))
        // The other session kept its own.
        #expect(try Self.rate(c, "plain") == (.number(60), .number(60)))
    }

    /// Values that are not one of 60, 120, 240 as a JSON number, each with what made it wrong.
    static let refused: [(value: JSONValue?, found: String)] = [
        (.number(30), "found a number (30)"), (.number(61), "found a number (61)"), (.number(1e9), "found a number (1000000000)"),
        (.string("120"), #"found a string ("120"); send it as a number, without quotes"#), (.number(-60), "found a number (-60)"),
        (.null, "missing"), (nil, "missing"), (.number(120.5), "found a number (120.5)"), (.number(1e308), "found a number"),
        (.bool(true), "found a boolean (true)"), (.array([.number(120)]), "found an array of 1 element"),
        (.object(["hz": .number(120)]), "found an object"), (.string("fast"), #"found a string ("fast")"#),
    ]

    @Test func everyOtherRateIsRefusedAndChangesNothing() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        defer { server.stop() }
        let c = try server.connect()
        try c.must("session.create", ["name": .string("s"), "clock": .string("manual"), "dynamicsStepRate": .number(120),
                                      "bounds": T.pair(300, 400)])
        try c.must("body.add", ["session": .string("s"), "body": .string("card"), "center": T.pair(150, 100), "size": T.pair(50, 50)])
        try c.must("dynamics.add", ["session": .string("s"), "behavior": .object(["type": .string("gravity"), "items": .array([.object(["body": .string("card")])])])])
        try c.must("clock.advance", ["session": .string("s"), "ms": T.n(50)])
        let before = [try c.result("session.info", ["session": .string("s")]), try c.result("dynamics.list", ["session": .string("s")]),
                      try c.result("dynamics.item", ["session": .string("s"), "element": .object(["body": .string("card")])])]

        for (value, found) in Self.refused {
            var params: [String: JSONValue] = ["session": .string("s")]
            if let value { params["rate"] = value }
            let reply = try c.call("dynamics.setStepRate", params)
            let message = reply["error"]?["message"]?.stringValue ?? ""
            #expect(reply["error"]?["code"] == .number(-32602), "\(String(describing: value)): \(JSONWriter.string(reply))")
            #expect(message.hasPrefix("params.rate: "), "\(message)")
            #expect(message.contains("one of 60, 120, 240"), "\(message)")
            #expect(message.contains(found), "\(message)")

            // The same at creation, and no session is made.
            var create: [String: JSONValue] = ["name": .string("new"), "clock": .string("manual")]
            if let value { create["dynamicsStepRate"] = value }
            let created = try c.call("session.create", create)
            if value == nil || value == .null {
                // Absent (or null, as for every optional key) is the default.
                #expect(created["result"]?["dynamicsStepRate"] == .number(60))
                try c.must("session.destroy", ["session": .string("new")])
            } else {
                #expect(created["error"]?["code"] == .number(-32602), "\(JSONWriter.string(created))")
                #expect(created["error"]?["message"]?.stringValue?.hasPrefix("params.dynamicsStepRate: expected one of 60, 120, 240") == true)
                #expect(try c.result("session.list")["sessions"]?.arrayValue?.count == 1)
            }
        }
        // A session that does not exist.
        let unknown = try c.call("dynamics.setStepRate", ["session": .string("nope"), "rate": .number(120)])
        #expect(unknown["error"]?["data"]?["code"] == .string("unknown_session"))
        // An unknown key is named.
        let typo = try c.call("dynamics.setStepRate", ["session": .string("s"), "rates": .number(120)])
        #expect(typo["error"]?["message"]?.stringValue?.contains("unknown key 'rates'") == true)

        let after = [try c.result("session.info", ["session": .string("s")]), try c.result("dynamics.list", ["session": .string("s")]),
                     try c.result("dynamics.item", ["session": .string("s"), "element": .object(["body": .string("card")])])]
        #expect(after == before)
        // Still alive and still at 120.
        #expect(try Self.rate(c, "s") == (.number(120), .number(120)))
    }

    /// The schema's enumeration is the engine's list (a fourth rate must reach both).
    @Test func theSchemaListsTheRatesTheServerTakes() throws {
        let checker = try SchemaChecker(directory: ProtocolFiles.schema)
        let listed = checker.documents["common.json"]?["$defs"]?["dynamicsStepRate"]?["enum"]?.arrayValue?.compactMap(\.numberValue)
        #expect(listed?.map { Int($0) } == ParamRanges.dynamicsStepRates)
        #expect(ParamRanges.dynamicsStepRates == CollectionView.dynamicsStepRates)
    }

    @Test func aReadOnlyViewerCannotChangeIt() throws {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        defer { server.stop() }
        let c = try server.connect()
        try c.must("session.create", ["name": .string("s"), "clock": .string("manual")])
        let viewer = try server.connect()
        try viewer.must("session.attach", ["session": .string("s"), "readOnly": .bool(true)])
        let reply = try viewer.call("dynamics.setStepRate", ["session": .string("s"), "rate": .number(240)])
        #expect(reply["error"]?["data"]?["code"] == .string("read_only"))
        #expect(try Self.rate(c, "s") == (.number(60), .number(60)))
    }
}

/// The step rate across restarts: the journal replays it, a snapshot keeps it (with the scroll's
/// own clock where it differs from the animator's), and a restored session goes on bit for bit
/// as one that never stopped; a snapshot without it restores at 60.
@Suite(.serialized) struct StepRatePersistenceTests {
    typealias T = PersistenceTests
    static let m: JSONValue = .string("m")

    /// A body and a cell under gravity and collision at 120 Hz, a fling in flight, then 240 Hz
    /// after an advance that leaves part of a step over.
    static func scene(_ c: RPCConnection) throws {
        try c.must("session.create", ["name": m, "clock": .string("manual"), "bounds": T.pair(400, 600), "layout": T.flow(100),
                                      "sections": T.items(200), "dynamicsStepRate": T.n(120)])
        try c.must("body.add", ["session": m, "body": .string("sq"), "center": T.pair(200, 100), "size": T.pair(100, 100)])
        let items: JSONValue = .array([.object(["body": .string("sq")]), .string("i0")])
        try c.must("dynamics.add", ["session": m, "behavior": .object(["type": .string("gravity"), "items": items])])
        try c.must("dynamics.add", ["session": m, "behavior": .object([
            "type": .string("collision"), "items": items, "translatesReferenceBoundsIntoBoundary": .bool(true)])])
        try c.must("clock.advance", ["session": m, "ms": T.n(37)])
        try c.must("dynamics.setStepRate", ["session": m, "rate": T.n(240)])
        try c.must("gesture.pan", ["session": m, "phase": .string("began"), "translation": T.pair(0, 0)])
        try c.must("gesture.pan", ["session": m, "phase": .string("ended"), "translation": T.pair(0, 0), "velocity": T.pair(0, -2500)])
        try c.must("clock.advance", ["session": m, "ms": T.n(101)])
    }

    static func state(_ c: RPCConnection) throws -> [JSONValue] {
        [try c.result("dynamics.item", ["session": m, "element": .object(["body": .string("sq")])]),
         try c.result("dynamics.item", ["session": m, "element": .string("i0")]),
         try c.result("dynamics.list", ["session": m]),
         try c.result("session.info", ["session": m])]
    }

    /// Where `scene` plus `advances` leaves a session that never stopped.
    static func reference(advances: [Double]) throws -> [JSONValue] {
        try reference(advances: advances, then: []).last!
    }

    /// The states of a session that never stopped after `scene` and `advances`, then after each of `then`.
    static func reference(advances: [Double], then: [Double]) throws -> [[JSONValue]] {
        let server = try ServerProcess(arguments: ["--no-persistence"])
        defer { server.stop() }
        let c = try server.connect()
        try scene(c)
        for ms in advances { try c.must("clock.advance", ["session": m, "ms": T.n(ms)]) }
        var states = [try state(c)]
        for ms in then {
            try c.must("clock.advance", ["session": m, "ms": T.n(ms)])
            states.append(try state(c))
        }
        return states
    }

    /// The states after each of `advances`, 1 to 16 ms apart: when each 60 Hz scroll step and
    /// each 240 Hz animator step falls due shows, not only where they end.
    static let fineAdvances: [Double] = [1, 2, 3, 5, 7, 11, 13, 16, 4, 9, 6, 250]

    @Test func theJournalReplaysTheRateAndTheSimulationExactly() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try Self.scene(c)
        let before = try Self.state(c)
        #expect(before[3]["dynamicsStepRate"] == .number(240))
        first.crash()

        let second = try ServerProcess(directory: first.scratch)
        defer { second.stop() }
        let d = try second.connect()
        #expect(try Self.state(d) == before)
        try d.must("clock.advance", ["session": Self.m, "ms": T.n(413)])
        #expect(try Self.state(d) == (try Self.reference(advances: [413])))
    }

    @Test func aSnapshotKeepsTheRateAndTheScrollsClock() throws {
        let arguments = ["--journal-compact-bytes", "3000"]
        let first = try ServerProcess(arguments: arguments)
        let c = try first.connect()
        try Self.scene(c)
        let state = first.directory + "/state"
        // Until the journal is compacted into a snapshot taken after the scene (the creation
        // alone may have been compacted already).
        var advances: [Double] = []
        repeat {
            advances.append(1)
            try c.must("clock.advance", ["session": Self.m, "ms": T.n(1)])
            try T.settled(c)
        } while T.fileSize(state + "/journal.ndjson") != 0 && advances.count < 400
        let snapshot = try String(contentsOfFile: state + "/snapshot.json", encoding: .utf8)
        #expect(snapshot.contains(#""dynamicsStepRate":240"#))
        // The scroll's 60 Hz clock and the animator's 240 Hz one stand at different points of their steps.
        #expect(snapshot.contains(#""scrollClock":["#))
        #expect(T.fileSize(state + "/journal.ndjson") == 0)
        let before = try Self.state(c)
        #expect(before[3]["scroll"]?["decelerating"] == .bool(true), "the fling should still be in flight: \(before[3])")
        first.crash()

        let second = try ServerProcess(arguments: arguments, directory: first.scratch)
        defer { second.stop() }
        let d = try second.connect()
        #expect(try Self.state(d) == before)
        #expect(second.stderrText.contains("failed") == false)
        // It goes on as one that never stopped, bit for bit: the fall, the collision and the
        // fling, frame by frame.
        let expected = try Self.reference(advances: advances, then: Self.fineAdvances)
        for (k, ms) in Self.fineAdvances.enumerated() {
            try d.must("clock.advance", ["session": Self.m, "ms": T.n(ms)])
            let now = try Self.state(d)
            #expect(now == expected[k + 1], "after advance \(k) (\(ms) ms): \(JSONWriter.string(.array(now)))")
            if now != expected[k + 1] { break }
        }
    }

    @Test func aSnapshotWithoutTheRateRestoresAtSixty() throws {
        let arguments = ["--journal-compact-bytes", "3000"]
        let first = try ServerProcess(arguments: arguments)
        let c = try first.connect()
        try Self.scene(c)
        let state = first.directory + "/state"
        var steps = 0
        repeat {
            steps += 1
            try c.must("clock.advance", ["session": Self.m, "ms": T.n(1)])
            try T.settled(c)
        } while T.fileSize(state + "/journal.ndjson") != 0 && steps < 400
        first.crash()
        // As a snapshot written before the rate existed: no dynamicsStepRate, no scrollClock.
        let path = state + "/snapshot.json"
        var file = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        guard case .object(var top) = file, case .array(var sessions)? = top["sessions"], case .object(var session) = sessions[0] else {
            throw TestFailure("unexpected snapshot shape")
        }
        #expect(session.removeValue(forKey: "dynamicsStepRate") == .number(240))
        session["scrollClock"] = nil
        sessions[0] = .object(session)
        top["sessions"] = .array(sessions)
        file = .object(top)
        try Data(JSONWriter.string(file).utf8).write(to: URL(fileURLWithPath: path))

        let second = try ServerProcess(arguments: arguments, directory: first.scratch)
        defer { second.stop() }
        let d = try second.connect()
        let info = try d.result("session.info", ["session": Self.m])
        #expect(info["dynamicsStepRate"] == .number(60))
        #expect(try d.result("dynamics.list", ["session": Self.m])["stepRate"] == .number(60))
        #expect(second.stderrText.contains("failed") == false)
    }
}
