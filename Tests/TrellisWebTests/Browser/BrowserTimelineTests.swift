import Foundation
import Testing
import TrellisCore
import TrellisProtocol

/// The page's timeline (timeline.js) in a real headless Chromium, over a recorded session with
/// a scroll animation and a mark: the bar shows while the session is recorded; a moment chosen
/// on the slider, a frame forward or back, a mark or the end of playing is drawn exactly as
/// `session.seek` gives it (cells where they were then, not where they are live) while live
/// frames go on arriving; `--control` input changes nothing in the past; "live" comes back to
/// the live scene; a recording that stops hides the bar.
@Suite(.serialized, .enabled(if: BrowserExecutable.isAvailable,
                              "no headless Chromium: install chromium-headless-shell (tools/test does) or set TRELLIS_CHROMIUM"))
struct BrowserTimelineTests {
    static let name = "past"

    /// Where each cell is drawn in the stage (its top left corner), by label, as the page shows it.
    static func pageCells(_ harness: BrowserHarness) async throws -> [String: [Double]] {
        let text = try await harness.page.evaluate("""
            JSON.stringify([...document.querySelectorAll('#stage div.view')].filter((el) => el.style.display !== 'none')
              .map((el) => [el.textContent, parseFloat(el.style.left), parseFloat(el.style.top)]))
            """).stringValue ?? "[]"
        var cells: [String: [Double]] = [:]
        for entry in try JSONParser.parse(text).arrayValue ?? [] {
            guard let label = entry.arrayValue?.first?.stringValue else { continue }
            cells[label] = entry.arrayValue?.dropFirst().compactMap(\.numberValue)
        }
        return cells
    }

    /// Where each cell of `scene` is in the bounds, by its label (the item id in capitals).
    static func sceneCells(_ scene: JSONValue) -> [String: [Double]] {
        let offset = scene["contentOffset"]?.arrayValue?.compactMap(\.numberValue) ?? [0, 0]
        var cells: [String: [Double]] = [:]
        for v in scene["views"]?.arrayValue ?? [] {
            guard v["element"]?["kind"] == .string("cell"), let label = v["data"]?["label"]?.stringValue,
                  let f = v["frame"]?.arrayValue?.compactMap(\.numberValue), f.count == 4 else { continue }
            cells[label] = [f[0] - offset[0], f[1] - offset[1]]
        }
        return cells
    }

    static func seek(_ harness: BrowserHarness, frame: Int) throws -> JSONValue {
        try harness.call("session.seek", ["session": .string(name), "atFrame": .number(Double(frame))])["scene"] ?? .null
    }

    /// Waits until the page shows frame `frame` of the past, with no seek left in flight.
    static func waitForPast(_ harness: BrowserHarness, frame: Int) async throws {
        _ = try await harness.page.waitUntil(
            "document.getElementById('stage').dataset.past === '\(frame)' && !window.trellisTimeline.seeking",
            timeout: 20, "the page to show frame \(frame) of the past")
    }

    /// The page shows `frame` as session.seek gives it, view by view, and says so.
    static func expectShows(_ harness: BrowserHarness, frame: Int, _ context: String) async throws -> JSONValue {
        let scene = try seek(harness, frame: frame)
        let mismatches = SceneComparison.mismatches(page: try await PageSnapshot.read(from: harness.page), scene: scene)
        #expect(mismatches.isEmpty, "\(context): \(mismatches.prefix(5))")
        let state = try await harness.page.evaluate("document.getElementById('timeline-state').textContent").stringValue ?? ""
        let seconds = String(format: "%.3f", Double(frame) / 60)
        #expect(state == "past \(seconds) s · frame \(frame) · read-only", "\(context): \(state)")
        #expect(try await harness.page.evaluate("document.getElementById('toolbar').querySelector('button').disabled") == .bool(true))
        #expect(try await harness.page.evaluate("document.getElementById('status-state').textContent") == .string("showing the past (read-only)"))
        return scene
    }

