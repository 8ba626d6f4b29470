import Foundation
import Testing
import TrellisTestSupport
import TrellisClient
import TrellisCore
import TrellisProtocol
@testable import TrellisWeb

/// The timeline's reads through the bridge: a page (even one that only watches) may ask for
/// its own session's recording (`recording.info`) and past moments (`session.seek`), and for
/// no other session's. A real trellisd with a state directory (recording needs one), a real
/// trellis-web, a WebSocket client speaking as the page's script speaks.
@Suite struct WebTimelineTests {
    static func record(_ trellisd: TrellisdProcess, _ name: String) throws {
        try WebControlTests.makeSession(trellisd, name: name)
        try trellisd.client().call("recording.start", ["session": .string(name)])
        try trellisd.client().call("scroll.to", ["session": .string(name), "offset": .array([.number(0), .number(150)]),
                                                 "animated": .bool(true), "duration": .number(0.5), "curve": .string("linear")])
        try trellisd.client().call("clock.advance", ["session": .string(name), "ms": .number(500)])
    }

    @Test func aPageSeeksItsOwnSessionOnly() async throws {
        let trellisd = try TrellisdProcess(keepsState: true)
        defer { trellisd.stop() }
        try Self.record(trellisd, "mine")
        try Self.record(trellisd, "other")
        func state(_ name: String) throws -> [JSONValue] {
            let client = try trellisd.client()
            return [try client.call("session.info", ["session": .string(name)]),
                    try client.call("query.scene", ["session": .string(name)]),
                    try client.call("recording.info", ["session": .string(name)])]
        }
        let before = try state("other")
        let viewer = try await RunningWebViewer.start(socketPath: trellisd.socketPath)
        let replies = Recorded([String: JSONValue]())
        let run = await outcome {
            try await PageClient.run("ws://127.0.0.1:\(viewer.port)" + viewer.authorized("/ws?session=mine")) { _, reader, outbound in
                var notes: [JSONValue] = []
                func call(_ id: Int, _ method: String, _ params: [String: JSONValue]) async throws -> JSONValue {
                    try await PageClient.call(method, params, id: id, reader: &reader, outbound: outbound, seen: &notes)
                }
                let otherSeek = try await call(2, "session.seek", ["session": .string("other"), "atFrame": .number(15)])
                let otherInfo = try await call(3, "recording.info", ["session": .string("other")])
                let ownSeek = try await call(4, "session.seek", ["atFrame": .number(15)])
                let ownInfo = try await call(5, "recording.info", [:])
                let named = try await call(6, "session.seek", ["session": .string("mine"), "atFrame": .number(30)])
                replies.update { $0 = ["otherSeek": otherSeek, "otherInfo": otherInfo, "ownSeek": ownSeek, "ownInfo": ownInfo, "named": named] }
            }
        }
        let after = try state("other")
        let expected = try trellisd.client().call("session.seek", ["session": .string("mine"), "atFrame": .number(15)])
        await viewer.stop()
        try run.get()
        let r = replies.current
        for key in ["otherSeek", "otherInfo"] {
            #expect(r[key]?["error"]?["code"] == .number(-32602), "\(key): \(String(describing: r[key]))")
            #expect(r[key]?["error"]?["message"]?.stringValue?.contains("attached to 'mine'") == true, "\(key)")
        }
        // The page's own: the very moment trellisd gives anyone, and the page's recording.
        #expect(r["ownSeek"]?["result"]?["session"] == .string("mine"))
        #expect(r["ownSeek"]?["result"]?["frame"] == .number(15))
        #expect(r["ownSeek"]?["result"]?["scene"] == expected["scene"])
        #expect(r["ownSeek"]?["result"]?["scene"]?["contentOffset"] == .array([.number(0), .number(75)]))
        #expect(r["ownInfo"]?["result"]?["session"] == .string("mine"))
        #expect(r["ownInfo"]?["result"]?["lastFrame"] == .number(30))
        #expect(r["named"]?["result"]?["frame"] == .number(30))
        // Nothing of the other session changed, its recording included.
        #expect(before == after)
    }
}
