import Testing
import TrellisCore
import TrellisProtocol

/// trellis-web `--control` in a real browser: a mouse drag in the stage pans the session (a
/// quick one flings it), a click selects the cell under it, the toolbar's Insert inserts; and
/// without `--control` the same drag changes nothing.
@Suite(.serialized, .enabled(if: BrowserExecutable.isAvailable,
                              "no headless Chromium: install chromium-headless-shell (tools/test does) or set TRELLIS_CHROMIUM"))
struct BrowserControlTests {
    /// 40 cells of 100×100 in 375×812: about twice as tall as the view, so it scrolls.
    static func makeSession(_ harness: BrowserHarness, _ name: String) throws {
        try BrowserSessions.create(harness, name: name, layout: [
            "type": .string("flow"), "itemSize": .array([.number(100), .number(100)]),
        ], sections: [BrowserSessions.section("s0", items: 40, prefix: "c")])
    }

    /// The stage's top left corner in the page, so a test can aim at a point of the view.
    static func stageOrigin(_ harness: BrowserHarness) async throws -> PagePoint {
        let rect = try await harness.page.evaluate(
            "(() => { const r = document.getElementById('stage').getBoundingClientRect(); return [r.left, r.top]; })()")
        guard let xy = rect.arrayValue?.compactMap(\.numberValue), xy.count == 2 else { throw WebTestFailure("no stage: \(rect)") }
        return PagePoint(x: xy[0], y: xy[1])
    }

    static func scroll(_ harness: BrowserHarness, _ session: String) throws -> JSONValue {
        try harness.call("session.info", ["session": .string(session)])["scroll"] ?? .null
    }

    static func offsetY(_ scroll: JSONValue) -> Double? {
        scroll["contentOffset"]?.arrayValue?.last?.numberValue
    }

    /// Waits until the page attached read-write (the toolbar shows).
    static func waitForControls(_ harness: BrowserHarness) async throws {
        _ = try await harness.page.waitUntil(
            "window.trellisMirror && window.trellisMirror.attached && !window.trellisMirror.readOnly && !document.getElementById('toolbar').hidden",
            timeout: 20, "the page attached with controls")
    }

    /// Waits until the session has answered every request the page sent.
    static func waitForReplies(_ harness: BrowserHarness) async throws {
        _ = try await harness.page.waitUntil("window.trellisMirror.waiting === 0", timeout: 20, "the page's requests answered")
    }

    @Test func aDragPansAndAQuickOneFlings() async throws {
        try await BrowserHarness.run(control: true) { harness in
            try Self.makeSession(harness, "drag")
            try await harness.open(session: "drag")
            try await Self.waitForControls(harness)
            let stage = try await Self.stageOrigin(harness)

            // A slow drag up by 200 points that stops before the release: the content follows
            // the finger 1:1 and nothing flings (no velocity in the last 100 ms).
            try await harness.page.drag(from: PagePoint(x: stage.x + 180, y: stage.y + 600),
                                        to: PagePoint(x: stage.x + 180, y: stage.y + 400), steps: 8, duration: 0.8)
            try await Self.waitForReplies(harness)
            let slow = try Self.scroll(harness, "drag")
            #expect(Self.offsetY(slow) == 200, "\(slow)")
            #expect(slow["dragging"] == .bool(false))
            #expect(try await harness.compare(session: "drag").mismatches == [])

            // A quick flick up by 150 points in 0.1 s (1,500 pt/s): released with that velocity,
            // the offset decelerates past where the finger left it.
            try await harness.page.drag(from: PagePoint(x: stage.x + 180, y: stage.y + 500),
                                        to: PagePoint(x: stage.x + 180, y: stage.y + 350), steps: 5, duration: 0.1)
            try await Self.waitForReplies(harness)
            let released = try Self.scroll(harness, "drag")
            #expect(Self.offsetY(released) == 350, "\(released)")
            #expect(released["decelerating"] == .bool(true), "\(released)")
            let velocity = released["velocity"]?.arrayValue?.last?.numberValue ?? 0
            #expect(velocity > 1000 && velocity < 2000, "the release velocity in content-offset terms: \(velocity)")
            try BrowserSessions.advance(harness, "drag", ms: 200)
            let moving = try Self.scroll(harness, "drag")
            #expect((Self.offsetY(moving) ?? 0) > 400, "\(moving)")
            // The page shows the fling as the server has it, and says it decelerates.
            #expect(try await harness.compare(session: "drag").mismatches == [])
            let motion = try await harness.page.evaluate("document.getElementById('status-motion').textContent")
            #expect(motion == .string("decelerating"))
        }
    }

