import Foundation
import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol
import TrellisTestSupport

/// `trellis reload` of more data than one request carries, through real processes with the
/// server's default limits: sent in chunks under the message limit and applied at once.
@Suite struct ChunkedReloadCLITests {
    @Test func aReloadLargerThanOneRequestGoesInChunks() throws {
        let server = try CLIServer()
        defer { server.stop() }
        #expect(server.trellis("new", "big", "--manual-clock", "--item-size", "10x10").status == 0)
        // 200,000 generated items are about 9 MB of JSON: nine times the 1 MiB request limit.
        var r = server.trellis("reload", "big", "--items", "200000")
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdout == "200000 items in 1 section\n")
        #expect(server.trellis("query", "big", "--at", "0:199999").stdout.hasPrefix("0:199999 item199999 "))
        // Two sections, the first split over chunks, ids running on across them.
        r = server.trellis("reload", "big", "--items", "150000,60000")
        #expect(r.stdout == "210000 items in 2 sections\n", "\(r.stderr)")
        #expect(server.trellis("query", "big", "--at", "1:59999").stdout.hasPrefix("1:59999 item209999 "))
        #expect(server.trellis("query", "big", "--at", "0:149999").stdout.hasPrefix("0:149999 item149999 "))
    }

    @Test func aServerWithASmallMessageLimitGetsSmallChunks() throws {
        let server = try CLIServer(arguments: ["--max-message-bytes", "4096"])
        defer { server.stop() }
        #expect(server.trellis("new", "s", "--manual-clock").status == 0)
        let r = server.trellis("reload", "s", "--items", "3000")
        #expect(r.status == 0 && r.stdout == "3000 items in 1 section\n", "\(r.stderr)")
        // About 140 KB went in requests of at most 4 KB each: dozens of chunks.
        let stats = try server.client().call("stats")
        #expect((stats["requests"]?.numberValue ?? 0) > 30)
    }

    @Test func aJSONLinesFileIsStreamedInChunks() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let directory = CLIServer.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(server.trellis("new", "f", "--manual-clock", "--item-size", "10x10").status == 0)
        // 60,000 items, ids and objects mixed, a blank line and a last line without its line end.
        var text = ""
        for n in 0..<60_000 {
            text += n % 2 == 0 ? "\"line\(n)\"\n" : "{\"id\":\"line\(n)\",\"size\":[20,20],\"data\":{\"note\":\"\(String(repeating: "n", count: 20))\"}}\n"
            if n == 10 { text += "\n" }
        }
        text.removeLast()
        let path = directory + "/items.jsonl"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var r = server.trellis("reload", "f", "--file", path)
        #expect(r.status == 0 && r.stdout == "60000 items in 1 section\n", "\(r.stderr)")
        #expect(server.trellis("query", "f", "--at", "0:59999").stdout.hasPrefix("0:59999 line59999 frame="))
        r = server.trellis("query", "f", "--at", "0:1")
        #expect(r.stdout.hasPrefix("0:1 line1 ") && r.stdout.contains(",20,20 "), "\(r.stdout)")

        // A bad line far into the file: named, and the session keeps its data.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[50_000] = "{\"id\": 7}"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        r = server.trellis("reload", "f", "--file", path)
        #expect(r.status == 65)
        // Element 50,000 of the lines (the blank one among them) is line 50,001.
        #expect(r.stderr.contains("items.jsonl: line 50001: an item is an id string or an object with a string \"id\""), "\(r.stderr)")
        #expect(server.trellis("ls").stdout.contains("60000 items in 1 section"))
        // A duplicate id across chunks: the server's message, and nothing changed.
        lines[50_000] = "\"line3\""
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        r = server.trellis("reload", "f", "--file", path)
        #expect(r.status == 65)
        #expect(r.stderr.contains("duplicated: line3") && r.stderr.contains("unchanged"), "\(r.stderr)")
        #expect(server.trellis("query", "f", "--at", "0:59999").stdout.hasPrefix("0:59999 line59999 frame="))
    }
}
