import Foundation
import HummingbirdWSClient
import Logging
import Testing
import TrellisTestSupport
import TrellisClient
import TrellisCore
import TrellisProtocol
@testable import TrellisWeb

/// trellis-web between a real trellisd and a real WebSocket client: what a browser receives,
/// applied as a viewer applies it, ends at the server's own scene.
@Suite struct WebViewerTests {
    static let logger: Logger = {
        var logger = Logger(label: "trellis-web-test-client")
        logger.logLevel = .error
        return logger
    }()

    static func item(_ id: String) -> JSONValue {
        .object(["id": .string(id), "data": .object(["label": .string(id.uppercased())])])
    }

    /// A manual-clock flow session of five 100×100 items.
    static func makeSession(_ trellisd: TrellisdProcess, name: String) throws {
        try trellisd.client().call("session.create", [
            "name": .string(name), "clock": .string("manual"),
            "layout": .object(["type": .string("flow"), "itemSize": .array([.number(100), .number(100)])]),
            "sections": .array([.object(["id": .string("s0"), "items": .array((0..<5).map { item("i\($0)") })])]),
        ])
    }

    @Test func thePageIsServedAtTheRoot() async throws {
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock")
        let reply = await outcome { try await PlainHTTP.get(port: viewer.port, path: viewer.authorized("/")) }
        await viewer.stop()
        let page = try reply.get()
        #expect(page.status == 200)
        #expect(page.head.lowercased().contains("content-type: text/html; charset=utf-8"))
        #expect(page.body.hasPrefix("<!doctype html>"))
        #expect(page.body.contains("'matrix3d(' + m.join(',') + ')'"))
        #expect(page.body.contains("new WebSocket("))
        #expect(page.body.contains("id=\"stage\""))
    }

    /// The keyframe arrives first; after a batch insert and clock advances, the frames the
    /// browser gets, applied in order, give exactly `query.scene` at each step; and once the
    /// browser goes, trellisd no longer counts it as a viewer.
    @Test func framesReachTheBrowserAndEndAtTheServersScene() async throws {
        let trellisd = try TrellisdProcess()
        defer { trellisd.stop() }
        try Self.makeSession(trellisd, name: "web")
        let viewer = try await RunningWebViewer.start(socketPath: trellisd.socketPath)
        let socketPath = trellisd.socketPath

        struct Checkpoint: Sendable { var seq: Int; var mirror: Scene; var server: Scene }
        struct Seen: Sendable {
            var keyframeSeq: Int?
            var keyframeViews = 0
            var readOnly = false
            var checkpoints: [Checkpoint] = []
            var outcomes: [ViewerMirror.Outcome] = []
            var insertedIDsBound: Set<String> = []
        }
        let seen = Recorded(Seen())

        let exchange = await outcome {
            try await withDeadline(seconds: 60, "the WebSocket exchange") {
                _ = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(viewer.port)" + viewer.authorized("/ws?session=web"),
                    configuration: .init(maxFrameSize: 1 << 20), logger: Self.logger
                ) { inbound, _, _ in
                    var reader = JSONMessageReader(inbound)
                    guard let reply = try await reader.next(), let result = reply["result"],
                          let keyframe = result["keyframe"], let seq = result["seq"]?.numberValue
                    else { throw WebTestFailure("the first message is not the attach reply") }
                    var mirror = ViewerMirror(keyframe: try WireScene.scene(keyframe), seq: Int(seq))
                    seen.update {
                        $0.keyframeSeq = Int(seq)
                        $0.keyframeViews = mirror.scene.views.count
                        $0.readOnly = result["readOnly"] == .bool(true)
                    }
                    // The control connection changes the session as a user would; each step
                    // then waits for the frame that carries it.
                    let control = try RPCClient(path: socketPath, timeout: 10)
                    try control.call("batch", [
                        "session": .string("web"),
                        "ops": .array([.object(["op": .string("insertItems"),
                                                "at": .array([.array([.number(0), .number(0)]), .array([.number(0), .number(1)])]),
                                                "items": .array([Self.item("n0"), Self.item("n1")])])]),
                    ])
                    for ms in [100.0, 1000.0] {
                        try control.call("clock.advance", ["session": .string("web"), "ms": .number(ms)])
                        guard let target = try control.call("session.info", ["session": .string("web")])["seq"]?.numberValue else {
                            throw WebTestFailure("session.info has no seq")
                        }
                        let server = try WireScene.scene(try control.call("query.scene", ["session": .string("web")]))
                        while mirror.seq < Int(target) {
                            guard let message = try await reader.next() else { throw WebTestFailure("the socket closed at seq \(mirror.seq)") }
                            guard message["method"]?.stringValue == "frame", let params = message["params"],
                                  let frameSeq = params["seq"]?.numberValue else { continue }
                            let delta = try WireScene.delta(params)
                            let applied = mirror.apply(delta, seq: Int(frameSeq))
                            let bound = delta.bound.compactMap { $0.view.itemID?.rawValue }
                            seen.update { $0.outcomes.append(applied); $0.insertedIDsBound.formUnion(bound) }
                        }
                        let checkpoint = Checkpoint(seq: mirror.seq, mirror: mirror.scene, server: server)
                        seen.update { $0.checkpoints.append(checkpoint) }
                    }
                }
            }
        }
        let record = seen.current
        // The browser has gone: its bridge closed trellisd's connection, so the session's
        // viewer count drops back to 0 (a bounded wait for the server to see the close).
        var viewers: Double? = nil
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            viewers = try trellisd.client().call("session.info", ["session": .string("web")])["viewers"]?.numberValue
            if viewers == 0 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        await viewer.stop()