    /// Five notches of a mouse wheel down (40 points each, 16 ms apart by their timestamps) over
    /// the stage, then waits until the page's pan ended and the session decelerates.
    static func turnWheel(_ harness: BrowserHarness) async throws {
        let stage = try await stageOrigin(harness)
        let origin = try await harness.page.evaluate("Date.now() / 1000").numberValue ?? 0
        for n in 0..<5 {
            _ = try await harness.page.send("Input.dispatchMouseEvent", [
                "type": .string("mouseWheel"), "x": .number(stage.x + 180), "y": .number(stage.y + 400),
                "deltaX": .number(0), "deltaY": .number(40), "timestamp": .number(origin + Double(n) * 0.016),
            ])
        }
        _ = try await harness.page.waitUntil(
            "window.trellisMirror.waiting === 0 && !window.trellisMirror.motion.dragging && window.trellisMirror.motion.decelerating",
            timeout: 20, "the wheel's pan ended and flung")
    }

    /// A run of wheel events is one pan: 5 notches of 40 points, 16 ms apart, scroll the
    /// content up by 200 and, ended 120 ms after the last with their speed, fling it on.
    @Test func theWheelPansAndFlings() async throws {
        try await BrowserHarness.run(control: true) { harness in
            try Self.makeSession(harness, "wheel")
            try await harness.open(session: "wheel")
            try await Self.waitForControls(harness)
            try await Self.turnWheel(harness)
            let released = try Self.scroll(harness, "wheel")
            #expect(Self.offsetY(released) == 200, "\(released)")
            #expect(released["decelerating"] == .bool(true), "\(released)")
            try BrowserSessions.advance(harness, "wheel", ms: 200)
            #expect((Self.offsetY(try Self.scroll(harness, "wheel")) ?? 0) > 250)
            #expect(try await harness.compare(session: "wheel").mismatches == [])
        }
    }

    /// A mouse wheel turns only vertically: over content that scrolls only across (Apple's
    /// Line layout, one row), the same notches scroll it across.
    @Test func theWheelScrollsAcrossWhatOnlyScrollsAcross() async throws {
        try await BrowserHarness.run(control: true) { harness in
            try BrowserSessions.create(harness, name: "row", layout: ["type": .string("line")],
                                       sections: [BrowserSessions.section("s0", items: 20, prefix: "r")])
            try await harness.open(session: "row")
            try await Self.waitForControls(harness)
            try await Self.turnWheel(harness)
            let offset = try Self.scroll(harness, "row")["contentOffset"]?.arrayValue?.compactMap(\.numberValue)
            #expect(offset == [200, 0], "\(String(describing: offset))")
        }
    }

