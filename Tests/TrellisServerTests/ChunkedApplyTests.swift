import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// The chunked form of data.apply (data.apply.begin / append / commit / abort) against a real
/// trellisd: the commit equals one data.apply of the same snapshot (reply, data, frames'
/// state, the journal after a restart), and an upload that fails half-way changes nothing.
@Suite(.serialized) struct ChunkedApplyTests {
    typealias T = PersistenceTests
    typealias R = ChunkedReloadTests

    /// The data both sessions start from: a 0…24, b 0…9, c 0…14.
    static var start: JSONValue { .array(R.whole.map { R.section($0, $1) }) }

    /// The snapshot: a few items deleted, inserted, moved and changed; section b gone, d new.
    static var snapshot: [(String, [String])] {
        var a = R.whole[0].1, c = R.whole[2].1
        a.remove(at: 3)
        a.insert("n1", at: 0)
        a.swapAt(10, 20)
        c.append("a3")   // moved across sections
        c.remove(at: 1)
        return [("a", a), ("c", c), ("d", ["d0", "d1"])]
    }

    static func begin(_ c: RPCConnection, _ name: String) throws -> JSONValue {
        try #require(try c.must("data.apply.begin", ["session": .string(name)])["upload"])
    }

    /// The state a viewer holds: the model attributes and the scene (presentation) now.
    static func state(_ c: RPCConnection, _ name: String) throws -> JSONValue {
        var scene = try c.must("query.scene", ["session": .string(name)])
        if case .object(var members) = scene { members.removeValue(forKey: "time"); scene = .object(members) }
        return .object(["everything": try R.everything(c, name), "scene": scene])
    }

    @Test func aChunkedApplyEqualsOneApplyAndSurvivesARestart() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        for name in ["one", "chunked"] {
            try R.create(c, name)
            try c.must("data.reload", ["session": .string(name), "sections": Self.start])
        }
        let options: [String: JSONValue] = ["duration": T.n(0.5), "curve": .string("linear"), "mapping": .string("items")]
        var oneShot = options
        oneShot["session"] = .string("one")
        oneShot["sections"] = .array(Self.snapshot.map { R.section($0, $1) })
        let expectedReply = try c.must("data.apply", oneShot)

