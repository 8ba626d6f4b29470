import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// The chunked form of data.reload (data.reload.begin / append / commit / abort) against a
/// real trellisd: it equals one data.reload of the same data, an upload cut short changes
/// nothing (data or journal), its limits are refused clearly, and it dies with its connection.
@Suite(.serialized) struct ChunkedReloadTests {
    typealias T = PersistenceTests

    static func item(_ id: String, size: Bool = false) -> JSONValue {
        var o: [String: JSONValue] = ["id": .string(id), "data": .object(["label": .string("#" + id)])]
        if size { o["size"] = T.pair(20, 30) }
        return .object(o)
    }

    /// Items a0, a3, … carry their own size (by id, so a section split over chunks is the same data).
    static func section(_ id: String, _ ids: [String]) -> JSONValue {
        .object(["id": .string(id), "items": .array(ids.map { item($0, size: (Int($0.dropFirst()) ?? 0) % 3 == 0) })])
    }

    /// Three sections: a 0…24, b 0…9, c 0…14.
    static var whole: [(String, [String])] {
        [("a", (0..<25).map { "a\($0)" }), ("b", (0..<10).map { "b\($0)" }), ("c", (0..<15).map { "c\($0)" })]
    }

    static func create(_ c: RPCConnection, _ name: String) throws {
        try c.must("session.create", ["name": .string(name), "clock": .string("manual"), "bounds": T.pair(200, 300),
                                      "layout": T.flow(10)])
    }

    /// Every item's attributes (ids, index paths, frames) and the session's counts.
    static func everything(_ c: RPCConnection, _ name: String) throws -> JSONValue {
        let attributes = try c.must("query.attributes", ["session": .string(name), "rect": .array([T.n(-1e5), T.n(-1e5), T.n(2e5), T.n(2e5)])])
        let info = try c.must("session.info", ["session": .string(name)])
        return .object(["attributes": attributes, "items": info["items"] ?? .null, "sections": info["sections"] ?? .null])
    }

    static func begin(_ c: RPCConnection, _ name: String) throws -> JSONValue {
        try #require(try c.must("data.reload.begin", ["session": .string(name)])["upload"])
    }

