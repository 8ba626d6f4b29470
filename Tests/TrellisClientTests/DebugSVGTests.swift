import Foundation
import Testing
import TrellisTestSupport
import TrellisClient
import TrellisCore
import TrellisDynamics
import TrellisProtocol

/// The debug layer in the SVG writer (`snapshot --debug`, `record --debug`): every shape drawn
/// where the layer puts it, by kind, over the views.
@Suite struct DebugSVGTests {
    /// An element of the written SVG (one per line): its name, attributes and text.
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String

        func attribute(forName key: String) -> String? { attributes[key] }

        /// Every element of `svg` whose attributes satisfy `matching`.
        static func all(in svg: String, where matching: ([String: String]) -> Bool) throws -> [Element] {
            let tag = try Regex(#"^\s*<([a-z]+)((?:\s+[a-zA-Z0-9-]+="[^"]*")*)\s*/?>([^<]*)"#)
            let pair = try Regex(#"([a-zA-Z0-9-]+)="([^"]*)""#)
            func unescape(_ s: Substring) -> String {
                s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
            }
            var found: [Element] = []
            for line in svg.split(separator: "\n") {
                guard let m = line.firstMatch(of: tag) else { continue }
                var attributes: [String: String] = [:]
                for p in (m.output[2].substring ?? "").matches(of: pair) {
                    attributes[String(p.output[1].substring ?? "")] = unescape(p.output[2].substring ?? "")
                }
                if matching(attributes) {
                    found.append(Element(name: String(m.output[1].substring ?? ""), attributes: attributes, text: unescape(m.output[3].substring ?? "")))
                }
            }
            return found
        }
    }

    /// One shape of each kind, in each geometry.
    static let shapes: [DebugShape] = {
        var shapes: [DebugShape] = []
        for (k, kind) in DebugShape.Kind.allCases.enumerated() {
            let x = Double(10 + 20 * k)
            let geometry: DebugShape.Geometry
            switch k % 6 {
            case 0: geometry = .box(center: Point(x, 50), size: Size(20, 10), angle: Double.pi / 2)
            case 1: geometry = .point(Point(x, 60))
            case 2: geometry = .arrow(from: Point(x, 70), to: Point(x + 10, 70))
            case 3: geometry = .polyline([Point(x, 80), Point(x, 90), Point(x + 5, 95)])
            case 4: geometry = .ellipse(center: Point(x, 100), radii: Size(8, 4))
            default: geometry = .polygon([Point(x, 110), Point(x + 8, 110), Point(x + 4, 118)])
            }
            shapes.append(DebugShape(DebugShapeID(.item, k, 0), kind, geometry, label: k == 3 ? "spring 12 & <up>" : nil))
        }
        return shapes
    }()

    @Test func everyShapeIsDrawnByKindWhereTheLayerPutsIt() throws {
        let scene = Scene(time: 0, contentOffset: .zero, contentSize: Size(375, 600), boundsSize: Size(375, 600), views: [])
        let svg = SVGRenderer(session: "s").render(scene, debug: Self.shapes)
        for shape in Self.shapes {
            let found = try Element.all(in: svg) { $0["data-id"] == shape.id.text }
            #expect(found.count == 1, "\(shape.id.text) in \(svg)")
            let element = try #require(found.first)
            #expect(element.attribute(forName: "class") == "debug-\(shape.kind.rawValue)")
            switch shape.geometry {
            case .box, .polygon:
                #expect(element.name == "polygon")
                let numbers = (element.attribute(forName: "points") ?? "")
                    .split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
                let expected = shape.geometry.points.flatMap { [$0.x, $0.y] }
                #expect(numbers.count == expected.count && zip(numbers, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(shape.id.text): \(numbers) vs \(expected)")
            case .polyline: #expect(element.name == "polyline")
            case .ellipse(let c, let r):
                #expect(element.name == "ellipse")
                #expect(element.attribute(forName: "cx") == SVGRenderer.number(c.x))
                #expect(element.attribute(forName: "ry") == SVGRenderer.number(r.height))
            case .point(let c):
                #expect(element.name == "circle")
                #expect(element.attribute(forName: "cy") == SVGRenderer.number(c.y))
            case .arrow(_, let to):
                #expect(element.name == "line")
                #expect(element.attribute(forName: "x2") == SVGRenderer.number(to.x))
                #expect(element.attribute(forName: "marker-end") != nil)
            }
            #expect(element.attribute(forName: "stroke") == DebugStyle.color(shape.kind)
                    || element.attribute(forName: "fill") == DebugStyle.color(shape.kind))
        }
        // The label, escaped, as text; the layer comes after (over) the views.
        #expect(try Element.all(in: svg) { $0["class"] == "debug-label" }.map(\.text) == ["spring 12 & <up>"])
        #expect(!SVGRenderer().render(scene).contains("class=\"debug"))
    }

    /// `trellis snapshot --debug` against a server: a falling body's shape and the collision
    /// boundary are in the picture, at the body's place.
    @Test func snapshotDebugDrawsTheSessionsLayer() throws {
        let server = try CLIServer()
        defer { server.stop() }
        let client = try RPCClient(path: server.socketPath, timeout: 10)
        defer { client.close() }
        try client.call("session.create", ["name": .string("d"), "clock": .string("manual"),
                                           "layout": .object(["type": .string("flow")]), "bounds": .array([.number(300), .number(400)])])
        try client.call("body.add", ["session": .string("d"), "body": .string("card"), "center": .array([.number(100), .number(100)]),
                                     "size": .array([.number(40), .number(40)])])
        try client.call("dynamics.add", ["session": .string("d"), "behavior": .object([
            "type": .string("collision"), "items": .array([.object(["body": .string("card")])]),
            "boundaries": .array([.object(["id": .string("ledge"), "from": .array([.number(0), .number(200)]), "to": .array([.number(300), .number(200)])])]),
        ])])
        let r = server.trellis("snapshot", "d", "--svg", "-", "--debug")
        #expect(r.status == 0, "\(r.stderr)")
        let card = try #require(try Element.all(in: r.stdout) { $0["class"] == "debug-collision" }.first)
        #expect(card.attribute(forName: "points") == "80,80 120,80 120,120 80,120")
        let ledge = try #require(try Element.all(in: r.stdout) { $0["data-label"] == "ledge" }.first)
        #expect(ledge.attribute(forName: "points") == "0,200 300,200")
        let plain = server.trellis("snapshot", "d", "--svg", "-")
        #expect(plain.status == 0 && !plain.stdout.contains("debug-"))
    }
}
