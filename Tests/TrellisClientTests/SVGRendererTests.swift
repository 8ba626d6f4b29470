import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

/// The SVG writer: documents that parse as XML and whose shapes are the scene's views, where
/// the scene has them (transforms included), back to front.
@Suite struct SVGRendererTests {
    func view(_ id: Int, _ frame: Rect, item: Int? = nil, zIndex: Int = 0, alpha: Double = 1, hidden: Bool = false,
              transform: Transform3D = .identity, data: JSONValue? = nil, reuseID: String = "cell") -> SceneView {
        let element = ElementID.cell(0, item ?? id)
        return SceneView(view: ViewID(id), reuseIdentifier: reuseID, element: element, itemID: ItemID("i\(item ?? id)"),
                         attributes: LayoutAttributes(element: element, frame: frame, transform: transform, alpha: alpha,
                                                      zIndex: zIndex, isHidden: hidden),
                         data: data.map(ItemPayload.init))
    }

    func scene(_ views: [SceneView], offset: Point = .zero) -> Scene {
        Scene(time: 0.25, contentOffset: offset, contentSize: Size(375, 2000), boundsSize: Size(375, 812), views: views)
    }

    @Test func rectanglesMatchTheSceneBackToFrontByZIndex() throws {
        let turned = Transform3D.rotation(angle: .pi / 6, x: 0, y: 0, z: 1).scaled(x: 0.5, y: 0.8).concatenating(.translation(x: 12, y: -7))
        let header = SceneView(view: ViewID(5), reuseIdentifier: "header", element: .header(0), itemID: nil,
                               attributes: LayoutAttributes(element: .header(0), frame: Rect(0, 0, 375, 40)), data: nil)
        let views = [
            view(2, Rect(137.5, 0, 100, 100), zIndex: 1, alpha: 0.4, transform: turned),
            view(1, Rect(0, 0, 100, 100)),
            view(4, Rect(275, 0, 100, 100), hidden: true),
            view(3, Rect(0, 110, 100, 100), transform: .scale(x: 0.1, y: 0.1)),
            header,
        ]
        let svg = try ParsedSVG(SVGRenderer(session: "s").render(scene(views)))
        // Hidden views are left out; z-index 1 goes in front of every z-index 0, which keep
        // the scene's order.
        #expect(svg.views.map(\.view) == [1, 3, 5, 2])
        for parsed in svg.views {
            let expected = try #require(views.first { $0.view.rawValue == parsed.view })
            #expect(parsed.shape == "rect")
            #expect(cornersMatch(parsed.corners, expected.attributes.transformedCorners), "view \(parsed.view): \(parsed.corners)")
            #expect(abs(parsed.opacity - expected.attributes.alpha) < 1e-9)
            #expect(parsed.attributes["data-section"] == "0")
        }
        let cell = try #require(svg.views.last)
        #expect(cell.attributes["data-item"] == "2" && cell.attributes["data-id"] == "i2" && cell.attributes["data-kind"] == "cell")
        #expect(cell.attributes["data-z-index"] == "1" && cell.attributes["data-reuse-id"] == "cell")
        #expect(cell.label == "i2")
        let headerView = try #require(svg.views.first { $0.view == 5 })
        #expect(headerView.attributes["data-kind"] == "supplementary" && headerView.attributes["data-element-kind"] == "header")
        #expect(headerView.attributes["data-item"] == nil && headerView.label == "header")
        #expect(svg.root["data-session"] == "s" && svg.root["data-time"] == "250")
    }

    @Test func viewBoxIsTheVisibleRect() throws {
        let svg = try ParsedSVG(SVGRenderer().render(scene([view(1, Rect(0, 400, 100, 100))], offset: Point(0, 400.5))))
        #expect(svg.root["viewBox"] == "0 400.5 375 812")
        #expect(svg.root["width"] == "375" && svg.root["height"] == "812")
        #expect(svg.root["data-content-offset"] == "0,400.5" && svg.root["data-content-size"] == "375,2000")
    }