    static func click(_ harness: BrowserHarness, _ id: String) async throws {
        _ = try await harness.page.evaluate("document.getElementById('\(id)').click(); true")
    }

    @Test func theTimelineRevisitsThePastWhileTheSessionGoesOn() async throws {
        try await BrowserHarness.run(control: true, keepsState: true) { harness in
            let name = Self.name, s = JSONValue.string(name)
            try BrowserSessions.create(harness, name: name, layout: [
                "type": .string("flow"), "itemSize": .array([.number(100), .number(100)]),
            ], sections: [BrowserSessions.section("s0", items: 60, prefix: "c")])
            try harness.call("recording.start", ["session": s])
            try await harness.open(session: name)
            _ = try await harness.page.waitUntil("!document.getElementById('timeline').hidden", timeout: 20, "the timeline to show")

            // A linear scroll down 600 points over half a second, a mark where it ends, and a
            // scroll back up to 100 over the next half second: the live session ends at frame 60.
            let linear: [String: JSONValue] = ["animated": .bool(true), "duration": .number(0.5), "curve": .string("linear")]
            try harness.call("scroll.to", linear.merging(["session": s, "offset": .array([.number(0), .number(600)])]) { a, _ in a })
            try BrowserSessions.advance(harness, name, ms: 500)
            try harness.call("recording.mark", ["session": s, "label": .string("scrolled down")])
            try harness.call("scroll.to", linear.merging(["session": s, "offset": .array([.number(0), .number(100)])]) { a, _ in a })
            try BrowserSessions.advance(harness, name, ms: 500)
            try await harness.waitForPage(session: name)
            let info = try harness.call("recording.info", ["session": s])
            let lastFrame = Int(info["lastFrame"]?.numberValue ?? -1)
            let mark = try #require(info["marks"]?.arrayValue?.first)
            let markFrame = Int(mark["frame"]?.numberValue ?? -1)
            #expect(lastFrame == 60 && markFrame == 30, "\(info)")
            _ = try await harness.page.waitUntil("window.trellisTimeline.info && window.trellisTimeline.info.lastFrame === \(lastFrame)",
                                                 timeout: 20, "the timeline to reach frame \(lastFrame)")
            let live = try harness.call("query.scene", ["session": s])
            #expect(try await Self.pageCells(harness) == Self.sceneCells(live))

            // The slider to frame 10: a third of the way down, cells where they were then.
            _ = try await harness.page.evaluate("""
                (() => { const e = document.getElementById('timeline-slider'); e.value = '10'; e.dispatchEvent(new Event('input')); return true; })()
                """)
            try await Self.waitForPast(harness, frame: 10)
            let ten = try await Self.expectShows(harness, frame: 10, "frame 10")
            #expect(ten["contentOffset"] == .array([.number(0), .number(200)]))
            let cellsAtTen = try await Self.pageCells(harness)
            #expect(cellsAtTen == Self.sceneCells(ten))
            #expect(cellsAtTen != Self.sceneCells(live) && !cellsAtTen.isEmpty, "the past differs from the live")

            // A frame forward and back: the scroll moves 20 points a frame.
            try await Self.click(harness, "timeline-forward")
            try await Self.waitForPast(harness, frame: 11)
            let eleven = try await Self.expectShows(harness, frame: 11, "frame 11")
            #expect(eleven["contentOffset"] == .array([.number(0), .number(220)]))
            #expect(try await Self.pageCells(harness) != cellsAtTen)
            try await Self.click(harness, "timeline-back")
            try await Self.waitForPast(harness, frame: 10)
            #expect(try await Self.pageCells(harness) == cellsAtTen)

            // The mark, from the list that names it.
            let options = try await harness.page.evaluate("[...document.getElementById('timeline-marks').options].map((o) => o.textContent)")
            #expect(options.arrayValue?.contains(.string("scrolled down · 0.500 s · frame 30")) == true, "\(options)")
            _ = try await harness.page.evaluate("""
                (() => { const e = document.getElementById('timeline-marks'); e.value = '\(markFrame)'; e.dispatchEvent(new Event('change')); return true; })()
                """)
            try await Self.waitForPast(harness, frame: markFrame)
            let atMark = try await Self.expectShows(harness, frame: markFrame, "the mark")
            #expect(atMark["contentOffset"] == .array([.number(0), .number(600)]))
            // The page in the past, for a person to look at (web-timeline.png in the test artefacts).
            let picture = try await harness.page.screenshot()
            try Data(picture).write(to: BrowserHarness.artefactDirectory().appendingPathComponent("web-timeline.png"))

            // The live session goes on: its frames arrive (the page's seq follows) and are not
            // drawn; a drag on the stage in the past changes nothing.
            try harness.call("scroll.to", ["session": s, "offset": .array([.number(0), .number(300)])])
            try BrowserSessions.advance(harness, name, ms: 100)
            try await harness.waitForPage(session: name)
            #expect(try await Self.pageCells(harness) == Self.sceneCells(atMark))
            let stage = try await BrowserControlTests.stageOrigin(harness)
            try await harness.page.drag(from: PagePoint(x: stage.x + 180, y: stage.y + 500),
                                        to: PagePoint(x: stage.x + 180, y: stage.y + 300), steps: 8, duration: 0.8)
            try await harness.page.click(at: PagePoint(x: stage.x + 50, y: stage.y + 50))
            try await BrowserControlTests.waitForReplies(harness)
            let untouched = try harness.call("session.info", ["session": s])
            #expect(untouched["scroll"]?["contentOffset"] == .array([.number(0), .number(300)]))
            #expect(untouched["selected"]?.arrayValue?.isEmpty ?? true, "\(untouched)")
            try await Self.waitForPast(harness, frame: markFrame)

            // Play from the mark, then pause: whatever frame it stopped at is drawn as it was.
            try await Self.click(harness, "timeline-play")
            _ = try await harness.page.waitUntil("window.trellisTimeline.shown > \(markFrame + 2)", timeout: 20, "playing to move on")
            if try await harness.page.evaluate("window.trellisTimeline.playing") == .bool(true) {
                try await Self.click(harness, "timeline-play")
            }
            _ = try await harness.page.waitUntil("!window.trellisTimeline.playing && !window.trellisTimeline.seeking",
                                                 timeout: 20, "playing to stop")
            let stopped = Int(try await harness.page.evaluate("window.trellisTimeline.shown").numberValue ?? -1)
            #expect(stopped > markFrame + 2 && stopped <= lastFrame + 6, "\(stopped)")
            _ = try await Self.expectShows(harness, frame: stopped, "where playing stopped")

            // Live again: the live scene, drawn, and driving again.
            try await Self.click(harness, "timeline-live")
            _ = try await harness.page.waitUntil("!('past' in document.getElementById('stage').dataset) && !window.trellisMirror.past",
                                                 timeout: 20, "the page to be live")
            let back = try await harness.compare(session: name)
            #expect(back.mismatches.isEmpty, "\(back.mismatches.prefix(5))")
            #expect(back.scene["contentOffset"] == .array([.number(0), .number(300)]))
            #expect(try await harness.page.evaluate("document.getElementById('timeline-state').textContent.startsWith('live')") == .bool(true))
            #expect(try await harness.page.evaluate("document.getElementById('toolbar').querySelector('button').disabled") == .bool(false))
            #expect(try await harness.page.evaluate("document.getElementById('status-state').textContent") == .string("watching and driving"))

            // No recording, no timeline.
            try harness.call("recording.stop", ["session": s])
            _ = try await harness.page.waitUntil("document.getElementById('timeline').hidden", timeout: 20, "the timeline to hide")
        }
    }
}
