import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

/// The page's debug toggle in a real headless Chromium: it attaches again with the debug
/// layer, draws every shape the server's layer holds over the views, in the stage's
/// coordinates, follows the frames, and hides it again.
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

    /// The page's shapes: id → the points its element draws (polygon/polyline `points`).
    static let pageShapes = """
    (() => {
      const out = {};
      for (const g of document.querySelectorAll('#debug-layer g[data-id]')) {
        const shape = g.firstElementChild;
        out[g.dataset.id] = { tag: shape.tagName, points: shape.getAttribute('points'), kind: g.dataset.kind };
      }
      return JSON.stringify(out);
    })()
    """

    @Test func theToggleDrawsTheServersLayerAndFollowsItsFrames() async throws {
        try await BrowserHarness.run { harness in
            try harness.call("session.create", ["name": .string("dbg"), "clock": .string("manual"),
                                                "layout": .object(["type": .string("flow")]), "bounds": .array([.number(375), .number(812)])])
            try harness.call("body.add", ["session": .string("dbg"), "body": .string("card"), "center": .array([.number(100), .number(100)]),
                                          "size": .array([.number(40), .number(40)])])
            try harness.call("dynamics.add", ["session": .string("dbg"), "behavior": .object([
                "type": .string("gravity"), "items": .array([.object(["body": .string("card")])])])])
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
                }
            }
            try await compare("the keyframe")
            // In the stage's coordinates: the ledge (y = 300) is 300 px below the stage's top.
            let offset = try await page.evaluate("""
                (() => { const s = document.getElementById('stage').getBoundingClientRect();
                         const l = document.querySelector('#debug-layer g[data-id="boundary.2.1"] polyline').getBoundingClientRect();
                         return l.top - s.top; })()
                """).numberValue ?? -1
            #expect(abs(offset - 300) <= 1, "the ledge is \(offset) px below the stage's top")

            try harness.call("clock.advance", ["session": .string("dbg"), "ms": .number(150)])
            try await compare("after 150 ms of falling")
            let kinds = try await page.evaluate("[...document.querySelectorAll('#debug-layer g[data-kind=velocity]')].length")
            #expect(kinds == .number(1), "the falling card has a velocity arrow")

            _ = try await page.evaluate("document.getElementById('debug-toggle').click()")
            _ = try await page.waitUntil("document.getElementById('debug-layer').hidden && document.querySelectorAll('#debug-layer g').length === 0", "the layer hidden")
            let stats = try harness.call("stats", ["session": .string("dbg")])
            let viewers = stats["viewers"]?.arrayValue ?? []
            // The page's viewer attached again without the layer.
            #expect(viewers.contains { $0["debug"] == .bool(false) })
        }
    }
}