    @Test func aChunkedReloadEqualsOneReloadAndSurvivesARestart() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try Self.create(c, "one")
        try Self.create(c, "chunked")
        try c.must("data.reload", ["session": .string("one"), "sections": .array(Self.whole.map { Self.section($0, $1) })])
        let upload = try Self.begin(c, "chunked")
        let a = Self.whole[0].1, b = Self.whole[1].1, c3 = Self.whole[2].1
        // Section a split over two chunks (the second chunk's first section continues it),
        // b and the start of c in the next, the rest of c in the last.
        let chunks: [[JSONValue]] = [
            [Self.section("a", Array(a[0..<12]))],
            [Self.section("a", Array(a[12...])), Self.section("b", b), Self.section("c", Array(c3[0..<4]))],
            [Self.section("c", Array(c3[4...]))],
        ]
        var staged = 0
        for chunk in chunks {
            let reply = try c.must("data.reload.append", ["session": .string("chunked"), "upload": upload, "sections": .array(chunk)])
            staged += chunk.reduce(0) { $0 + ($1["items"]?.arrayValue?.count ?? 0) }
            #expect(reply["items"] == T.n(Double(staged)))
        }
        // Nothing shows before the commit.
        #expect(try c.must("session.info", ["session": .string("chunked")])["items"] == T.n(0))
        let committed = try c.must("data.reload.commit", ["session": .string("chunked"), "upload": upload])
        #expect(committed == .object(["sections": T.n(3), "items": T.n(50)]))
        let expected = try Self.everything(c, "one")
        #expect(try Self.everything(c, "chunked") == expected)
        // The commit was journaled as the data.reload it equals: a crash right after it loses nothing.
        let journal = try String(contentsOfFile: first.directory + "/state/journal.ndjson", encoding: .utf8)
        #expect(journal.split(separator: "\n").last?.contains("\"method\":\"data.reload\"") == true)
        first.crash()
        let second = try ServerProcess(directory: first.scratch)
        let d = try second.connect()
        #expect(try Self.everything(d, "chunked") == expected)
        second.stop()
    }

    /// Uploads `whole` to `name` in one chunk and commits it; the commit's reply.
    static func upload(_ c: RPCConnection, _ name: String) throws -> JSONValue {
        let upload = try begin(c, name)
        try c.must("data.reload.append", ["session": .string(name), "upload": upload, "sections": .array(whole.map { section($0, $1) })])
        return try c.must("data.reload.commit", ["session": .string(name), "upload": upload])
    }

    @Test func aCommitPastTheCompactionThresholdIsMadeDurableByTheSnapshotNotALine() throws {
        // 50 items stage a few kilobytes: past a 1,000-byte threshold their line alone would
        // make the journal due, so the snapshot stands for it and the reply waits for it.
        let first = try ServerProcess(arguments: ["--journal-compact-bytes", "1000"])
        let c = try first.connect()
        try Self.create(c, "one")
        try Self.create(c, "chunked")
        try c.must("data.reload", ["session": .string("one"), "sections": .array(Self.whole.map { Self.section($0, $1) })])
        #expect(try Self.upload(c, "chunked") == .object(["sections": T.n(3), "items": T.n(50)]))
        let state = first.directory + "/state"
        // Answered only once the snapshot was in place: it holds the data, the journal no line of it.
        let journal = try String(contentsOfFile: state + "/journal.ndjson", encoding: .utf8)
        #expect(!journal.contains("\"method\":\"data.reload\""), "\(journal)")
        let snapshot = try String(contentsOfFile: state + "/snapshot.json", encoding: .utf8)
        #expect(snapshot.contains("\"chunked\"") && snapshot.contains("\"c14\""))
        let expected = try Self.everything(c, "one")
        first.crash()
        let second = try ServerProcess(directory: first.scratch)
        #expect(try Self.everything(try second.connect(), "chunked") == expected)
        second.stop()
    }

    @Test func aCommitWhoseSnapshotFailsIsJournaledInstead() throws {
        // A directory where the background snapshot is written first: that snapshot fails,
        // so the commit is journaled as the line after all, and survives a crash the same.
        let first = try ServerProcess(arguments: ["--journal-compact-bytes", "1000"])
        let c = try first.connect()
        try Self.create(c, "one")
        try Self.create(c, "chunked")
        let state = first.directory + "/state"
        try FileManager.default.createDirectory(atPath: state + "/snapshot.json.next", withIntermediateDirectories: false)
        try c.must("data.reload", ["session": .string("one"), "sections": .array(Self.whole.map { Self.section($0, $1) })])
        #expect(try Self.upload(c, "chunked") == .object(["sections": T.n(3), "items": T.n(50)]))
        let journal = try String(contentsOfFile: state + "/journal.ndjson", encoding: .utf8)
        #expect(journal.split(separator: "\n").last?.contains("\"method\":\"data.reload\"") == true, "\(journal)")
        let expected = try Self.everything(c, "one")
        first.crash()
        try FileManager.default.removeItem(atPath: state + "/snapshot.json.next")
        let second = try ServerProcess(directory: first.scratch)
        #expect(try Self.everything(try second.connect(), "chunked") == expected)
        second.stop()
    }

    @Test func anUploadThatFailsHalfWayChangesNothing() throws {
        let first = try ServerProcess()
        let c = try first.connect()
        try Self.create(c, "s")
        try c.must("data.reload", ["session": .string("s"), "sections": .array([Self.section("old", ["x", "y", "z"])])])
        let before = try Self.everything(c, "s")
        let journal = first.directory + "/state/journal.ndjson"
        let journalBefore = try Data(contentsOf: URL(fileURLWithPath: journal))
        let session: JSONValue = .string("s")

        // A duplicate id across chunks: the commit is refused naming it, and the upload is gone.
        var upload = try Self.begin(c, "s")
        try c.must("data.reload.append", ["session": session, "upload": upload, "sections": .array([Self.section("a", ["a0", "a1"])])])
        try c.must("data.reload.append", ["session": session, "upload": upload, "sections": .array([Self.section("b", ["b0", "a1"])])])
        var reply = try c.call("data.reload.commit", ["session": session, "upload": upload])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_data"))
        let message = reply["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("a1") && message.contains("dropped") && message.contains("unchanged"), "\(message)")
        reply = try c.call("data.reload.commit", ["session": session, "upload": upload])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))

        // A section id again after another section: refused at its chunk.
        upload = try Self.begin(c, "s")
        try c.must("data.reload.append", ["session": session, "upload": upload, "sections": .array([Self.section("a", ["a0"]), Self.section("b", ["b0"])])])
        reply = try c.call("data.reload.append", ["session": session, "upload": upload, "sections": .array([Self.section("a", ["a1"])])])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_data"))
        #expect((reply["error"]?["message"]?.stringValue ?? "").hasPrefix("section identifiers must be unique; duplicated: a"))
        reply = try c.call("data.reload.commit", ["session": session, "upload": upload])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))

        // A bad item in a later chunk: its key path, and the upload is gone too.
        upload = try Self.begin(c, "s")
        try c.must("data.reload.append", ["session": session, "upload": upload, "sections": .array([Self.section("a", ["a0"])])])
        let bad: JSONValue = .array([.object(["id": .string("a"), "items": .array([.object(["id": .string("q"), "size": T.pair(-1, 5)])])])])
        reply = try c.call("data.reload.append", ["session": session, "upload": upload, "sections": bad])
        #expect(reply["error"]?["code"] == T.n(-32602))
        #expect((reply["error"]?["message"]?.stringValue ?? "").hasPrefix("params.sections[0].items[0].size: expected a positive width and height"))
        reply = try c.call("data.reload.commit", ["session": session, "upload": upload])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))

        // An abort: the upload is gone, nothing changed.
        upload = try Self.begin(c, "s")
        try c.must("data.reload.append", ["session": session, "upload": upload, "sections": .array([Self.section("a", ["a0"])])])
        #expect(try c.must("data.reload.abort", ["session": session, "upload": upload])["items"] == T.n(1))
        reply = try c.call("data.reload.append", ["session": session, "upload": upload, "sections": .array([Self.section("a", ["a1"])])])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))

        #expect(try Self.everything(c, "s") == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == journalBefore)
        // And after a restart too.
        first.crash()
        let second = try ServerProcess(directory: first.scratch)
        #expect(try Self.everything(try second.connect(), "s") == before)
        second.stop()
    }

    @Test func limitsAndMisuseAreRefusedClearly() throws {
        let server = try ServerProcess(arguments: ["--max-upload-items", "100", "--max-upload-bytes", "1000000"])
        let c = try server.connect(), other = try server.connect()
        try Self.create(c, "s")
        let session: JSONValue = .string("s")
        let upload = try Self.begin(c, "s")
        // One upload at a time per connection.
        var reply = try c.call("data.reload.begin", ["session": session])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))
        #expect((reply["error"]?["message"]?.stringValue ?? "").contains("one upload at a time per connection"))
        // Another connection cannot use it.
        reply = try other.call("data.reload.append", ["session": session, "upload": upload, "sections": .array([])])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))
        // Nor can it be named with another session.
        try Self.create(c, "t")
        reply = try c.call("data.reload.append", ["session": .string("t"), "upload": upload, "sections": .array([])])
        #expect(reply["error"]?["message"]?.stringValue == "params.session: upload '\(upload.stringValue!)' reloads session 's', not 't'")
        // A session closed and made again under its name is another session: refused, dropped.
        let elsewhere = try Self.begin(other, "t")
        try other.must("data.reload.append", ["session": .string("t"), "upload": elsewhere, "sections": .array([Self.section("z", ["z0"])])])
        try c.must("session.destroy", ["session": .string("t")])
        try Self.create(c, "t")
        reply = try other.call("data.reload.commit", ["session": .string("t"), "upload": elsewhere])
        #expect(reply["error"]?["data"]?["code"] == .string("invalid_state"))
        #expect((reply["error"]?["message"]?.stringValue ?? "").contains("was closed and made again"))
        #expect(try c.must("session.info", ["session": .string("t")])["items"] == T.n(0))
        // Past the item limit: limit_exceeded naming the flag; the upload is dropped.
        try c.must("data.reload.append", ["session": session, "upload": upload, "sections": .array([Self.section("a", (0..<60).map { "a\($0)" })])])
        reply = try c.call("data.reload.append", ["session": session, "upload": upload, "sections": .array([Self.section("a", (60..<110).map { "a\($0)" })])])
        #expect(reply["error"]?["data"]?["code"] == .string("limit_exceeded"))
        #expect(reply["error"]?["data"]?["details"]?["limit"] == T.n(100))
        let message = reply["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("110 items") && message.contains("--max-upload-items"), "\(message)")
        // Past the byte limit: a payload of 100 KB per item.
        let big = try Self.begin(c, "s")
        let payload = String(repeating: "x", count: 100_000)
        let heavy: JSONValue = .array([.object(["id": .string("h"), "items": .array((0..<8).map {
            .object(["id": .string("h\($0)"), "data": .string(payload)])
        })])])
        try c.must("data.reload.append", ["session": session, "upload": big, "sections": heavy])
        reply = try c.call("data.reload.append", ["session": session, "upload": big, "sections": heavy])
        #expect(reply["error"]?["data"]?["code"] == .string("limit_exceeded"))
        #expect((reply["error"]?["message"]?.stringValue ?? "").contains("--max-upload-bytes"))
        #expect(try c.must("session.info", ["session": session])["items"] == T.n(0))
        server.stop()
    }

    @Test func anUploadDiesWithItsConnection() throws {
        let server = try ServerProcess(arguments: ["--max-upload-items", "100"])
        let c = try server.connect()
        try Self.create(c, "s")
        let session: JSONValue = .string("s")
        let upload = try Self.begin(c, "s")
        try c.must("data.reload.append", ["session": session, "upload": upload, "sections": .array([Self.section("a", (0..<80).map { "a\($0)" })])])
        c.close()
        // Its 80 staged items are freed once the server saw the close: another connection can
        // then stage 80 (with them still staged it would be over the limit of 100).
        let d = try server.connect()
        let deadline = Date().addingTimeInterval(10)
        var staged = false
        while !staged && Date() < deadline {
            let mine = try Self.begin(d, "s")
            let reply = try d.call("data.reload.append", ["session": session, "upload": mine, "sections": .array([Self.section("a", (0..<80).map { "a\($0)" })])])
            staged = reply["result"] != nil
            if !staged {
                #expect(reply["error"]?["data"]?["code"] == .string("limit_exceeded"))
                usleep(20_000)
            } else {
                try d.must("data.reload.commit", ["session": session, "upload": mine])
            }
        }
        #expect(staged)
        #expect(try d.must("session.info", ["session": session])["items"] == T.n(80))
        server.stop()
    }
}