    @Test func labelsAndIdentifiersAreEscaped() throws {
        let label = "<b>&\"Tom's\"</b>\u{01}\ttab"
        var v = view(1, Rect(0, 0, 100, 100), data: .object(["label": .string(label)]))
        v.itemID = ItemID("a\"b<c>&")
        let text = SVGRenderer(session: "x&y").render(scene([v]))
        #expect(!text.contains("<b>"))
        let svg = try ParsedSVG(text)
        // The control character XML cannot hold becomes U+FFFD; the rest survives as written.
        #expect(svg.views.first?.label == "<b>&\"Tom's\"</b>\u{FFFD}\ttab")
        #expect(svg.views.first?.attributes["data-id"] == "a\"b<c>&")
        #expect(svg.root["data-session"] == "x&y")
    }

    @Test func labelFallsBackToTheItemID() throws {
        let numbered = view(1, Rect(0, 0, 50, 50), data: .object(["label": .number(7)]))
        let plain = view(2, Rect(60, 0, 50, 50), data: .object(["color": .string("red")]))
        let svg = try ParsedSVG(SVGRenderer().render(scene([numbered, plain])))
        #expect(svg.views.map(\.label) == ["7", "i2"])
    }

    @Test func coloursComeFromDataElseTheReuseIdentifier() throws {
        let views = [
            view(1, Rect(0, 0, 50, 50), data: .object(["color": .string("red")])),
            view(2, Rect(60, 0, 50, 50), data: .object(["color": .string("#0a0")])),
            view(3, Rect(120, 0, 50, 50), data: .object(["color": .string("not a colour")])),
            view(4, Rect(180, 0, 50, 50), reuseID: "photo"),
        ]
        let svg = try ParsedSVG(SVGRenderer().render(scene(views)))
        #expect(svg.views.map(\.fill) == ["#ff0000", "#00aa00", ViewColor.hashed("cell").hex, ViewColor.hashed("photo").hex])
    }

    @Test func perspectiveIsProjectedAsAPolygon() throws {
        let tilted = Transform3D.rotation(angle: .pi / 4, x: 0, y: 1, z: 0).concatenating(.perspective(eyeDistance: 500))
        #expect(tilted.m14 != 0)
        let v = view(1, Rect(100, 100, 200, 100), transform: tilted)
        let svg = try ParsedSVG(SVGRenderer().render(scene([v])))
        let parsed = try #require(svg.views.first)
        #expect(parsed.shape == "polygon" && parsed.attributes["data-projected"] == "true")
        #expect(cornersMatch(parsed.corners, v.attributes.transformedCorners))
        // Perspective makes the far edge shorter than the near one: not a parallelogram.
        let left = parsed.corners[3].y - parsed.corners[0].y, right = parsed.corners[2].y - parsed.corners[1].y
        #expect(abs(left - right) > 1)
    }

    @Test func aViewBehindTheEyeIsLeftOut() throws {
        var behind = Transform3D.identity
        behind.m14 = -0.02  // w < 0 on the right half of a 200-point-wide view
        let svg = try ParsedSVG(SVGRenderer().render(scene([view(1, Rect(0, 0, 200, 100), transform: behind), view(2, Rect(0, 200, 50, 50))])))
        #expect(svg.views.map(\.view) == [2])
    }

    @Test func affineMatrixIsCoreAnimationsTransformAboutTheCentre() throws {
        let t = Transform3D.rotation(angle: 0.3, x: 0, y: 0, z: 1).concatenating(.translation(x: 5, y: 9))
        let m = try #require(SVGRenderer.affineMatrix(t, center: Point(50, 20)))
        // The centre moves only by the translation.
        #expect(abs(m[0] * 50 + m[2] * 20 + m[4] - 55) < 1e-9 && abs(m[1] * 50 + m[3] * 20 + m[5] - 29) < 1e-9)
        #expect(SVGRenderer.affineMatrix(.perspective(eyeDistance: 500).rotated(angle: 0.5, x: 1, y: 0, z: 0), center: .zero) == nil)
    }

