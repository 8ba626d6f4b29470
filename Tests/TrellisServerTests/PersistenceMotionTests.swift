import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// Motion in flight survives compaction and restarts, and one session whose state cannot be
/// restored is set aside without taking the server or the other sessions with it.
@Suite(.serialized) struct PersistenceMotionTests {
    typealias T = PersistenceTests

    @Test func aCompactionDuringAnInteractiveTransitionKeepsItWhereItWas() throws {
        let arguments = ["--journal-compact-bytes", "3000"]
        let first = try ServerProcess(arguments: arguments)
        let c = try first.connect()
        let m: JSONValue = .string("m")
        try c.must("session.create", ["name": m, "clock": .string("manual"), "layout": T.flow(100), "sections": T.items(30)])
        try c.must("layout.transition.begin", ["session": m, "layout": .object(["type": .string("circle")])])
        let state = first.directory + "/state"
        var progress = 0.0
        // Drive the transition until the journal is compacted while it is in progress.
        while T.fileSize(state + "/snapshot.json") < 0 && progress < 100 {
            progress += 0.01
            try c.must("layout.transition.update", ["session": m, "progress": T.n(progress)])
            try T.settled(c)
        }
        #expect(T.fileSize(state + "/snapshot.json") > 0)
        let snapshot = try String(contentsOfFile: state + "/snapshot.json", encoding: .utf8)
        #expect(snapshot.contains("\"transition\""))
        #expect(T.fileSize(state + "/journal.ndjson") == 0)   // the transition lives in the snapshot alone
        let scene = try T.scene(c, "m")
        first.crash()

        let second = try ServerProcess(arguments: arguments, directory: first.scratch)
        let d = try second.connect()
        #expect(T.normalized(try T.scene(d, "m"), keepTime: true) == T.normalized(scene, keepTime: true))
        #expect(second.stderrText.contains("failed") == false)
        // The transition goes on from there and finishes into the new layout.
        try d.must("layout.transition.update", ["session": m, "progress": T.n(0.8)])
        try d.must("layout.transition.finish", ["session": m, "duration": T.n(0.2)])
        try d.must("clock.advance", ["session": m, "ms": T.n(200)])
        #expect(try d.result("session.info", ["session": m])["layout"] == .string("circle"))
        #expect(try d.result("stats", ["session": m])["animating"] == .bool(false))
        second.stop()
    }

    @Test func animationsInFlightAtACompactionResumeAfterAKill() throws {
        let arguments = ["--journal-compact-bytes", "20000"]
        let first = try ServerProcess(arguments: arguments)
        let c = try first.connect()
        let m: JSONValue = .string("m")
        try c.must("session.create", ["name": m, "clock": .string("manual"), "layout": T.flow(50), "sections": T.items(200)])
        try c.must("scroll.to", ["session": m, "offset": T.pair(0, 1000), "animated": .bool(true), "duration": T.n(1)])
        try c.must("clock.advance", ["session": m, "ms": T.n(100)])
        let state = first.directory + "/state"
        var step = 0.0
        while T.fileSize(state + "/snapshot.json") < 0 && step < 200 {
            step += 1
            try c.must("batch", ["session": m, "duration": T.n(0.5), "ops": .array([
                .object(["op": .string("moveItem"), "from": T.pair(0, 1), "to": T.pair(0, 0)])])])
            try T.settled(c)
        }
        #expect(T.fileSize(state + "/journal.ndjson") == 0, "\((try? String(contentsOfFile: state + "/journal.ndjson", encoding: .utf8)) ?? "")")
        let scenes = [try T.scene(c, "m")]
        first.crash()

        let second = try ServerProcess(arguments: arguments, directory: first.scratch)
        let d = try second.connect()
        #expect(T.normalized(try T.scene(d, "m"), keepTime: true) == T.normalized(scenes[0], keepTime: true))
        #expect(try d.result("stats", ["session": m])["animating"] == .bool(true))
        try d.must("clock.advance", ["session": m, "ms": T.n(1000)])
        #expect(try d.result("stats", ["session": m])["animating"] == .bool(false))
        #expect(try T.scene(d, "m")["contentOffset"] == T.pair(0, 1000))
        second.stop()
    }

