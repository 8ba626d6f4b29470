import Testing
import TrellisCore
import TrellisProtocol

/// A real headless Chromium loads the viewer page for a session, and every view element's box,
/// transform, opacity, visibility and stacking, as the browser computed them, match
/// `query.scene` after batches, mid-animation and through a layout change to a carousel.
/// Serialized: each test runs its own browser, and two at once on a small machine only make
/// each other slow.
@Suite(.serialized, .enabled(if: BrowserExecutable.isAvailable,
                              "no headless Chromium: install chromium-headless-shell (tools/test does) or set TRELLIS_CHROMIUM"))
struct BrowserMirrorTests {
    /// A flow layout with a header and a section background, so supplementary and decoration
    /// views (zIndex −1, drawn first) are stacked too.
    static let flow: [String: JSONValue] = [
        "type": .string("flow"), "itemSize": .array([.number(100), .number(100)]),
        "headerSize": .array([.number(0), .number(40)]), "sectionBackground": .bool(true),
    ]

    /// The keyframe, a batch of inserts and deletes landing at once, a scroll (every element
    /// then sits at its frame minus the new offset), and an animated batch at its end.
    @Test func aBatchShowsAsTheScene() async throws {
        try await BrowserHarness.run { harness in
            try BrowserSessions.create(harness, name: "batch", layout: Self.flow, sections: [
                BrowserSessions.section("s0", items: 8, prefix: "a"),
                BrowserSessions.section("s1", items: 8, prefix: "b"),
            ])
            try await harness.open(session: "batch")
            let keyframe = try await harness.compare(session: "batch")
            #expect(keyframe.mismatches == [], "the keyframe")
            #expect((keyframe.scene["views"]?.arrayValue?.count ?? 0) > 10)

            try harness.call("batch", [
                "session": .string("batch"), "animated": .bool(false),
                "ops": .array([
                    .object(["op": .string("deleteItems"), "at": BrowserSessions.indexPaths([(0, 5), (1, 2)])]),
                    .object(["op": .string("insertItems"), "at": BrowserSessions.indexPaths([(0, 0), (0, 3)]),
                             "items": .array([BrowserSessions.item("n0", colour: 9), BrowserSessions.item("n1", colour: 10)])]),
                ]),
            ])
            let batched = try await harness.compare(session: "batch")
            #expect(batched.mismatches == [], "after the batch")
            let ids = (batched.scene["views"]?.arrayValue ?? []).compactMap { $0["element"]?["id"]?.stringValue }
            #expect(ids.contains("n0") && ids.contains("n1") && !ids.contains("a5"))

            try harness.call("scroll.to", ["session": .string("batch"), "offset": .array([.number(0), .number(333.5)])])
            let scrolled = try await harness.compare(session: "batch")
            #expect(scrolled.mismatches == [], "after scrolling")
            #expect(scrolled.scene["contentOffset"] == .array([.number(0), .number(333.5)]))

            try harness.call("batch", [
                "session": .string("batch"),
                "ops": .array([
                    .object(["op": .string("deleteItems"), "at": BrowserSessions.indexPaths([(1, 0)])]),
                    .object(["op": .string("insertItems"), "at": BrowserSessions.indexPaths([(1, 1)]),
                             "items": .array([BrowserSessions.item("n2", colour: 11)])]),
                ]),
            ])
            try BrowserSessions.advance(harness, "batch", ms: 1000)
            let settled = try await harness.compare(session: "batch")
            #expect(settled.mismatches == [], "after an animated batch ended")
        }
    }

    /// An animated batch (inserts fade in, a delete fades out, the rest move) compared part
    /// way through on the manual clock, twice, and once it has ended.
    @Test func midAnimationShowsAsTheScene() async throws {
        try await BrowserHarness.run { harness in
            try BrowserSessions.create(harness, name: "anim", layout: Self.flow, sections: [
                BrowserSessions.section("s0", items: 10, prefix: "a"),
            ])
            try await harness.open(session: "anim")
            #expect(try await harness.compare(session: "anim").mismatches == [], "the keyframe")

            try harness.call("batch", [
                "session": .string("anim"), "duration": .number(0.4), "curve": .string("easeInEaseOut"),
                "ops": .array([
                    .object(["op": .string("deleteItems"), "at": BrowserSessions.indexPaths([(0, 4)])]),
                    .object(["op": .string("insertItems"), "at": BrowserSessions.indexPaths([(0, 1)]),
                             "items": .array([BrowserSessions.item("n0", colour: 7)])]),
                    .object(["op": .string("moveItem"), "from": .array([.number(0), .number(8)]), "to": .array([.number(0), .number(0)])]),
                ]),
            ])
            for (step, ms) in [100.0, 150.0].enumerated() {
                try BrowserSessions.advance(harness, "anim", ms: ms)
                let mid = try await harness.compare(session: "anim")
                #expect(mid.mismatches == [], "mid-animation, step \(step)")
                // The comparison is only worth something if the scene really is part way.
                #expect(BrowserSessions.somethingFades(mid.scene), "nothing fades at step \(step): the batch already ended")
            }
            try BrowserSessions.advance(harness, "anim", ms: 1000)
            let end = try await harness.compare(session: "anim")
            #expect(end.mismatches == [], "after the animation")
            #expect(!BrowserSessions.somethingFades(end.scene))
        }
    }