    @Test func numbersAreShortAndFinite() {
        #expect(SVGRenderer.number(100) == "100")
        #expect(SVGRenderer.number(137.5) == "137.5")
        #expect(SVGRenderer.number(6.123233995736766e-17) == "0")
        #expect(SVGRenderer.number(-0.0) == "0")
        #expect(SVGRenderer.number(.nan) == "0")
    }
}

/// Corner lists equal to within 1/1000 of a point (the SVG's numbers are rounded to 1e-6).
func cornersMatch(_ a: [Point], _ b: [Point], tolerance: Double = 1e-3) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0.x - $1.x) <= tolerance && abs($0.y - $1.y) <= tolerance }
}

/// An SVG file as the renderer writes it, read back with Foundation's XML parser: the root's
/// attributes and, in document order (back to front), each view's group.
struct ParsedSVG {
    /// One `<g class="view">`: its attributes, its shape and label.
    struct View {
        var attributes: [String: String]
        var shape = ""
        var shapeAttributes: [String: String] = [:]
        var label = ""

        var view: Int { Int(attributes["data-view"] ?? "") ?? -1 }
        var opacity: Double { Double(attributes["opacity"] ?? "1") ?? -1 }
        var fill: String? { shapeAttributes["fill"] }

        /// The shape's corners on screen, clockwise from top-left: the rect's corners through
        /// the group's matrix, or the polygon's points.
        var corners: [Point] {
            if shape == "polygon" {
                return (shapeAttributes["points"] ?? "").split(separator: " ").map { pair in
                    let xy = pair.split(separator: ",").compactMap { Double($0) }
                    return Point(xy.first ?? .nan, xy.last ?? .nan)
                }
            }
            let n = { (key: String) in Double(self.shapeAttributes[key] ?? "") ?? .nan }
            let (x, y, w, h) = (n("x"), n("y"), n("width"), n("height"))
            var m = [1.0, 0, 0, 1, 0, 0]
            if let transform = attributes["transform"], transform.hasPrefix("matrix(") {
                m = transform.dropFirst(7).dropLast().split(separator: " ").compactMap { Double($0) }
            }
            return [Point(x, y), Point(x + w, y), Point(x + w, y + h), Point(x, y + h)].map {
                Point(m[0] * $0.x + m[2] * $0.y + m[4], m[1] * $0.x + m[3] * $0.y + m[5])
            }
        }
    }

    var root: [String: String] = [:]
    var views: [View] = []

    struct ParseFailure: Error, CustomStringConvertible {
        var description: String
    }

    init(_ text: String) throws {
        let reader = Reader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        guard parser.parse() else {
            throw ParseFailure(description: "not XML: \(parser.parserError.map { "\($0)" } ?? "?") line \(parser.lineNumber)\n\(text)")
        }
        guard reader.rootName == "svg" else { throw ParseFailure(description: "root is \(reader.rootName ?? "nothing")") }
        root = reader.root
        views = reader.views
    }

    init(contentsOf path: String) throws {
        try self.init(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var rootName: String?
        var root: [String: String] = [:]
        var views: [View] = []
        var inView = false, inText = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if rootName == nil { rootName = name; root = attributes; return }
            switch name {
            case "g" where attributes["class"] == "view":
                views.append(View(attributes: attributes)); inView = true
            case "rect" where inView, "polygon" where inView:
                views[views.count - 1].shape = name
                views[views.count - 1].shapeAttributes = attributes
            case "text" where inView:
                inText = true
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "g" { inView = false }
            if name == "text" { inText = false }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inText { views[views.count - 1].label += string }
        }
    }
}
