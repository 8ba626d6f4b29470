import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

/// The page's debug toggle in a real headless Chromium: it attaches again with the debug
/// layer, draws every shape the server's layer holds over the views, in the stage's
/// coordinates or, for a shape on a view, on that view through its transform, follows the
/// frames, and hides it again.
@Suite(.serialized, .enabled(if: BrowserExecutable.isAvailable,
                              "no headless Chromium: install chromium-headless-shell (tools/test does) or set TRELLIS_CHROMIUM"))
struct BrowserDebugLayerTests {
    /// The server's layer as a fresh debug viewer gets it: id → the shape's JSON.
    static func serverLayer(_ harness: BrowserHarness) throws -> [String: JSONValue] {
        let client = try harness.trellisd.client()
        defer { client.close() }
        let reply = try client.call("session.attach", ["session": .string("dbg"), "readOnly": .bool(true), "debug": .bool(true)])
        var layer: [String: JSONValue] = [:]
        for shape in reply["debug"]?["shapes"]?.arrayValue ?? [] { layer[shape["id"]?.stringValue ?? "?"] = shape }
        return layer
    }

    /// The page's shapes: id → the points its element draws (polygon/polyline `points`) and,
    /// for a shape on a view, the view its SVG is placed on.
    static let pageShapes = """
    (() => {
      const out = {};
      for (const g of document.querySelectorAll('#debug-layer g[data-id], #debug-view-layer g[data-id]')) {
        const shape = g.firstElementChild;
        const on = g.closest('svg.debug-on-view');
        out[g.dataset.id] = { tag: shape.tagName, points: shape.getAttribute('points'), kind: g.dataset.kind,
                              view: on ? Number(on.dataset.view) : null };
      }
      return JSON.stringify(out);
    })()
    """

    /// The on-screen box of the item's outline and of its view's element, both relative to the stage.
    static func boxes(of id: String, view: Int) -> String {
        """
        (() => { const s = document.getElementById('stage').getBoundingClientRect();
                 const o = document.querySelector('#debug-view-layer g[data-id="\(id)"] polygon').getBoundingClientRect();
                 const v = document.querySelector('.view[data-view="\(view)"]').getBoundingClientRect();
                 return JSON.stringify([o.left - s.left, o.top - s.top, o.width, o.height, v.left - s.left, v.top - s.top, v.width, v.height]); })()
        """
    }

