import Foundation
import Testing
import TrellisTestSupport
import TrellisClient
import TrellisCore
import TrellisProtocol
@testable import TrellisWeb

/// A page driving a session through trellis-web `--control`, a page that only watches, the
/// token and the session list: a real trellisd, a real trellis-web, a WebSocket client
/// speaking as the page's script speaks.
@Suite struct WebControlTests {
    /// A manual-clock flow session of 30 items of 100×100 in 375×812: taller than its bounds,
    /// so a pan moves it.
    static func makeSession(_ trellisd: TrellisdProcess, name: String) throws {
        try trellisd.client().call("session.create", [
            "name": .string(name), "clock": .string("manual"),
            "layout": .object(["type": .string("flow"), "itemSize": .array([.number(100), .number(100)])]),
            "sections": .array([.object(["id": .string("s0"), "items": .array((0..<30).map { WebViewerTests.item("i\($0)") })])]),
        ])
    }

    static func offset(_ trellisd: TrellisdProcess, _ session: String) throws -> [Double] {
        let info = try trellisd.client().call("session.info", ["session": .string(session)])
        return info["scroll"]?["contentOffset"]?.arrayValue?.compactMap(\.numberValue) ?? []
    }

    /// The page attaches read-write; its pan moves the session's offset (and the frames that
    /// carry it reach the page), its tap selects, its batch inserts.
    @Test func withControlThePageDrivesTheSession() async throws {
        let trellisd = try TrellisdProcess()
        defer { trellisd.stop() }
        try Self.makeSession(trellisd, name: "drive")
        let viewer = try await RunningWebViewer.start(socketPath: trellisd.socketPath, control: true)

        struct Seen: Sendable {
            var readOnly: JSONValue?
            var replies: [String: JSONValue] = [:]
            var frameOffsets: [[Double]] = []
            var selection: [JSONValue] = []
        }
        let seen = Recorded(Seen())
        let run = await outcome {
            try await PageClient.run("ws://127.0.0.1:\(viewer.port)" + viewer.authorized("/ws?session=drive")) { reply, reader, outbound in
                seen.update { $0.readOnly = reply["result"]?["readOnly"] }
                var notes: [JSONValue] = []
                func call(_ id: Int, _ method: String, _ params: [String: JSONValue]) async throws -> JSONValue {
                    try await PageClient.call(method, params, id: id, reader: &reader, outbound: outbound, seen: &notes)
                }
                let began = try await call(2, "gesture.pan", ["phase": .string("began"), "translation": .array([0, 0].map(JSONValue.number))])
                let changed = try await call(3, "gesture.pan", ["phase": .string("changed"), "translation": .array([0, -200].map(JSONValue.number))])
                let ended = try await call(4, "gesture.pan", ["phase": .string("ended"), "translation": .array([0, -200].map(JSONValue.number))])
                let tap = try await call(5, "gesture.tap", ["point": .array([50, 250].map(JSONValue.number))])
                let insert = try await call(6, "batch", ["ops": .array([.object([
                    "op": .string("insertItems"), "at": .array([.array([0, 0].map(JSONValue.number))]),
                    "items": .array([WebViewerTests.item("web-1")])])])])
                // The selection's notification follows the tap's reply; read until it came.
                while !notes.contains(where: { $0["method"] == .string("selection.changed") }) {
                    guard let message = try await reader.next() else { break }
                    notes.append(message)
                }
                let offsets = notes.compactMap { note -> [Double]? in
                    guard note["method"] == .string("frame") else { return nil }
                    return note["params"]?["contentOffset"]?.arrayValue?.compactMap(\.numberValue)
                }
                let selection = notes.last { $0["method"] == .string("selection.changed") }?["params"]?["selected"]?.arrayValue ?? []
                seen.update {
                    $0.replies = ["began": began, "changed": changed, "ended": ended, "tap": tap, "insert": insert]
                    $0.frameOffsets = offsets
                    $0.selection = selection
                }
            }
        }
        let offset = try Self.offset(trellisd, "drive")
        let items = try trellisd.client().call("session.info", ["session": .string("drive")])["items"]
        await viewer.stop()
        try run.get()

        let record = seen.current
        #expect(record.readOnly == .bool(false))
        #expect(record.replies["began"]?["result"]?["dragging"] == .bool(true))
        #expect(record.replies["changed"]?["result"]?["contentOffset"] == .array([0, 200].map(JSONValue.number)))
        #expect(record.replies["ended"]?["result"]?["dragging"] == .bool(false))
        #expect(record.frameOffsets.contains([0, 200]))
        #expect(offset == [0, 200])
        // (50, 250) in content is the first cell of the third row: i6.
        #expect(record.replies["tap"]?["result"]?["selected"] == .array([.string("i6")]))
        #expect(record.selection == [.string("i6")])
        #expect(record.replies["insert"]?["result"]?["inserted"] == .array([.array([0, 0].map(JSONValue.number))]))
        #expect(items == .number(31))
    }