    @Test func aClickSelectsAndTheToolbarInserts() async throws {
        try await BrowserHarness.run(control: true) { harness in
            try Self.makeSession(harness, "tap")
            try await harness.open(session: "tap")
            try await Self.waitForControls(harness)
            let stage = try await Self.stageOrigin(harness)

            // (150, 250) in the view is in the second cell of the third row (three a row, rows 110 apart): c7.
            try await harness.page.click(at: PagePoint(x: stage.x + 150, y: stage.y + 250))
            _ = try await harness.page.waitUntil(
                "document.querySelectorAll('.view.selected').length === 1", timeout: 20, "a selected cell outlined")
            let selected = try await harness.page.evaluate("[...window.trellisMirror.selected]")
            #expect(selected == .array([.string("c7")]))
            let outlined = try await harness.page.evaluate("document.querySelector('.view.selected').textContent")
            #expect(outlined == .string("C7"))
            // A click is a tap, not a pan: the offset did not move.
            #expect(Self.offsetY(try Self.scroll(harness, "tap")) == 0)

            let insert = try await harness.page.evaluate(
                "(() => { const r = document.querySelector('button[data-action=insert]').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
            let xy = insert.arrayValue?.compactMap(\.numberValue) ?? []
            try #require(xy.count == 2)
            try await harness.page.click(at: PagePoint(x: xy[0], y: xy[1]))
            try await Self.waitForReplies(harness)
            let info = try harness.call("session.info", ["session": .string("tap")])
            #expect(info["items"] == .number(41))
            try BrowserSessions.advance(harness, "tap", ms: 1000)
            #expect(try await harness.compare(session: "tap").mismatches == [])
        }
    }

    /// Two pages on one session, one driving and one watching, with trellisd's own viewer
    /// count: after a fling, mid-deceleration, and a batch, both show the server's scene.
    @Test func twoPagesOnOneSessionAgree() async throws {
        try await BrowserHarness.run(control: true) { harness in
            try Self.makeSession(harness, "both")
            try await harness.open(session: "both")
            try await Self.waitForControls(harness)
            let other = try await BrowserPage.open(in: harness.devTools, width: BrowserHarness.viewport.width,
                                                   height: BrowserHarness.viewport.height)
            try await other.navigate(to: harness.url(session: "both"))
            _ = try await other.waitUntil("window.trellisMirror && window.trellisMirror.attached", timeout: 20, "the second page attached")
            let viewers = try harness.call("session.info", ["session": .string("both")])["viewers"]
            #expect(viewers == .number(2))

            /// Both pages at the session's seq, each compared with query.scene.
            func bothAgree(_ when: String) async throws {
                let mine = try await harness.compare(session: "both")
                #expect(mine.mismatches == [], "the driving page, \(when)")
                let seq = try harness.seq(of: "both")
                _ = try await other.waitUntil("document.getElementById('stage').dataset.seq === '\(seq)'", timeout: 20,
                                              "the second page at seq \(seq)")
                let theirs = SceneComparison.mismatches(page: try await PageSnapshot.read(from: other), scene: mine.scene)
                #expect(theirs == [], "the watching page, \(when)")
            }

            let stage = try await Self.stageOrigin(harness)
            try await harness.page.drag(from: PagePoint(x: stage.x + 180, y: stage.y + 500),
                                        to: PagePoint(x: stage.x + 180, y: stage.y + 350), steps: 5, duration: 0.1)
            try await Self.waitForReplies(harness)
            try await bothAgree("after the release")
            try BrowserSessions.advance(harness, "both", ms: 150)
            try await bothAgree("mid-deceleration")
            try harness.call("batch", ["session": .string("both"), "ops": .array([
                .object(["op": .string("deleteItems"), "at": BrowserSessions.indexPaths([(0, 5), (0, 6)])]),
            ])])
            try BrowserSessions.advance(harness, "both", ms: 100)
            try await bothAgree("mid-batch")
            try BrowserSessions.advance(harness, "both", ms: 5000)
            try await bothAgree("at rest")
        }
    }

    /// The layout picker shows the session's layout: when another client changes it, and when
    /// the page itself picks one (which switches the session to it).
    @Test func theLayoutPickerFollowsTheSession() async throws {
        try await BrowserHarness.run(control: true) { harness in
            try Self.makeSession(harness, "pick")
            try await harness.open(session: "pick")
            try await Self.waitForControls(harness)
            let picked = "document.getElementById('layout-choice').value"
            _ = try await harness.page.waitUntil("\(picked) === 'flow'", timeout: 20, "the picker shows the flow")
            // Elsewhere: an animated change to the circle, then one at once to a carousel.
            try harness.call("layout.set", ["session": .string("pick"), "layout": .object(["type": .string("circle")]),
                                            "animated": .bool(true), "duration": .number(0.3)])
            try BrowserSessions.advance(harness, "pick", ms: 400)
            _ = try await harness.page.waitUntil("\(picked) === 'circle'", timeout: 20, "the picker follows to the circle")
            try harness.call("layout.set", ["session": .string("pick"), "layout": .object(["type": .string("carousel")])])
            _ = try await harness.page.waitUntil(
                "\(picked) === 'carousel' && document.getElementById('status-layout').textContent === 'carousel'",
                timeout: 20, "the picker and the status bar follow to the carousel")
            // The page picks the line: the session switches to it.
            _ = try await harness.page.evaluate(
                "(() => { const c = document.getElementById('layout-choice'); c.value = 'line'; c.dispatchEvent(new Event('change')); })()")
            try await Self.waitForReplies(harness)
            #expect(try harness.call("session.info", ["session": .string("pick")])["layout"] == .string("line"))
            _ = try await harness.page.waitUntil("\(picked) === 'line'", timeout: 20, "the picker stays on the line")
        }
    }

    /// The picker's compositional layout has a band that scrolls across: a drag inside it
    /// moves the band, not the view, and the page holds each band's offset (`orthogonal`) and
    /// draws its cells where the server has them, whoever scrolled it.
    @Test func theCompositionalChoiceHasABandThatScrollsAcross() async throws {
        try await BrowserHarness.run(control: true) { harness in
            try Self.makeSession(harness, "bands")
            try await harness.open(session: "bands")
            try await Self.waitForControls(harness)
            _ = try await harness.page.evaluate(
                "(() => { const c = document.getElementById('layout-choice'); c.value = 'compositional'; c.dispatchEvent(new Event('change')); })()")
            try await Self.waitForReplies(harness)
            #expect(try harness.call("session.info", ["session": .string("bands")])["layout"] == .string("compositional"))
            // Another client scrolls the band: the page follows.
            try harness.call("scroll.to", ["session": .string("bands"), "section": .number(0), "offset": .number(100)])
            _ = try await harness.page.waitUntil("window.trellisMirror.orthogonal.get(0) === 100", timeout: 20, "the page holds the band's offset")
            #expect(try await harness.compare(session: "bands").mismatches == [])
            // The page's own drag inside the band (its top inset 12, its groups 1.5 sides high).
            let side = try await harness.page.evaluate(
                "(() => { const s = document.getElementById('stage'); return Math.max(40, Math.round(Math.min(s.clientWidth, s.clientHeight) / 5)); })()")
            let y = 12 + 0.75 * (side.numberValue ?? 40)
            let stage = try await Self.stageOrigin(harness)
            try await harness.page.drag(from: PagePoint(x: stage.x + 300, y: stage.y + y),
                                        to: PagePoint(x: stage.x + 150, y: stage.y + y), steps: 6, duration: 0.3)
            try await Self.waitForReplies(harness)
            try BrowserSessions.advance(harness, "bands", ms: 3000)
            let scene = try harness.call("query.scene", ["session": .string("bands")])
            let offset = scene["orthogonal"]?.arrayValue?.first?["offset"]?.numberValue ?? 0
            #expect(offset > 100, "the drag moved the band further across")
            #expect(Self.offsetY(try Self.scroll(harness, "bands")) == 0, "the view did not scroll")
            _ = try await harness.page.waitUntil("window.trellisMirror.orthogonal.get(0) === \(offset)", timeout: 20, "the page follows the drag")
            #expect(try await harness.compare(session: "bands").mismatches == [])
        }
    }

    /// The sample picker lists Apple's samples by name; picking one gives the session data shaped
    /// as its example reloads it and the layout from its example's file, so the session lays
    /// out exactly as one made from `examples/layouts/` by hand (compared attribute by attribute).
    @Test func theSamplePickerSetsAnExamplesLayoutAndData() async throws {
        try await BrowserHarness.run(control: true) { harness in
            try Self.makeSession(harness, "samples")
            try await harness.open(session: "samples")
            try await Self.waitForControls(harness)
            let names = try await harness.page.evaluate(
                "[...document.getElementById('sample-choice').options].filter((o) => o.value !== '').map((o) => o.text)")
            #expect(names.arrayValue?.count == 14)
            let everything: JSONValue = .array([.number(0), .number(0), .number(100_000), .number(100_000)])
            for (name, script) in [("Distinct Sections", "compositional-distinct-sections"), ("Orthogonal Sections", "compositional-orthogonal-sections"),
                                   ("List", "compositional-list")] {
                #expect(names.arrayValue?.contains(.string(name)) == true, "\(name) is not offered")
                _ = try await harness.page.evaluate("""
                    (() => { const c = document.getElementById('sample-choice');
                             c.value = [...c.options].find((o) => o.text === \(JSONWriter.string(.string(name)))).value;
                             c.dispatchEvent(new Event('change')); })()
                    """)
                try await Self.waitForReplies(harness)
                try BrowserSessions.advance(harness, "samples", ms: 1000)
                let expected = try PageSamplesTests.expected(script: script)
                let info = try harness.call("session.info", ["session": .string("samples")])
                #expect(info["layout"] == .string("compositional"))
                #expect(info["sections"]?.numberValue == Double(expected.items.count), "\(name): \(info)")
                #expect(info["items"]?.numberValue == Double(expected.items.reduce(0, +)), "\(name): \(info)")
                // The same layout and data by hand, in a session of the same size.
                let sections: [JSONValue] = expected.items.enumerated().map { s, count in
                    .object(["id": .string("sample-\(s)"), "items": .array((0..<count).map { i in .object(["id": .string("sample-\(s)-\(i)")]) })])
                }
                let reference = "by-hand-\(script)"
                guard case .object(let layout) = expected.layout else { throw WebTestFailure("\(script): a layout is an object") }
                try BrowserSessions.create(harness, name: reference, layout: layout, sections: sections)
                let shown = try harness.call("query.attributes", ["session": .string("samples"), "rect": everything])["attributes"]
                let byHand = try harness.call("query.attributes", ["session": .string(reference), "rect": everything])["attributes"]
                #expect((shown?.arrayValue?.count ?? 0) >= expected.items.reduce(0, +), "\(name): \(shown ?? .null)")
                #expect(shown == byHand, "\(name): the page's session does not lay out as examples/ says")
            }
        }
    }

    /// A page that attaches after an item was selected shows it selected (session.info says
    /// the selection; the selection.changed it missed came before it attached).
    @Test func aPageThatAttachesLateShowsTheSelection() async throws {
        try await BrowserHarness.run { harness in
            try Self.makeSession(harness, "late")
            try harness.call("select", ["session": .string("late"), "at": .array([.number(0), .number(4)])])
            try await harness.open(session: "late")
            _ = try await harness.page.waitUntil(
                "document.querySelectorAll('.view.selected').length === 1", timeout: 20, "the selected cell outlined")
            #expect(try await harness.page.evaluate("[...window.trellisMirror.selected]") == .array([.string("c4")]))
            #expect(try await harness.page.evaluate("document.querySelector('.view.selected').textContent") == .string("C4"))
        }
    }

    @Test func withoutControlADragChangesNothing() async throws {
        try await BrowserHarness.run { harness in
            try Self.makeSession(harness, "still")
            try await harness.open(session: "still")
            _ = try await harness.page.waitUntil("window.trellisMirror && window.trellisMirror.attached", timeout: 20, "attached")
            let stage = try await Self.stageOrigin(harness)
            let toolbarHidden = try await harness.page.evaluate("document.getElementById('toolbar').hidden")
            #expect(toolbarHidden == .bool(true))
            try await harness.page.drag(from: PagePoint(x: stage.x + 180, y: stage.y + 600),
                                        to: PagePoint(x: stage.x + 180, y: stage.y + 300), steps: 6, duration: 0.3)
            try await harness.page.click(at: PagePoint(x: stage.x + 150, y: stage.y + 250))
            let scroll = try Self.scroll(harness, "still")
            #expect(Self.offsetY(scroll) == 0)
            #expect(scroll["dragging"] == .bool(false))
            let selected = try await harness.page.evaluate("document.querySelectorAll('.view.selected').length")
            #expect(selected == .number(0))
        }
    }
}
