import Testing
import TrellisCore
import TrellisProtocol

/// The page's live chart (chart.js) in a real headless Chromium: it follows the selected item,
/// its samples are where the item is drawn at each frame's time (as `dynamics.item` reports
/// it), the line is drawn on the canvas, speed is the centre's rate of change, and a change of
/// selection starts a new chart.
@Suite(.serialized, .enabled(if: BrowserExecutable.isAvailable,
                              "no headless Chromium: install chromium-headless-shell (tools/test does) or set TRELLIS_CHROMIUM"))
struct BrowserChartTests {
    static let flow: [String: JSONValue] = ["type": .string("flow"), "itemSize": .array([.number(100), .number(100)])]

    /// Where item `id` is drawn now: `dynamics.item`'s centre (for an element no behaviour
    /// moves, where it is drawn).
    static func centre(_ harness: BrowserHarness, _ id: String) throws -> (x: Double, y: Double) {
        let item = try harness.call("dynamics.item", ["session": .string("chart"), "element": .string(id)])
        let c = item["center"]?.arrayValue ?? []
        return (c.first?.numberValue ?? .nan, c.last?.numberValue ?? .nan)
    }

    static func series(_ harness: BrowserHarness) async throws -> [[Double]] {
        let text = try await harness.page.evaluate("JSON.stringify(window.trellisChart.series())").stringValue ?? "[]"
        guard case .array(let points) = try JSONParser.parse(text) else { return [] }
        return points.map { ($0.arrayValue ?? []).compactMap(\.numberValue) }
    }

    @Test func theChartFollowsTheSelectedItemFrameByFrame() async throws {
        try await BrowserHarness.run { harness in
            try BrowserSessions.create(harness, name: "chart", layout: Self.flow, sections: [BrowserSessions.section("s0", items: 12, prefix: "a")])
            try harness.call("select", ["session": .string("chart"), "at": .array([.number(0), .number(2)])])
            try await harness.open(session: "chart")
            _ = try await harness.page.waitUntil("window.trellisMirror.selected.has('a2')", timeout: 10, "the page to know the selection")
            _ = try await harness.page.evaluate("document.getElementById('chart-toggle').click(); true")
            #expect(try await harness.page.evaluate("document.getElementById('chart').hidden") == .bool(false))

            // a2 moves to the end of the section, linearly over 0.5 s; a frame every 100 ms.
            try harness.call("batch", ["session": .string("chart"), "duration": .number(0.5), "curve": .string("linear"),
                                       "ops": .array([.object(["op": .string("moveItem"), "from": .array([.number(0), .number(2)]),
                                                               "to": .array([.number(0), .number(9)])])])])
            var expected: [(t: Double, y: Double)] = []
            try await harness.waitForPage(session: "chart")
            expected.append((0, try Self.centre(harness, "a2").y))
            for step in 1...5 {
                try BrowserSessions.advance(harness, "chart", ms: 100)
                try await harness.waitForPage(session: "chart")
                expected.append((Double(step) / 10, try Self.centre(harness, "a2").y))
            }
            #expect(try await harness.page.evaluate("window.trellisChart.following") == .string("a2"))
            let plotted = try await Self.series(harness).suffix(expected.count)
            #expect(plotted.count == expected.count)
            for (point, want) in zip(plotted, expected) {
                #expect(abs(point[0] - want.t) < 1e-9 && abs(point[1] - want.y) < 1e-9, "\(point) vs \(want)")
            }
            // It moved down the column (row 0 to row 4 of a 3-wide flow), so the line rises.
            #expect(expected.last!.y > expected.first!.y + 300)
            #expect(try await harness.page.evaluate("document.getElementById('chart-caption').textContent") == .string("a2 center.y (pt)"))
            // The line is on the canvas: pixels of its colour (#4e79a7).
            let drawn = try await harness.page.evaluate("""
                (() => { const c = document.getElementById('chart-canvas');
                  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
                  for (let i = 0; i < d.length; i += 4) if (d[i] < 130 && d[i + 1] > 90 && d[i + 1] < 150 && d[i + 2] > 140) n++;
                  return n; })()
                """).numberValue ?? 0
            #expect(drawn > 40, "\(drawn) pixels of the line")

            // Speed: the centre's rate of change between frames, constant on a linear move.
            _ = try await harness.page.evaluate("""
                (() => { const s = document.getElementById('chart-property'); s.value = 'speed'; s.dispatchEvent(new Event('change')); return true; })()
                """)
            let speeds = try await Self.series(harness).suffix(5).map { $0[1] }
            #expect(speeds.count == 5 && speeds.allSatisfy { abs($0 - speeds[0]) < 1e-6 && $0 > 500 }, "\(speeds)")

            // Another selection: a new chart for it; none: the caption says what to do.
            try harness.call("select", ["session": .string("chart"), "at": .array([.number(0), .number(0)])])
            try BrowserSessions.advance(harness, "chart", ms: 100)
            try await harness.waitForPage(session: "chart")
            _ = try await harness.page.waitUntil("window.trellisChart.following === 'a0'", timeout: 10, "the chart to follow a0")
            try harness.call("deselect", ["session": .string("chart"), "all": .bool(true)])
            _ = try await harness.page.waitUntil("window.trellisMirror.selected.size === 0", timeout: 10, "the page to see the deselection")
            try harness.call("batch", ["session": .string("chart"), "animated": .bool(false), "ops": .array([
                .object(["op": .string("moveItem"), "from": .array([.number(0), .number(0)]), "to": .array([.number(0), .number(1)])])])])
            try await harness.waitForPage(session: "chart")
            #expect(try await harness.page.evaluate("document.getElementById('chart-caption').textContent") == .string("select an item to chart it"))
        }
    }
}