    /// Without `--control` the page is attached read-only: it reads (stats, for the status
    /// bar), and the bridge turns down what would change the session, saying how to allow it.
    @Test func withoutControlThePageOnlyWatches() async throws {
        let trellisd = try TrellisdProcess()
        defer { trellisd.stop() }
        try Self.makeSession(trellisd, name: "watch")
        let viewer = try await RunningWebViewer.start(socketPath: trellisd.socketPath)
        let replies = Recorded([String: JSONValue]())
        let run = await outcome {
            try await PageClient.run("ws://127.0.0.1:\(viewer.port)" + viewer.authorized("/ws?session=watch")) { reply, reader, outbound in
                var notes: [JSONValue] = []
                let stats = try await PageClient.call("stats", [:], id: 2, reader: &reader, outbound: outbound, seen: &notes)
                let pan = try await PageClient.call("gesture.pan", ["phase": .string("began"), "translation": .array([0, 0].map(JSONValue.number))],
                                                    id: 3, reader: &reader, outbound: outbound, seen: &notes)
                let other = try await PageClient.call("session.info", ["session": .string("elsewhere")], id: 4,
                                                      reader: &reader, outbound: outbound, seen: &notes)
                let destroy = try await PageClient.call("session.destroy", [:], id: 5, reader: &reader, outbound: outbound, seen: &notes)
                replies.update { $0 = ["attach": reply, "stats": stats, "pan": pan, "other": other, "destroy": destroy] }
            }
        }
        let info = try trellisd.client().call("session.info", ["session": .string("watch")])
        await viewer.stop()
        try run.get()
        let r = replies.current
        #expect(r["attach"]?["result"]?["readOnly"] == .bool(true))
        #expect(r["stats"]?["result"]?["pool"]?["cell"]?["created"] != nil)
        #expect(r["pan"]?["error"]?["code"] == .number(-32004))
        #expect(r["pan"]?["error"]?["message"]?.stringValue?.contains("--control") == true)
        #expect(r["other"]?["error"]?["code"] == .number(-32602))
        #expect(r["destroy"]?["error"]?["code"] == .number(-32601))
        #expect(info["scroll"]?["dragging"] == .bool(false))
        #expect(info["name"] == .string("watch"))
    }

    /// With a token, the page, the list and the WebSocket are refused without it, with a
    /// reason a person can act on, and served with it.
    @Test func aTokenIsRequiredOfEveryRequest() async throws {
        let token = try #require(AccessToken("a-test-token-0123456789"))
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock", defaultSession: "web", token: token)
        let upgrade: [(String, String)] = [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ]
        let replies = await outcome {
            try await [
                PlainHTTP.get(port: viewer.port, path: "/"),
                PlainHTTP.get(port: viewer.port, path: "/?token=a-test-token-0123456788"),
                PlainHTTP.get(port: viewer.port, path: "/?token=a-test-token-0123456789"),
                PlainHTTP.get(port: viewer.port, path: "/sessions"),
                PlainHTTP.get(port: viewer.port, path: "/sessions?token=a-test-token-0123456789"),
                PlainHTTP.get(port: viewer.port, path: "/ws", headers: upgrade),
                PlainHTTP.get(port: viewer.port, path: "/ws?token=a-test-token-0123456789", headers: upgrade, headOnly: true),
            ]
        }
        await viewer.stop()
        let r = try replies.get()
        #expect(viewer.token == token.value)
        #expect(r.map(\.status) == [403, 403, 200, 403, 200, 403, 101], "\(r.map(\.head))")
        #expect(r[0].body.contains("?token="))
        #expect(r[5].body.contains("?token="), "a refused handshake says why too: \(r[5].body)")
        #expect(r[2].body.hasPrefix("<!doctype html>"))
        // trellisd is not there: the list says so in the page's terms.
        #expect(r[4].body.contains(#""kind":"unreachable""#))
    }

    /// With --no-token only loopback names are answered: a page under another name (DNS
    /// rebinding points a site's name at 127.0.0.1, and its script is then "same origin")
    /// cannot read the page, the list or the WebSocket; a second Host header naming another
    /// site behind a loopback one is refused too. With a token any name may, with it.
    @Test func withNoTokenOnlyLoopbackNamesAreAnswered() async throws {
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock", defaultSession: "web", noToken: true)
        let port = viewer.port
        let upgrade: [(String, String)] = [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ]
        let replies = await outcome {
            try await [
                PlainHTTP.get(port: port, path: "/", host: "localhost:\(port)"),
                PlainHTTP.get(port: port, path: "/", host: "[::1]:\(port)"),
                PlainHTTP.get(port: port, path: "/", host: "rebound.example:\(port)"),
                PlainHTTP.get(port: port, path: "/sessions", host: "rebound.example:\(port)"),
                PlainHTTP.get(port: port, path: "/ws", host: "rebound.example:\(port)",
                              headers: upgrade + [("Origin", "http://rebound.example:\(port)")]),
                PlainHTTP.get(port: port, path: "/", host: "127.0.0.1.rebound.example"),
                PlainHTTP.get(port: port, path: "/", headers: [("Host", "rebound.example:\(port)"), ("Connection", "close")]),
            ]
        }
        await viewer.stop()
        let r = try replies.get()
        #expect(r.map(\.status) == [200, 200, 403, 403, 403, 403, 400], "\(r.map(\.head))")
        #expect(r[2].body.contains("not this machine's loopback name"))
        #expect(r[2].body.contains("--no-token"))
        #expect(r[4].body.contains("not this machine's loopback name"), "\(r[4].body)")
        #expect(r[6].body.contains("Host header"), "\(r[6].body)")
    }

    /// `/sessions` is trellisd's `session.list`, for the page's list when no session is named.
    @Test func theSessionListIsServed() async throws {
        let trellisd = try TrellisdProcess()
        defer { trellisd.stop() }
        try Self.makeSession(trellisd, name: "listed")
        let viewer = try await RunningWebViewer.start(socketPath: trellisd.socketPath)
        let reply = await outcome { try await PlainHTTP.get(port: viewer.port, path: viewer.authorized("/sessions")) }
        await viewer.stop()
        let list = try JSONParser.parse(try reply.get().body)
        let names = list["sessions"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(names == ["listed"])
        #expect(list["sessions"]?.arrayValue?.first?["items"] == .number(30))
    }
}