    @Test func theToggleDrawsTheServersLayerAndFollowsItsFrames() async throws {
        try await BrowserHarness.run { harness in
            try harness.call("session.create", ["name": .string("dbg"), "clock": .string("manual"),
                                                "layout": .object(["type": .string("flow")]), "bounds": .array([.number(375), .number(812)])])
            try harness.call("body.add", ["session": .string("dbg"), "body": .string("card"), "center": .array([.number(100), .number(100)]),
                                          "size": .array([.number(40), .number(40)])])
            // A turned body: its view has a transform (a turn about z, as matrix3d), and its
            // outline must turn with it.
            try harness.call("body.add", ["session": .string("dbg"), "body": .string("tilted"), "center": .array([.number(250), .number(120)]),
                                          "size": .array([.number(80), .number(30)]), "angle": .number(0.6)])
            try harness.call("dynamics.add", ["session": .string("dbg"), "behavior": .object([
                "type": .string("gravity"), "items": .array([.object(["body": .string("card")]), .object(["body": .string("tilted")])])])])
            try harness.call("dynamics.add", ["session": .string("dbg"), "behavior": .object([
                "type": .string("collision"), "items": .array([.object(["body": .string("card")])]),
                "boundaries": .array([.object(["id": .string("ledge"), "from": .array([.number(0), .number(300)]), "to": .array([.number(375), .number(300)])])]),
            ])])
            try await harness.open(session: "dbg")
            let page = harness.page
            #expect(try await page.evaluate("document.querySelectorAll('#debug-layer g').length") == .number(0))

            _ = try await page.evaluate("document.getElementById('debug-toggle').click()")
            _ = try await page.waitUntil("document.querySelectorAll('#debug-layer g[data-id]').length > 0 && !document.getElementById('debug-layer').hidden", "the debug layer drawn")
            func compare(_ what: String) async throws {
                try await harness.waitForPage(session: "dbg")
                let expected = try Self.serverLayer(harness)
                let drawnText = try await page.evaluate(Self.pageShapes).stringValue ?? "{}"
                let drawn = try JSONParser.parse(drawnText)
                guard case .object(let members) = drawn else { throw WebTestFailure("the page's shapes are not an object: \(drawnText)") }
                #expect(Set(members.keys) == Set(expected.keys), "\(what): ids")
                for (id, shape) in expected {
                    guard let numbers = shape["polygon"]?.arrayValue ?? shape["polyline"]?.arrayValue else { continue }
                    let pairs = stride(from: 0, to: numbers.count - 1, by: 2).map {
                        JSONNumberText.format(numbers[$0].numberValue!) + "," + JSONNumberText.format(numbers[$0 + 1].numberValue!)
                    }.joined(separator: " ")
                    #expect(drawn[id]?["points"]?.stringValue == pairs, "\(what): \(id)")
                    #expect(drawn[id]?["view"] == (shape["view"] ?? .null), "\(what): \(id) is on its view")
                }
            }
            try await compare("the keyframe")
            // The card's outline is on its view (sent once, in the view's own coordinates) and
            // sits exactly where the view's element is.
            let card = try Self.serverLayer(harness)["item.1.0"]
            let cardView = Int(card?["view"]?.numberValue ?? -1)
            #expect(cardView > 0, "the card's collision shape is on its view: \(String(describing: card))")
            func outlineSitsOnItsView(_ what: String) async throws {
                let text = try await page.evaluate(Self.boxes(of: "item.1.0", view: cardView)).stringValue ?? "[]"
                let b = (try JSONParser.parse(text).arrayValue ?? []).compactMap(\.numberValue)
                #expect(b.count == 8, "\(what): \(text)")
                guard b.count == 8 else { return }
                for k in 0..<4 { #expect(abs(b[k] - b[k + 4]) <= 1.5, "\(what): outline \(b[0..<4]) view \(b[4...])") }
            }
            try await outlineSitsOnItsView("the keyframe")
            let tilted = try Self.serverLayer(harness)["item.2.0"]
            let tiltedView = Int(tilted?["view"]?.numberValue ?? -1)
            #expect(tiltedView > 0 && tiltedView != cardView, "the turned body's shape is on its own view: \(String(describing: tilted))")
            let turned = try await page.evaluate(Self.boxes(of: "item.2.0", view: tiltedView)).stringValue ?? "[]"
            let t = (try JSONParser.parse(turned).arrayValue ?? []).compactMap(\.numberValue)
            #expect(t.count == 8, "\(turned)")
            if t.count == 8 {
                // Turned by 0.6 rad, the 80 × 30 box spans about 80·cos + 30·sin ≈ 83 px across:
                // wider than its untransformed frame, as its view's element is.
                #expect(t[2] > 81, "the outline turned: \(turned)")
                for k in 0..<4 { #expect(abs(t[k] - t[k + 4]) <= 1.5, "turned outline \(t[0..<4]) view \(t[4...])") }
            }
            // In the stage's coordinates: the ledge (y = 300) is 300 px below the stage's top.
            let offset = try await page.evaluate("""
                (() => { const s = document.getElementById('stage').getBoundingClientRect();
                         const l = document.querySelector('#debug-layer g[data-id="boundary.2.1"] polyline').getBoundingClientRect();
                         return l.top - s.top; })()
                """).numberValue ?? -1
            #expect(abs(offset - 300) <= 1, "the ledge is \(offset) px below the stage's top")

            try harness.call("clock.advance", ["session": .string("dbg"), "ms": .number(150)])
            try await compare("after 150 ms of falling")
            try await outlineSitsOnItsView("after 150 ms of falling")
            // Velocity arrows are on their views too, one per falling body.
            let kinds = try await page.evaluate("[...document.querySelectorAll('#debug-view-layer g[data-kind=velocity]')].length")
            #expect(kinds == .number(2), "the falling card and the turned body have velocity arrows")

            _ = try await page.evaluate("document.getElementById('debug-toggle').click()")
            _ = try await page.waitUntil("document.getElementById('debug-layer').hidden && document.querySelectorAll('#debug-layer g').length === 0 && document.getElementById('debug-view-layer').hidden && document.querySelectorAll('#debug-view-layer g').length === 0", "the layer hidden")
            let stats = try harness.call("stats", ["session": .string("dbg")])
            let viewers = stats["viewers"]?.arrayValue ?? []
            // The page's viewer attached again without the layer.
            #expect(viewers.contains { $0["debug"] == .bool(false) })
        }
    }
}