    /// An animated `layout.set` from the flow to a carousel, compared mid-transition and at
    /// rest, then an animated scroll through the carousel (its transforms follow the offset),
    /// mid-way and at rest.
    @Test(arguments: [
        ["type": "carousel", "style": "rotary"],
        ["type": "carousel", "style": "cylinder"],
        ["type": "carousel", "style": "invertedCylinder"],
        ["type": "carousel", "style": "coverFlow"],
        ["type": "coverFlow"],
    ] as [[String: String]])
    func aLayoutChangeToACarouselShowsAsTheScene(_ carousel: [String: String]) async throws {
        try await BrowserHarness.run { harness in
            try BrowserSessions.create(harness, name: "change", layout: Self.flow, sections: [
                BrowserSessions.section("s0", items: 12, prefix: "c"),
            ])
            try await harness.open(session: "change")
            #expect(try await harness.compare(session: "change").mismatches == [], "the keyframe")

            var layout = carousel.mapValues { JSONValue.string($0) }
            layout["itemSize"] = .array([.number(120), .number(160)])
            try harness.call("layout.set", [
                "session": .string("change"), "layout": .object(layout),
                "animated": .bool(true), "duration": .number(0.5), "curve": .string("linear"),
            ])
            var scenes: [JSONValue] = []
            for ms in [100.0, 150.0, 1000.0] {
                try BrowserSessions.advance(harness, "change", ms: ms)
                let step = try await harness.compare(session: "change")
                #expect(step.mismatches == [], "\(carousel) after another \(ms) ms")
                scenes.append(step.scene)
            }
            // Part way is neither end, and the carousel at rest turns its items.
            #expect(scenes[0]["views"] != scenes[2]["views"] && scenes[1]["views"] != scenes[2]["views"])
            #expect(BrowserSessions.transformed(scenes[2]) > 0, "\(carousel) at rest transforms nothing")
            if carousel["style"] == "invertedCylinder" {
                // Backfaces are hidden while the cards turn in: the case that has `hidden` views
                // on screen, so visibility: hidden is compared for real.
                let hidden = (scenes[0]["views"]?.arrayValue ?? []).filter { $0["hidden"] == .bool(true) }
                #expect(!hidden.isEmpty, "no hidden view mid-transition")
            }

            try harness.call("scroll.toItem", [
                "session": .string("change"), "at": BrowserSessions.indexPaths([(0, 4)]).arrayValue![0],
                "position": .string("centeredHorizontally"), "animated": .bool(true), "duration": .number(0.4), "curve": .string("linear"),
            ])
            try BrowserSessions.advance(harness, "change", ms: 150)
            let scrolling = try await harness.compare(session: "change")
            #expect(scrolling.mismatches == [], "\(carousel) mid-scroll")
            try BrowserSessions.advance(harness, "change", ms: 1000)
            let rest = try await harness.compare(session: "change")
            #expect(rest.mismatches == [], "\(carousel) after the scroll")
            #expect(scrolling.scene["contentOffset"] != rest.scene["contentOffset"])
        }
    }
    /// The comparison itself can fail: with the page in step with the scene, each element
    /// altered in one property by a script is reported for that property and no other view is.
    @Test func theComparisonSeesATamperedPage() async throws {
        try await BrowserHarness.run { harness in
            try BrowserSessions.create(harness, name: "tamper", layout: Self.flow, sections: [
                BrowserSessions.section("s0", items: 9, prefix: "t"),
            ])
            try await harness.open(session: "tamper")
            let clean = try await harness.compare(session: "tamper")
            #expect(clean.mismatches == [])
            // Cells in drawing order (the decoration and header come first, at zIndex −1 and 0).
            let cells = (clean.scene["views"]?.arrayValue ?? []).filter { $0["element"]?["kind"] == .string("cell") }
                .compactMap { $0["view"]?.numberValue.map { Int($0) } }
            try #require(cells.count >= 7)
            let changes: [(view: Int, script: String, reported: String)] = [
                (cells[0], "el.style.left = (parseFloat(el.style.left) + 0.01) + 'px'", "left"),
                (cells[1], "el.style.height = (parseFloat(el.style.height) - 0.01) + 'px'", "height"),
                (cells[2], "el.style.transform = 'translateX(0.5px)'", "transform"),
                (cells[3], "el.style.opacity = '0.5'", "opacity"),
                (cells[4], "el.style.visibility = 'hidden'", "visibility"),
                (cells[5], "el.style.zIndex = '-5'", "z-index"),
                (cells[6], "el.style.display = 'none'", "views shown"),
            ]
            for change in changes {
                _ = try await harness.page.evaluate("(() => { const el = document.querySelector('#stage div.view[data-view=\"\(change.view)\"]'); \(change.script); })()")
            }
            let tampered = try await harness.compare(session: "tamper").mismatches
            for change in changes {
                // A view no longer shown is named in the line about the set of views.
                let prefix = change.reported == "views shown" ? "views shown" : "view \(change.view) "
                #expect(tampered.contains { $0.hasPrefix(prefix) && $0.contains(change.reported) },
                        "\(change.reported) of view \(change.view) not reported: \(tampered)")
            }
            // Nothing else: one line per change, but the z-index one may name the next view too.
            let named = Set(changes.map(\.view))
            let others = tampered.filter { line in !named.contains { line.hasPrefix("view \($0) ") } && !line.hasPrefix("views shown") }
            #expect(others.allSatisfy { $0.contains("z-index") }, "\(others)")
        }
    }
}
