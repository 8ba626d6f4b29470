import Foundation
import Logging
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// A large session goes through compaction and a restart exactly: its snapshot is written off
/// the loop while requests go on, and what they changed meanwhile survives the journal's cut.
@Suite struct PersistenceScaleTests {
    /// `count` items of every shape the snapshot writes: plain, sized, with their own reuse
    /// identifier, with payloads that need escaping.
    static func items(_ count: Int) -> JSONValue {
        .array((0..<count).map { n in
            var item: [String: JSONValue] = ["id": .string("it\(n)")]
            if n % 7 == 0 { item["size"] = .array([.number(Double(40 + n % 50)), .number(Double(n % 13) + 0.5)]) }
            if n % 11 == 0 { item["reuseId"] = .string("tall") }
            if n % 5 == 0 { item["data"] = .object(["label": .string("#\(n) é \"q\" \\ \u{1}"), "n": .number(Double(n))]) }
            return .object(item)
        })
    }

    static func waitForCompaction(_ server: Server) {
        var turns = 0
        while server.persistence?.isCompacting == true && turns < 20_000 {
            server.loop.runOnce()
            usleep(500)
            turns += 1
        }
    }

    @Test func aLargeSessionSurvivesACompactionWithRequestsDuringItAndARestart() throws {
        let scratch = ScratchDirectory(prefix: "trellis-scale")
        chmod(scratch.path, 0o700)
        let first = try PersistenceIsolationTests.server(scratch)
        let big: JSONValue = .string("big")
        _ = try PersistenceIsolationTests.call(first, "session.create", ["name": big, "clock": .string("manual")])
        _ = try PersistenceIsolationTests.call(first, "data.reload", ["session": big, "sections": .array([
            .object(["id": .string("s0"), "items": Self.items(60_000)]),
            .object(["id": .string("s1"), "items": .array([.object(["id": .string("lone")])])]),
        ])])
        let persistence = try #require(first.persistence)
        let compactionsBefore = persistence.compactions
        persistence.startCompaction()
        #expect(persistence.isCompacting)
        // Served while the snapshot is written: these lines lie past it and must stay.
        _ = try PersistenceIsolationTests.call(first, "batch", ["session": big, "animated": .bool(false), "ops": .array([
            .object(["op": .string("insertItems"), "at": .array([.array([.number(0), .number(0)])]),
                     "items": .array([.object(["id": .string("first"), "data": .object(["x": .number(1)])])])]),
            .object(["op": .string("deleteItems"), "at": .array([.array([.number(0), .number(59_999)])])]),
        ])])
        _ = try PersistenceIsolationTests.call(first, "scroll.to", ["session": big, "offset": .array([.number(0), .number(12_345)])])
        Self.waitForCompaction(first)
        #expect(!persistence.isCompacting)
        #expect(persistence.compactions == compactionsBefore + 1)
        let state = scratch.path + "/state"
        let journal = try String(contentsOfFile: state + "/journal.ndjson", encoding: .utf8)
        #expect(journal.split(separator: "\n").map { $0.contains("\"method\":\"batch\"") || $0.contains("\"method\":\"scroll.to\"") } == [true, true])
        #expect(!FileManager.default.fileExists(atPath: state + "/snapshot.json.next"))
        let expected = first.sessions["big"]!.collectionView
        #expect(expected.data.totalItemCount == 60_001)
        first.shutdown()

        let second = try PersistenceIsolationTests.server(scratch)
        let restored = try #require(second.sessions["big"]).collectionView
        // A Bool, not the two data sets: a failure would print 60,000 items twice.
        let same = restored.data == expected.data
        #expect(same, "the restored data differs (\(restored.data.totalItemCount) items, expected \(expected.data.totalItemCount))")
        #expect(restored.scroll.contentOffset == expected.scroll.contentOffset)
        second.shutdown()
    }

    @Test func aSnapshotMadeStaleWhileItWasWrittenIsDropped() throws {
        let scratch = ScratchDirectory(prefix: "trellis-scale")
        chmod(scratch.path, 0o700)
        let first = try PersistenceIsolationTests.server(scratch)
        _ = try PersistenceIsolationTests.call(first, "session.create", ["name": .string("m"), "clock": .string("manual"),
                                                                          "sections": .array([.object(["id": .string("s"), "items": Self.items(20_000)])])])
        let persistence = try #require(first.persistence)
        persistence.startCompaction()
        _ = try PersistenceIsolationTests.call(first, "scroll.to", ["session": .string("m"), "offset": .array([.number(0), .number(50)])])
        // A snapshot on the loop (as after a failed journal write) supersedes the one in flight.
        try persistence.compact()
        let compactions = persistence.compactions
        Self.waitForCompaction(first)
        #expect(persistence.compactions == compactions)
        let state = scratch.path + "/state"
        #expect((try FileManager.default.attributesOfItem(atPath: state + "/journal.ndjson")[.size] as? Int) == 0)
        #expect(!FileManager.default.fileExists(atPath: state + "/snapshot.json.next"))
        first.shutdown()
        let second = try PersistenceIsolationTests.server(scratch)
        #expect(second.sessions["m"]?.collectionView.scroll.contentOffset.y == 50)
        second.shutdown()
    }
}
