import Foundation
import Testing
import TrellisCore

/// The page helpers' mouse input reaches a page as pointer events where it was aimed: what a
/// test of the viewer's `--control` mode will rely on when it drags and clicks in the stage.
@Suite(.serialized, .enabled(if: BrowserExecutable.isAvailable,
                              "no headless Chromium: install chromium-headless-shell (tools/test does) or set TRELLIS_CHROMIUM"))
struct BrowserInputTests {
    /// A page that records every pointer event and click as {type, x, y, buttons, t}.
    static let recorder = "data:text/html," + """
    <body style="margin:0"><div style="width:600px;height:600px"></div><script>
    window.seen = [];
    for (const type of ['pointerdown', 'pointermove', 'pointerup', 'click'])
      document.addEventListener(type, e => seen.push({ type, x: e.clientX, y: e.clientY, buttons: e.buttons, t: e.timeStamp }));
    </script></body>
    """.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!

    struct Event: Equatable, CustomStringConvertible {
        var type: String
        var x: Double
        var y: Double
        var buttons: Int
        var t: Double
        var description: String { "\(type)(\(x), \(y), buttons \(buttons))" }
    }

    static func seen(_ page: BrowserPage) async throws -> [Event] {
        let value = try await page.evaluate("seen.splice(0)")
        return (value.arrayValue ?? []).map {
            Event(type: $0["type"]?.stringValue ?? "", x: $0["x"]?.numberValue ?? .nan, y: $0["y"]?.numberValue ?? .nan,
                  buttons: Int($0["buttons"]?.numberValue ?? -1), t: $0["t"]?.numberValue ?? .nan)
        }
    }

    @Test func clickAndDragArriveAsPointerEvents() async throws {
        try await BrowserHarness.run { harness in
            let page = harness.page
            try await page.navigate(to: Self.recorder)

            try await page.click(at: PagePoint(x: 50, y: 60))
            let click = try await Self.seen(page).filter { $0.type != "pointermove" }
            #expect(click.map(\.type) == ["pointerdown", "pointerup", "click"])
            #expect(click.allSatisfy { $0.x == 50 && $0.y == 60 }, "\(click)")

            try await page.drag(from: PagePoint(x: 100, y: 100), to: PagePoint(x: 300, y: 200), steps: 4, duration: 0.4)
            let drag = try await Self.seen(page)
            let down = drag.firstIndex { $0.type == "pointerdown" }
            let up = drag.firstIndex { $0.type == "pointerup" }
            #expect(down != nil && up != nil && down! < up!, "\(drag)")
            guard let down, let up else { return }
            #expect(drag[down].x == 100 && drag[down].y == 100)
            let moves = drag[down..<up].filter { $0.type == "pointermove" }
            #expect(moves.map { [$0.x, $0.y] } == [[150, 125], [200, 150], [250, 175], [300, 200]], "\(moves)")
            #expect(moves.allSatisfy { $0.buttons == 1 })
            #expect(drag[up].x == 300 && drag[up].y == 200 && drag[up].buttons == 0)
            // The events carry the timestamps given, so a page sees the drag take 0.4 s.
            let elapsed = drag[up].t - drag[down].t
            #expect(abs(elapsed - 400) < 5, "the drag took \(elapsed) ms by its events' timestamps")
        }
    }
}
