import Foundation
import Testing
import TrellisCore
import TrellisProtocol

/// A screenshot of a carousel in the page, written as a test artefact and checked to show the
/// carousel's coloured cells; and the same check refusing a screenshot of an empty stage, so
/// it is known to be able to fail.
@Suite(.serialized, .enabled(if: BrowserExecutable.isAvailable,
                              "no headless Chromium: install chromium-headless-shell (tools/test does) or set TRELLIS_CHROMIUM"))
struct BrowserScreenshotTests {
    static let white = RGB(hex: "#ffffff")!
    static let palette = BrowserSessions.palette.map { RGB(hex: $0)! }

    /// A rotary carousel of twelve coloured cards, the way the README shows it.
    static let rotary: [String: JSONValue] = [
        "type": .string("carousel"), "style": .string("rotary"), "itemSize": .array([.number(100), .number(130)]),
        // The eye above the ring's plane, so the cards at the back show above those in front
        // (iCarousel moves the whole ring down by the offset, and the back converges on the centre).
        "viewpointOffset": .array([.number(0), .number(-90)]),
    ]
    /// A landscape stage that frames the ring.
    static let bounds = (560.0, 340.0)

    /// The stage's box in the viewport, which is what a screenshot of it clips to.
    static func stageBox(_ page: BrowserPage) async throws -> (x: Double, y: Double, width: Double, height: Double) {
        let box = try await page.evaluate("(() => { const r = document.getElementById('stage').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")
        guard let numbers = box.arrayValue?.compactMap(\.numberValue), numbers.count == 4 else {
            throw WebTestFailure("no box for #stage: \(box)")
        }
        return (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// With `--control`, so the picture (the README's) shows the page's toolbar too.
    @Test func aCarouselScreenshotShowsItsCells() async throws {
        try await BrowserHarness.run(control: true) { harness in
            try BrowserSessions.create(harness, name: "carousel", layout: Self.rotary, sections: [
                BrowserSessions.section("s0", items: 12, prefix: "card"),
            ], bounds: Self.bounds)
            // Turned a little off an item, so the ring shows from an angle rather than head-on.
            try harness.call("scroll.to", ["session": .string("carousel"), "offset": .array([.number(1.3 * 100), .number(0)])])
            try await harness.open(session: "carousel")
            let shown = try await harness.compare(session: "carousel")
            #expect(shown.mismatches == [])

            _ = try await harness.page.waitUntil("!document.getElementById('toolbar').hidden", timeout: 20, "the toolbar")
            let box = try await Self.stageBox(harness.page)
            let png = try await harness.page.screenshot(clip: box)
            let file = try BrowserHarness.artefactDirectory().appendingPathComponent("web-carousel-stage.png")
            try Data(png).write(to: file)
            #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "not a PNG")
            // The page as a person sees it (status bar, toolbar, stage): the README's picture.
            let page = try await harness.page.screenshot(clip: (0, 0, box.x * 2 + box.width, box.y + box.height + 16))
            try Data(page).write(to: BrowserHarness.artefactDirectory().appendingPathComponent("web-carousel.png"))
            #expect(page.count > png.count)

            // The colours of the cards on screen, opaque and not hidden; cards behind others may
            // be covered, so half of them must show.
            let visible = (shown.scene["views"]?.arrayValue ?? []).filter {
                $0["hidden"] != .bool(true) && ($0["alpha"]?.numberValue ?? 1) >= 0.999
            }.compactMap { $0["data"]?["color"]?.stringValue.flatMap(RGB.init(hex:)) }
            #expect(visible.count >= 8, "only \(visible.count) cards on screen")
            let pixels = try await ScreenshotPixels.analyse(png, background: Self.white, colours: Self.palette, in: harness.page)
            #expect(pixels.width == 560 && pixels.height == 340, "the screenshot is \(pixels.width)×\(pixels.height)")
            let problems = pixels.blankness(expected: visible, minimumColours: max(1, visible.count / 2))
            #expect(problems == [], "\(file.path): \(problems); counts \(pixels.near)")
            #expect(pixels.distinctColours >= 12)
            // The card in front is drawn last and nothing covers it: most of its box shows.
            if let front = shown.scene["views"]?.arrayValue?.last?["data"]?["color"]?.stringValue.flatMap(RGB.init(hex:)) {
                #expect((pixels.near[front] ?? 0) >= 100 * 130 / 2, "the front card \(front): \(pixels.near[front] ?? 0) pixels")
            }
        }
    }

    /// The check used above, on a stage with nothing on it: it must say so.
    @Test func theCheckRefusesABlankStage() async throws {
        try await BrowserHarness.run { harness in
            try BrowserSessions.create(harness, name: "empty", layout: Self.rotary, sections: [])
            try await harness.open(session: "empty")
            let box = try await Self.stageBox(harness.page)
            let png = try await harness.page.screenshot(clip: box)
            let pixels = try await ScreenshotPixels.analyse(png, background: Self.white, colours: Self.palette, in: harness.page)
            #expect(pixels.width == 375 && pixels.height == 812)
            #expect(pixels.nonBackground == 0)
            #expect(pixels.blankness(expected: Self.palette, minimumColours: 6).count == 2)
        }
    }
}