        try exchange.get()
        #expect(record.keyframeSeq == 0)
        #expect(record.keyframeViews == 5)
        #expect(record.readOnly)
        #expect(record.outcomes.allSatisfy { $0 == .applied })
        #expect(record.insertedIDsBound.isSuperset(of: ["n0", "n1"]))
        #expect(record.checkpoints.count == 2)
        for checkpoint in record.checkpoints {
            #expect(checkpoint.mirror == checkpoint.server, "at seq \(checkpoint.seq)")
        }
        #expect(record.checkpoints.last?.mirror.views.count == 7)
        #expect(viewers == 0)
    }

    /// With no trellisd on the socket the page is told so (and then tries again on its own).
    /// The messages of an exchange in which the bridge sends one message and closes right after
    /// the upgrade, connecting again (as the page does every second) when a connection brought
    /// nothing within 5 s, at most three times. The test's WebSocket client now and then loses
    /// bytes that arrive in the same read as its 101 response and then waits for ever (seen in 1
    /// of 40 runs; a browser does not); a bridge that sent nothing fails all three.
    static func oneMessageExchange(_ url: String) async -> [JSONValue] {
        for _ in 0..<3 {
            let messages = Recorded([JSONValue]())
            let exchange = await outcome {
                try await withDeadline(seconds: 5, "the WebSocket exchange") {
                    _ = try await WebSocketClient.connect(url: url, logger: Self.logger) { inbound, _, _ in
                        var reader = JSONMessageReader(inbound)
                        while let message = try await reader.next() { messages.update { $0.append(message) } }
                    }
                }
            }
            if case .success = exchange, !messages.current.isEmpty { return messages.current }
        }
        return []
    }

    @Test func aMissingTrellisdIsReported() async throws {
        let viewer = try await RunningWebViewer.start(socketPath: "/nonexistent/trellis.sock", defaultSession: "web")
        let received = await Self.oneMessageExchange("ws://127.0.0.1:\(viewer.port)" + viewer.authorized("/ws"))
        await viewer.stop()
        #expect(received.count == 1)
        #expect(received.first?["bridge"]?["kind"] == .string("unreachable"))
        #expect(received.first?["bridge"]?["message"]?.stringValue?.contains("/nonexistent/trellis.sock") == true)
    }

    /// An unknown session: trellisd's own error reply reaches the page as it is.
    @Test func anUnknownSessionIsTrellisdsErrorReply() async throws {
        let trellisd = try TrellisdProcess()
        defer { trellisd.stop() }
        let viewer = try await RunningWebViewer.start(socketPath: trellisd.socketPath)
        let received = await Self.oneMessageExchange("ws://127.0.0.1:\(viewer.port)" + viewer.authorized("/ws?session=nosuch"))
        await viewer.stop()
        #expect(received.count == 1)
        #expect(received.first?["error"]?["data"]?["code"] == .string("unknown_session"))
    }
}
