import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// What a disk and a neighbour can do to the state: a directory deleted under a running server,
/// a file put where it was, a directory others can write, links planted to make the server
/// write someone else's file.
@Suite(.serialized) struct PersistenceHazardTests {
    typealias T = PersistenceTests

    @Test func aStateDirectoryDeletedWhileRunningIsMadeAgainAndNothingIsLost() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try c.must("session.create", ["name": .string("m"), "clock": .string("manual"), "sections": T.items(30)])
        try FileManager.default.removeItem(atPath: first.directory + "/state")
        try c.must("scroll.to", ["session": .string("m"), "offset": T.pair(0, 40)])
        #expect(first.stderrText.contains("is gone"))
        let scene = try T.scene(c, "m")
        first.crash()

        let second = try ServerProcess(directory: first.scratch)
        #expect(T.normalized(try T.scene(try second.connect(), "m"), keepTime: true) == T.normalized(scene, keepTime: true))
        second.stop()
    }

    @Test func aFilePutWhereTheStateWasRefusesChangesAndChangesNothing() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        try c.must("session.create", ["name": .string("m"), "clock": .string("manual"), "sections": T.items(30)])
        let state = server.directory + "/state"
        try FileManager.default.removeItem(atPath: state)
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: state))
        let before = try T.scene(c, "m")
        let refused = try c.call("scroll.to", ["session": .string("m"), "offset": T.pair(0, 40)])
        #expect(refused["error"]?["data"]?["code"] == .string("persistence_failed"))
        let message = refused["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("refused, nothing changed") && message.contains("is not a directory"), "\(message)")
        #expect(try T.scene(c, "m") == before)
        // Queries still answer; the server is fine.
        #expect(try c.result("hello")["server"] == .string("trellisd"))
        server.stop()
    }

    @Test func aStateDirectoryOthersCanWriteIsRefused() throws {
        let scratch = ScratchDirectory(prefix: "trellis-it")
        let state = scratch.path + "/shared"
        for mode in [0o777, 0o1777, 0o770] {
            try? FileManager.default.removeItem(atPath: state)
            mkdir(state, 0o700)
            chmod(state, mode_t(mode))
            do {
                _ = try ServerProcess(arguments: ["--state-dir", state], directory: scratch)
                Issue.record("trellisd used a state directory of mode \(String(mode, radix: 8))")
            } catch {
                #expect(String(describing: error).contains("writable by its group or by others"), "\(error)")
                #expect(String(describing: error).contains("chmod 700"))
            }
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory to another uid"))
    func aStateDirectoryOfAnotherUserIsRefused() throws {
        let scratch = ScratchDirectory(prefix: "trellis-it")
        let state = scratch.path + "/theirs"
        mkdir(state, 0o700)
        chown(state, 65534, 65534)
        do {
            _ = try ServerProcess(arguments: ["--state-dir", state], directory: scratch)
            Issue.record("trellisd used another user's state directory")
        } catch {
            #expect(String(describing: error).contains("belongs to uid 65534"), "\(error)")
        }
    }

    @Test func aLinkPlantedAsTheJournalIsNeverFollowed() throws {
        let scratch = ScratchDirectory(prefix: "trellis-it")
        let state = scratch.path + "/state"
        mkdir(state, 0o700)
        let victim = scratch.path + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        symlink(victim, state + "/journal.ndjson")
        do {
            _ = try ServerProcess(directory: scratch)
            Issue.record("trellisd opened a journal through a symbolic link")
        } catch {
            #expect(String(describing: error).contains("is a symbolic link"), "\(error)")
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    @Test func aLinkPlantedAsTheSnapshotsTemporaryFileIsReplacedNotWritten() throws {
        let server = try ServerProcess(arguments: ["--journal-compact-bytes", "2000"])
        let state = server.directory + "/state"
        let victim = server.directory + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        // Every temporary name a compaction writes: on the loop, off it, and the journal's cut.
        for name in ["snapshot.json.tmp", "snapshot.json.next", "journal.ndjson.tmp"] { symlink(victim, state + "/" + name) }
        let c = try server.connect()
        try c.must("session.create", ["name": .string("m"), "clock": .string("manual"), "sections": T.items(5)])
        var step = 0.0
        while T.fileSize(state + "/snapshot.json") < 0 && step < 200 {
            step += 1
            try c.must("scroll.to", ["session": .string("m"), "offset": T.pair(0, step)])
            try T.settled(c)
        }
        #expect(T.fileSize(state + "/snapshot.json") > 0)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        server.stop()
    }
}

/// A NaN that reached what would be written (a bug) is refused, so no snapshot or journal line
/// holds `null` for a number and the next start can read the state.
@Suite struct NonFinitePersistenceTests {
    @Test func aSnapshotHoldingANonFiniteNumberIsNotWritten() throws {
        let scratch = ScratchDirectory(prefix: "trellis-nonfinite")
        let directory = scratch.path
        let path = directory + "/snapshot.json"
        var good = ByteBuffer()
        JSONWriter.write(.object(["seq": .number(1)]), into: &good)
        try FileIO.replace(path, with: good)
        var bad = ByteBuffer()
        JSONWriter.write(.object(["seq": .number(.nan)]), into: &bad)
        #expect(throws: PersistenceError.self) { try FileIO.replace(path, with: bad) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == #"{"seq":1}"#)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func aJournalLineHoldingANonFiniteNumberIsNotAppended() throws {
        let scratch = ScratchDirectory(prefix: "trellis-nonfinite")
        let directory = scratch.path
        let journal = try JournalFile(path: directory + "/journal")
        let good = JournalEntry(seq: 1, method: "scroll.to", params: .object(["offset": .array([.number(0), .number(4)])]),
                                session: "m", time: 0.5)
        try journal.append(good.line)
        let bad = JournalEntry(seq: 2, method: "scroll.to", params: .object([:]), session: "m", time: .infinity)
        #expect(throws: PersistenceError.self) { try journal.append(bad.line) }
        let text = try String(contentsOfFile: directory + "/journal", encoding: .utf8)
        #expect(text == good.line.description)
    }
}