        let startState = try R.everything(c, "chunked")
        let upload = try Self.begin(c, "chunked")
        let a = Self.snapshot[0].1
        // Section a split over two chunks, c and d in the last.
        let chunks: [[JSONValue]] = [
            [R.section("a", Array(a[0..<7]))],
            [R.section("a", Array(a[7...]))],
            [R.section("c", Self.snapshot[1].1), R.section("d", Self.snapshot[2].1)],
        ]
        for chunk in chunks {
            try c.must("data.apply.append", ["session": .string("chunked"), "upload": upload, "sections": .array(chunk)])
        }
        // Nothing shows before the commit.
        #expect(try R.everything(c, "chunked") == startState)
        var commit = options
        commit["session"] = .string("chunked")
        commit["upload"] = upload
        let reply = try c.must("data.apply.commit", commit)
        #expect(reply == expectedReply)
        #expect(reply["inserted"]?.arrayValue?.isEmpty == false)
        // Mid-animation and after it, both sessions show the same.
        try c.must("clock.advance", ["session": .string("one"), "ms": T.n(200)])
        try c.must("clock.advance", ["session": .string("chunked"), "ms": T.n(200)])
        let expectedMid = try Self.state(c, "one")
        #expect(try Self.state(c, "chunked") == expectedMid)
        // Journaled as the data.apply it equals: a crash right after restores the same state.
        let journal = try String(contentsOfFile: first.directory + "/state/journal.ndjson", encoding: .utf8)
        #expect(journal.split(separator: "\n").filter { $0.contains("\"method\":\"data.apply\"") }.count == 2)
        first.crash()
        let second = try ServerProcess(directory: first.scratch)
        let d = try second.connect()
        let restoredOne = try Self.state(d, "one")
        #expect(try Self.state(d, "chunked") == restoredOne)
        #expect(restoredOne == expectedMid)
        second.stop()
    }

    @Test func anApplyThatFailsHalfWayChangesNothing() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try R.create(c, "s")
        try c.must("data.reload", ["session": .string("s"), "sections": Self.start])
        let before = try Self.state(c, "s")
        let journal = first.directory + "/state/journal.ndjson"
        let journalBefore = try Data(contentsOf: URL(fileURLWithPath: journal))
        let session: JSONValue = .string("s")

        // A bad item in the second chunk: refused with its key path, the upload is gone.
        var upload = try Self.begin(c, "s")
        try c.must("data.apply.append", ["session": session, "upload": upload, "sections": .array([R.section("a", ["a0", "n"])])])
        let bad: JSONValue = .array([.object(["id": .string("a"), "items": .array([.object(["id": .string("q"), "size": T.pair(0, 5)])])])])
        var reply = try c.call("data.apply.append", ["session": session, "upload": upload, "sections": bad])
        #expect(reply["error"]?["code"] == T.n(-32602))
        #expect((reply["error"]?["message"]?.stringValue ?? "").contains("dropped"))
        reply = try c.call("data.apply.commit", ["session": session, "upload": upload])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))

        // A duplicate across chunks: the commit is refused naming it, and the upload is gone.
        upload = try Self.begin(c, "s")
        try c.must("data.apply.append", ["session": session, "upload": upload, "sections": .array([R.section("a", ["a0", "a1"])])])
        try c.must("data.apply.append", ["session": session, "upload": upload, "sections": .array([R.section("b", ["a1"])])])
        reply = try c.call("data.apply.commit", ["session": session, "upload": upload])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_data"))
        #expect((reply["error"]?["message"]?.stringValue ?? "").contains("a1"))
        reply = try c.call("data.apply.abort", ["session": session, "upload": upload])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))

        // A bad option at the commit is refused before the upload ends: a corrected commit
        // could follow; here the upload is used by the wrong family, then aborted.
        upload = try Self.begin(c, "s")
        try c.must("data.apply.append", ["session": session, "upload": upload, "sections": .array([R.section("a", ["a0"])])])
        for (key, value) in [("duration", T.n(-1)), ("duration", T.n(601)), ("mapping", .string("all")), ("animated", .string("yes"))] {
            reply = try c.call("data.apply.commit", ["session": session, "upload": upload, key: value])
            #expect(reply["error"]?["code"] == T.n(-32602), "\(key)")
        }
        reply = try c.call("data.reload.commit", ["session": session, "upload": upload])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))
        #expect((reply["error"]?["message"]?.stringValue ?? "").contains("data.apply.begin"))
        // One upload at a time per connection, whichever family.
        reply = try c.call("data.reload.begin", ["session": session])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))
        #expect(try c.must("data.apply.abort", ["session": session, "upload": upload])["items"] == T.n(1))

        // Cut off by its connection: nothing happens.
        let other = try first.connect()
        let mine = try Self.begin(other, "s")
        try other.must("data.apply.append", ["session": session, "upload": mine, "sections": .array([R.section("a", ["a0"])])])
        other.close()

        #expect(try Self.state(c, "s") == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == journalBefore)
        first.crash()
        let second = try ServerProcess(directory: first.scratch)
        #expect(try Self.state(try second.connect(), "s") == before)
        second.stop()
    }

    /// A chunked upload of `ids` for `name` (`purpose`: "reload" or "apply"), in chunks of 20,000
    /// items written as raw lines (a JSON tree of 200,000 items is slow in a debug build); the
    /// commit is sent and its reply left unread.
    static func sendUpload(_ c: RPCConnection, _ name: String, purpose: String, ids: [String]) throws {
        let upload = try #require(try c.must("data.\(purpose).begin", ["session": .string(name)])["upload"]?.stringValue)
        for start in stride(from: 0, to: ids.count, by: 20_000) {
            let items = ids[start..<min(start + 20_000, ids.count)].map { #"{"id":"\#($0)"}"# }.joined(separator: ",")
            c.sendRaw(#"{"jsonrpc":"2.0","id":"a\#(start)","method":"data.\#(purpose).append","params":{"session":"\#(name)","upload":"\#(upload)","sections":[{"id":"s","items":[\#(items)]}]}}"# + "\n")
            let reply = try #require(c.readMessage())
            #expect(reply["error"] == nil)
        }
        c.sendRaw(#"{"jsonrpc":"2.0","id":"commit","method":"data.\#(purpose).commit","params":{"session":"\#(name)","upload":"\#(upload)"\#(purpose == "apply" ? #","duration":0"# : "")}}"# + "\n")
    }

    /// A commit's checking, diffing and encoding run on libuv's thread pool (a million items
    /// held the loop about 2 s): another client is answered meanwhile, and a request that names
    /// the session waits for the commit and sees its data.
    @Test func aLargeCommitLeavesTheLoopFreeAndHoldsItsSession() throws {
        let server = try ServerProcess()
        let c = try server.connect(seconds: 120), other = try server.connect(seconds: 120)
        try R.create(c, "big")
        let count = 200_000
        let ids = (0..<count).map { "i\($0)" }
        try Self.sendUpload(c, "big", purpose: "reload", ids: ids)
        let reloaded = try #require(c.readMessage())
        #expect(reloaded["result"]?["items"] == T.n(Double(count)))

        // The snapshot: the same items but the first.
        try Self.sendUpload(c, "big", purpose: "apply", ids: Array(ids.dropFirst()))
        // Served while the commit is worked out: the commit's reply is not there yet.
        #expect(try other.must("hello")["server"] != nil)
        var ready = pollfd(fd: c.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 0) == 0, "the commit was answered before another client's hello: it held the loop")
        // Naming the session, it waits for the commit.
        #expect(try other.must("session.info", ["session": .string("big")])["items"] == T.n(Double(count - 1)))
        let applied = try #require(c.readMessage())
        #expect(applied["id"] == .string("commit"))
        #expect(applied["result"]?["deleted"]?.arrayValue?.count == 1)
        // Journaled as the data.apply it equals: a restart has the snapshot.
        server.crash()
        let again = try ServerProcess(directory: server.scratch, startSeconds: 120)
        #expect(try again.connect(seconds: 60).must("session.info", ["session": .string("big")])["items"] == T.n(Double(count - 1)))
        again.stop()
    }
}

