import Foundation
import Logging
import Testing
import TrellisCore
import TrellisGeometry
import TrellisProtocol
@testable import TrellisServer

/// One session's bad state never blocks another session's compaction: a session whose state
/// cannot be written is set aside (its files kept, its viewers told), and the rest are
/// compacted and restored as usual.
@Suite struct PersistenceIsolationTests {
    static func server(_ scratch: ScratchDirectory) throws -> Server {
        var configuration = ServerConfiguration(socketPath: scratch.path + "/s.sock")
        configuration.stateDirectory = scratch.path + "/state"
        return try Server(configuration: configuration, logger: Logger(label: "test"))
    }

    static func call(_ server: Server, _ method: String, _ params: [String: JSONValue]) throws -> JSONValue {
        let execution = server.execute(method, params: .object(params), client: Client(connection: nil))
        server.finishRequest(touched: execution.touched, client: Client(connection: nil))
        return try execution.outcome.get()
    }

    @Test func aSessionThatCannotBeWrittenIsSetAsideAndTheOthersAreCompacted() throws {
        let scratch = ScratchDirectory(prefix: "trellis-isolation")
        chmod(scratch.path, 0o700)
        let first = try Self.server(scratch)
        for name in ["bad", "good"] {
            _ = try Self.call(first, "session.create", ["name": .string(name), "clock": .string("manual"),
                                                       "sections": .array([.object(["id": .string("s"), "items": .array([.object(["id": .string("a")])])])])])
        }
        _ = try Self.call(first, "scroll.to", ["session": .string("good"), "offset": .array([.number(0), .number(7)])])
        // What the engine's invariant rules out, put there by hand: a number JSON cannot carry.
        first.sessions["bad"]!.collectionView.setContentOffset(Point(.nan, 0))
        let persistence = try #require(first.persistence)
        try persistence.compact()
        #expect(first.sessions["bad"] == nil)
        #expect(first.sessions["good"] != nil)
        #expect(persistence.failedSessions.map(\.name) == ["bad"])
        #expect(persistence.failedSessions.first?.reason.contains("non-finite") == true)
        let state = scratch.path + "/state"
        let snapshot = try String(contentsOfFile: state + "/snapshot.json", encoding: .utf8)
        #expect(snapshot.contains("\"good\"") && !snapshot.contains("\"bad\""))
        #expect((try FileManager.default.attributesOfItem(atPath: state + "/journal.ndjson")[.size] as? Int) == 0)
        let kept = try FileManager.default.contentsOfDirectory(atPath: state + "/failed")
        #expect(kept.contains { $0.hasSuffix("-journal.ndjson") })
        first.shutdown()

        let second = try Self.server(scratch)
        #expect(second.sessions.keys.sorted() == ["good"])
        #expect(second.sessions["good"]?.collectionView.scroll.contentOffset == Point(0, 7))
        second.shutdown()
    }
}
