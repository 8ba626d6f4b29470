import Foundation
import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol
import TrellisTestSupport
@testable import TrellisWeb

/// A browser that stops reading is a slow viewer: the bridge stops reading trellisd while the
/// WebSocket does not take what it forwards, so trellisd's own rule applies (frames skipped,
/// then one catch-up delta) instead of memory growing in the bridge; once the browser reads
/// again it ends at the server's scene.
@Suite struct SlowBrowserTests {
    @Test func aBrowserThatStopsReadingSkipsFramesAndCatchesUp() async throws {
        let trellisd = try TrellisdProcess()
        defer { trellisd.stop() }
        // About a thousand views that all move every frame (~40 KB a frame at 60 fps), so the
        // sockets between trellisd and the browser fill within seconds.
        try trellisd.client().call("session.create", [
            "name": .string("slow"), "bounds": .array([.number(1600), .number(1600)]),
            "layout": .object(["type": .string("flow"), "itemSize": .array([.number(40), .number(40)])]),
            "sections": .array([.object(["id": .string("s0"), "items": .array((0..<1000).map { WebViewerTests.item("i\($0)") })])]),
        ])
        let viewer = try await RunningWebViewer.start(socketPath: trellisd.socketPath)

        struct Seen: Sendable { var skipped = 0.0; var gap = false; var mirror: Scene?; var server: Scene? }
        let seen = Recorded(Seen())
        let run = await outcome {
            try await PageClient.run("ws://127.0.0.1:\(viewer.port)" + viewer.authorized("/ws?session=slow"), seconds: 90) { reply, reader, _ in
                guard let result = reply["result"], let keyframe = result["keyframe"], let seq = result["seq"]?.numberValue else {
                    throw WebTestFailure("no keyframe: \(reply)")
                }
                var mirror = ViewerMirror(keyframe: try WireScene.scene(keyframe), seq: Int(seq))
                let control = try trellisd.client()
                // A long animation, and the browser reads nothing until trellisd skips frames
                // for it (a bounded wait: the sockets hold a few MB).
                try control.call("layout.set", ["session": .string("slow"), "animated": .bool(true), "duration": .number(30),
                                                "layout": .object(["type": .string("circle"), "itemSize": .array([.number(20), .number(20)])])])
                var skipped = 0.0
                let deadline = Date().addingTimeInterval(40)
                while skipped == 0 && Date() < deadline {
                    try await Task.sleep(for: .milliseconds(200))
                    let stats = try control.call("stats", ["session": .string("slow")])
                    skipped = stats["viewers"]?.arrayValue?.first?["framesSkipped"]?.numberValue ?? 0
                }
                // Then the animation is cut short (an unanimated layout.set), and the browser
                // reads until it holds the last frame.
                try control.call("layout.set", ["session": .string("slow"),
                                                "layout": .object(["type": .string("flow"), "itemSize": .array([.number(40), .number(40)])])])
                guard let target = try control.call("session.info", ["session": .string("slow")])["seq"]?.numberValue else {
                    throw WebTestFailure("session.info has no seq")
                }
                let server = try WireScene.scene(try control.call("query.scene", ["session": .string("slow")]))
                var gap = false
                while mirror.seq < Int(target) {
                    guard let message = try await reader.next() else { throw WebTestFailure("closed at seq \(mirror.seq)") }
                    guard message["method"]?.stringValue == "frame", let params = message["params"],
                          let frameSeq = params["seq"]?.numberValue else { continue }
                    if Int(frameSeq) > mirror.seq + 1 { gap = true }
                    _ = mirror.apply(try WireScene.delta(params), seq: Int(frameSeq))
                }
                let final = mirror.scene
                seen.update { $0 = Seen(skipped: skipped, gap: gap, mirror: final, server: server) }
            }
        }
        await viewer.stop()
        try run.get()
        let record = seen.current
        #expect(record.skipped > 0)
        #expect(record.gap)
        #expect(record.mirror != nil && record.mirror == record.server)
    }
}