    @Test func aSessionWhoseJournalLineFailsIsSetAsideAndTheOthersStart() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try c.must("session.create", ["name": .string("a"), "clock": .string("manual"), "sections": T.items(5)])
        try c.must("session.create", ["name": .string("c"), "clock": .string("manual"), "sections": T.items(5)])
        let scene = try T.scene(c, "a")
        first.crash()
        let journal = first.directory + "/state/journal.ndjson"
        let bad = """
            {"seq":100,"method":"batch","params":{"session":"c","animated":false,"ops":[{"op":"deleteItems","at":[[0,9]]}]}}
            {"seq":101,"method":"scroll.to","params":{"session":"c","offset":[0,10]}}
            {"seq":102,"method":"scroll.to","params":{"session":"a","offset":[0,7]}}

            """
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data(bad.utf8))
        try handle.close()

        let second = try ServerProcess(directory: first.scratch)
        let d = try second.connect()
        let list = try d.result("session.list")
        #expect(list["sessions"]?.arrayValue?.map { $0["name"] } == [.string("a")])
        let failed = try #require(list["failed"]?.arrayValue)
        #expect(failed.count == 1 && failed.first?["name"] == .string("c"))
        let reason = failed.first?["reason"]?.stringValue ?? ""
        #expect(reason.contains("journal.ndjson:3") && reason.contains("replaying 'batch' failed"), "\(reason)")
        #expect(failed.first?["kept"]?.stringValue?.contains("/state/failed/") == true)
        #expect(try d.result("stats")["persistence"]?["failedSessions"] == T.n(1))
        #expect(second.stderrText.contains("session 'c' could not be restored and was set aside"))
        // The other session is whole, its later line included.
        var expected = T.normalized(scene, keepTime: true)
        if case .object(var o) = expected { o["contentOffset"] = T.pair(0, 7); expected = .object(o) }
        #expect(T.normalized(try T.scene(d, "a"), keepTime: true) == expected)
        // The files as they were are kept.
        let kept = try FileManager.default.contentsOfDirectory(atPath: first.directory + "/state/failed")
        #expect(kept.contains { $0.hasSuffix("-journal.ndjson") })
        let keptJournal = try String(contentsOfFile: first.directory + "/state/failed/" + kept.first { $0.hasSuffix("-journal.ndjson") }!, encoding: .utf8)
        #expect(keptJournal.contains("\"seq\":100"))
        second.crash()

        // A snapshot was taken after setting it aside: the next start is clean.
        let third = try ServerProcess(directory: first.scratch)
        let e = try third.connect()
        #expect(try e.result("session.list")["failed"] == nil)
        #expect(try T.scene(e, "a")["contentOffset"] == T.pair(0, 7))
        third.stop()
    }

    @Test func aSessionTheSnapshotCannotReadIsSetAsideAndTheOthersStart() throws {
        let arguments = ["--journal-compact-bytes", "1500"]
        let first = try ServerProcess(arguments: arguments)
        let c = try first.connect()
        try c.must("session.create", ["name": .string("a"), "clock": .string("manual"), "sections": T.items(5)])
        try c.must("session.create", ["name": .string("b"), "clock": .string("manual"), "sections": T.items(5)])
        let state = first.directory + "/state"
        var step = 0.0
        while T.fileSize(state + "/snapshot.json") < 0 && step < 200 {
            step += 1
            try c.must("scroll.to", ["session": .string("a"), "offset": T.pair(0, step)])
            try T.settled(c)
        }
        let scene = try T.scene(c, "a")
        first.crash()
        // Damage session b's layout in the snapshot.
        let path = state + "/snapshot.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        var sessions = object["sessions"] as! [[String: Any]]
        let index = sessions.firstIndex { $0["name"] as? String == "b" }!
        sessions[index]["layout"] = ["type": "nope"]
        object["sessions"] = sessions
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))

        let second = try ServerProcess(arguments: arguments, directory: first.scratch)
        let d = try second.connect()
        let list = try d.result("session.list")
        #expect(list["sessions"]?.arrayValue?.map { $0["name"] } == [.string("a")])
        let reason = list["failed"]?.arrayValue?.first?["reason"]?.stringValue ?? ""
        #expect(list["failed"]?.arrayValue?.first?["name"] == .string("b"))
        #expect(reason.contains("snapshot.json") && reason.contains("sessions[\(index)].layout.type"), "\(reason)")
        #expect(T.normalized(try T.scene(d, "a"), keepTime: true) == T.normalized(scene, keepTime: true))
        second.stop()
    }
}
