import Foundation
import Testing
import TrellisClient
import TrellisProtocol
import TrellisTestSupport

/// The flight recorder fed from a real browser: a session driven for a minute of its time
/// through `trellis-web --control` (a pan, a fling, a tap, the toolbar's insert, the layout
/// picker) and from a shell (dynamics), recorded, then replayed on a fresh server: every frame
/// a viewer received live is the replay's, in order; and the script passes under `trellis run`
/// embedded and against a server.
@Suite(.serialized, .enabled(if: BrowserExecutable.isAvailable,
                              "no headless Chromium: install chromium-headless-shell (tools/test does) or set TRELLIS_CHROMIUM"))
struct BrowserRecordingTests {
    static let frame = 1000.0 / 60

    /// The frames `viewer` has received so far (after a request of its own, so every frame
    /// published before it is in), appended to `frames` as JSON text.
    static func collect(_ viewer: RPCClient, into frames: inout [String]) throws {
        _ = try viewer.call("hello")
        while let message = try viewer.nextNotification(timeout: 0) {
            if message["method"] == .string("frame") { frames.append(JSONWriter.string(message)) }
        }
    }

    /// `count` frames of the session's manual clock, each collected by `viewer`.
    static func advance(_ driver: RPCClient, _ viewer: RPCClient, _ session: String, frames count: Int, into frames: inout [String]) throws {
        for _ in 0..<count {
            _ = try driver.call("clock.advance", ["session": .string(session), "ms": .number(frame)])
            try collect(viewer, into: &frames)
        }
    }

    @Test func aMinuteDrivenFromTheBrowserReplaysFrameByFrame() async throws {
        try await BrowserHarness.run(seconds: 240, control: true, keepsState: true) { harness in
            let name = "explore"
            try BrowserControlTests.makeSession(harness, name)
            let driver = try harness.trellisd.client()
            _ = try driver.call("recording.start", ["session": .string(name)])
            let viewer = try harness.trellisd.client()
            _ = try viewer.call("session.attach", ["session": .string(name)])
            var live: [String] = []

            try await harness.open(session: name)
            try await BrowserControlTests.waitForControls(harness)
            let stage = try await BrowserControlTests.stageOrigin(harness)
            // A slow pan, then frames.
            try await harness.page.drag(from: PagePoint(x: stage.x + 180, y: stage.y + 600),
                                        to: PagePoint(x: stage.x + 180, y: stage.y + 400), steps: 8, duration: 0.8)
            try await BrowserControlTests.waitForReplies(harness)
            try Self.advance(driver, viewer, name, frames: 20, into: &live)
            // A quick flick: a fling, decelerating over the next second.
            try await harness.page.drag(from: PagePoint(x: stage.x + 180, y: stage.y + 500),
                                        to: PagePoint(x: stage.x + 180, y: stage.y + 350), steps: 5, duration: 0.1)
            try await BrowserControlTests.waitForReplies(harness)
            try Self.advance(driver, viewer, name, frames: 60, into: &live)
            try await harness.waitForPage(session: name)
            // A tap selects the cell under it.
            try await harness.page.click(at: PagePoint(x: stage.x + 150, y: stage.y + 250))
            _ = try await harness.page.waitUntil(
                "document.querySelectorAll('.view.selected').length === 1", timeout: 20, "a selected cell outlined")
            try Self.advance(driver, viewer, name, frames: 10, into: &live)
            // The toolbar's insert: an animated batch.
            let insert = try await harness.page.evaluate(
                "(() => { const r = document.querySelector('button[data-action=insert]').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
            let xy = insert.arrayValue?.compactMap(\.numberValue) ?? []
            try #require(xy.count == 2)
            try await harness.page.click(at: PagePoint(x: xy[0], y: xy[1]))
            try await BrowserControlTests.waitForReplies(harness)
            try Self.advance(driver, viewer, name, frames: 30, into: &live)
            // The layout picker: to the circle.
            _ = try await harness.page.evaluate(
                "(() => { const c = document.getElementById('layout-choice'); c.value = 'circle'; c.dispatchEvent(new Event('change')); })()")
            try await BrowserControlTests.waitForReplies(harness)
            try Self.advance(driver, viewer, name, frames: 30, into: &live)
            // From a shell: a body under gravity, falling onto the bounds, for the rest of the minute.
            let s: JSONValue = .string(name)
            _ = try driver.call("body.add", ["session": s, "body": .string("card"), "center": .array([.number(150), .number(100)]),
                                             "size": .array([.number(60), .number(40)]), "angle": .number(0.3)])
            let card: JSONValue = .array([.object(["body": .string("card")])])
            _ = try driver.call("dynamics.add", ["session": s, "behavior": .object(["type": .string("gravity"), "items": card])])
            _ = try driver.call("dynamics.add", ["session": s, "behavior": .object([
                "type": .string("collision"), "items": card, "translatesReferenceBoundsIntoBoundary": .bool(true)])])
            try Self.advance(driver, viewer, name, frames: 3600 - 150, into: &live)
            try await harness.waitForPage(session: name)
            let time = try driver.call("session.info", ["session": s])["time"]?.numberValue ?? 0
            #expect(abs(time - 60_000) < 1e-6, "a minute of the session's time: \(time) ms")

            let stopped = try driver.call("recording.stop", ["session": s])
            let script = stopped["script"]?.stringValue ?? ""
            #expect(stopped["ended"] == nil)
            // Each kind of change came as the request the page or the shell sent.
            for line in ["\"phase\":\"ended\"", "rpc gesture.tap ", "rpc batch ", "rpc layout.set ", "rpc dynamics.add "] {
                #expect(script.contains(line), "the script has no \(line)")
            }
            // A frame for each tick that moved something, and for the changes between them.
            #expect(live.count > 150, "\(live.count) frames")

            // Replayed on a fresh server: the same frames, in the same order.
            let other = try TrellisdProcess()
            defer { other.stop() }
            let replayer = try other.client(), watcher = try other.client()
            var replayed: [String] = []
            for (k, request) in try RecordedScriptRequests.requests(in: script).enumerated() {
                _ = try replayer.call(request.method, request.params)
                if k == 0 { _ = try watcher.call("session.attach", ["session": s]) }
                try Self.collect(watcher, into: &replayed)
            }
            #expect(replayed.count == live.count)
            for (k, (a, b)) in zip(live, replayed).enumerated() where a != b {
                Issue.record("frame \(k) differs:\n  live:   \(a.prefix(400))\n  replay: \(b.prefix(400))")
                break
            }

            // And the script is a test that passes, embedded and against a server.
            let file = harness.trellisd.directory + "/explore.trellis"
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            for arguments in [["run", file], ["--socket", other.socketPath, "run", file]] {
                let run = trellisCombinedOutput(arguments)
                #expect(run.status == 0, "trellis \(arguments.joined(separator: " ")):\n\(run.output.suffix(3000))")
                #expect(!run.output.contains("not ok"))
            }
        }
    }
}
