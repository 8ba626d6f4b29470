import TrellisCore
import TrellisDynamics
import TrellisProtocol

/// Draws a scene as an SVG document: the visible rect (content offset + bounds) is the
/// viewBox, so every shape sits at its content coordinates; each view is a group carrying
/// `data-*` attributes (view, reuse id, kind, section, item, id, z-index) with its rectangle
/// and its label, back to front by z-index. Pure: a scene in, a string out.
public struct SVGRenderer: Sendable {
    /// The session's name, written as `data-session` and into the title when set.
    public var session: String?
    /// The frame number the scene was mirrored at, written as `data-seq` when set.
    public var seq: Int?

    public init(session: String? = nil, seq: Int? = nil) {
        self.session = session
        self.seq = seq
    }

    /// A scene as the protocol sends it (`query.scene`, a keyframe).
    public func render(sceneJSON: JSONValue) throws(ParamError) -> String {
        render(try WireScene.scene(sceneJSON))
    }

    /// The whole SVG document for `scene`, with the debug layer's `debug` shapes drawn over
    /// the views when given (`snapshot --debug`, `record --debug`).
    public func render(_ scene: Scene, debug: [DebugShape]? = nil) -> String {
        let o = scene.contentOffset, b = scene.boundsSize
        var root: [(String, String)] = [
            ("xmlns", "http://www.w3.org/2000/svg"),
            ("width", Self.number(b.width)), ("height", Self.number(b.height)),
            ("viewBox", [o.x, o.y, b.width, b.height].map(Self.number).joined(separator: " ")),
        ]
        if let session { root.append(("data-session", session)) }
        if let seq { root.append(("data-seq", String(seq))) }
        root += [
            ("data-time", Self.number(scene.time * 1000)),
            ("data-content-offset", Self.number(o.x) + "," + Self.number(o.y)),
            ("data-content-size", Self.number(scene.contentSize.width) + "," + Self.number(scene.contentSize.height)),
            ("data-bounds", Self.number(b.width) + "x" + Self.number(b.height)),
        ]
        // Where each scrolled band stands ("section:offset …"); its cells are already drawn there.
        if !scene.orthogonalOffsets.isEmpty {
            root.append(("data-orthogonal", scene.orthogonalOffsets.sorted { $0.key < $1.key }
                .map { "\($0.key):\(Self.number($0.value))" }.joined(separator: " ")))
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg\(Self.attributes(root))>\n"
        let title = (session.map { "session \($0)" } ?? "scene") + " at \(Self.number(scene.time * 1000)) ms"
        out += "  <title>\(XMLText.escape(title))</title>\n"
        out += "  <rect class=\"background\"\(Self.attributes([("x", Self.number(o.x)), ("y", Self.number(o.y)), ("width", Self.number(b.width)), ("height", Self.number(b.height)), ("fill", "#ffffff")]))/>\n"
        for view in Self.drawingOrder(scene.views) {
            out += element(for: view)
        }
        // Shapes on a view are drawn where the view is, through its transform.
        if let debug { out += Self.debugLayer(DebugLayerPlacement.inContent(debug, scene: scene)) }
        out += "</svg>\n"
        return out
    }

    /// Bound views that are not hidden, sorted by z-index; views of equal z-index keep the
    /// scene's order (the layout's), as UIKit draws them.
    public static func drawingOrder(_ views: [SceneView]) -> [SceneView] {
        views.enumerated()
            .filter { !$0.element.attributes.isHidden }
            .sorted { ($0.element.attributes.zIndex, $0.offset) < ($1.element.attributes.zIndex, $1.offset) }
            .map(\.element)
    }

    private func element(for view: SceneView) -> String {
        let a = view.attributes
        var group: [(String, String)] = [("class", "view"), ("data-view", String(view.view.rawValue)),
                                         ("data-reuse-id", view.reuseIdentifier)]
        switch view.element.kind {
        case .cell: group.append(("data-kind", "cell"))
        case .supplementary(let kind): group += [("data-kind", "supplementary"), ("data-element-kind", kind.rawValue)]
        case .decoration(let kind): group += [("data-kind", "decoration"), ("data-element-kind", kind.rawValue)]
        case .body: group += [("data-kind", "body"), ("data-body", view.itemID?.rawValue ?? "")]
        }
        group.append(("data-section", String(view.indexPath.section)))
        if view.element.isCell { group.append(("data-item", String(view.indexPath.item))) }
        if let id = view.itemID { group.append(("data-id", id.rawValue)) }
        group.append(("data-z-index", String(a.zIndex)))
        // Group opacity, as a layer's alpha: the label fades with its box instead of each
        // blending on its own.
        if a.alpha != 1 { group.append(("opacity", Self.number(min(1, max(0, a.alpha))))) }

        let fill = ViewColor.of(view)
        let paint: [(String, String)] = [("fill", fill.hex), ("stroke", fill.darkened(by: 0.6).hex), ("stroke-width", "1")]
        let label = XMLText.escape(view.displayLabel)
        let textColor = fill.luminance > 0.5 ? "#000000" : "#ffffff"
        let fontSize = Self.number(min(14, max(6, (min(a.frame.width, a.frame.height) * 0.25).rounded())))
        let text: [(String, String)] = [("text-anchor", "middle"), ("dominant-baseline", "central"),
                                        ("font-family", "sans-serif"), ("font-size", fontSize), ("fill", textColor)]
        let t = a.transform

        let matrix = t.isIdentity ? nil : Self.affineMatrix(t, center: a.center)
        if t.isIdentity || matrix != nil {
            // Affine in x and y (no perspective): the 4×4 maps exactly to SVG's 2-D matrix,
            // so the rect keeps its frame and the group carries the transform.
            if let matrix { group.append(("transform", "matrix(\(matrix.map(Self.matrixNumber).joined(separator: " ")))")) }
            return "  <g\(Self.attributes(group))>\n"
                + "    <rect\(Self.attributes([("x", Self.number(a.frame.minX)), ("y", Self.number(a.frame.minY)), ("width", Self.number(a.frame.width)), ("height", Self.number(a.frame.height))] + paint))/>\n"
                + "    <text\(Self.attributes([("x", Self.number(a.center.x)), ("y", Self.number(a.center.y))] + text))>\(label)</text>\n"
                + "  </g>\n"
        }
        // Perspective (m14/m24 set): SVG has no projective transform, so the four corners are
        // projected here (with the divide by w) and drawn as a polygon; the label sits upright
        // at the projected centre.
        let hw = a.frame.width / 2, hh = a.frame.height / 2
        let local = [Point(-hw, -hh), Point(hw, -hh), Point(hw, hh), Point(-hw, hh)]
        guard local.allSatisfy({ $0.x * t.m14 + $0.y * t.m24 + t.m44 > 0 }) else {
            // A corner behind the eye has no picture: Core Animation clips it, we leave it out.
            return "  <!-- view \(view.view.rawValue): partly behind the eye, not drawn -->\n"
        }
        let corners = a.transformedCorners
        group.append(("data-projected", "true"))
        let points = corners.map { Self.number($0.x) + "," + Self.number($0.y) }.joined(separator: " ")
        let center = a.center + t.apply(to: .zero)
        return "  <g\(Self.attributes(group))>\n"
            + "    <polygon\(Self.attributes([("points", points)] + paint))/>\n"
            + "    <text\(Self.attributes([("x", Self.number(center.x)), ("y", Self.number(center.y))] + text))>\(label)</text>\n"
            + "  </g>\n"
    }

    /// The debug layer as one group over the views: each shape an element of class
    /// `debug-KIND` with `data-id` (and `data-label`), thin strokes in its kind's colour,
    /// arrows with a head, points as small discs, labels as text at the shape's first point.
    static func debugLayer(_ shapes: [DebugShape]) -> String {
        var out = "  <g class=\"debug\" fill=\"none\" stroke-width=\"1\" font-family=\"sans-serif\" font-size=\"9\">\n"
        out += "    <defs><marker id=\"debug-arrowhead\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M0,0 L6,3 L0,6 z\" fill=\"context-stroke\"/></marker></defs>\n"
        for shape in shapes {
            let color = DebugStyle.color(shape.kind)
            var common: [(String, String)] = [("class", "debug-\(shape.kind.rawValue)"), ("data-id", shape.id.text)]
            if let label = shape.label { common.append(("data-label", label)) }
            var stroke: [(String, String)] = [("stroke", color)]
            if DebugStyle.isDashed(shape.kind) { stroke.append(("stroke-dasharray", "4 3")) }
            func points(_ p: [Point]) -> String { p.map { number($0.x) + "," + number($0.y) }.joined(separator: " ") }
            let anchor: Point
            switch shape.geometry {
            case .polygon, .box:
                let p = shape.geometry.points
                out += "    <polygon\(attributes(common + [("points", points(p))] + stroke))/>\n"
                anchor = p.first ?? .zero
            case .polyline(let p):
                out += "    <polyline\(attributes(common + [("points", points(p))] + stroke))/>\n"
                anchor = p.first ?? .zero
            case .ellipse(let c, let r):
                out += "    <ellipse\(attributes(common + [("cx", number(c.x)), ("cy", number(c.y)), ("rx", number(r.width)), ("ry", number(r.height))] + stroke))/>\n"
                anchor = Point(c.x, c.y - r.height)
            case .point(let c):
                let radius = shape.kind == .contact ? "3" : "2"
                out += "    <circle\(attributes(common + [("cx", number(c.x)), ("cy", number(c.y)), ("r", radius), ("fill", color), ("stroke", "none")]))/>\n"
                anchor = c
            case .arrow(let from, let to):
                out += "    <line\(attributes(common + [("x1", number(from.x)), ("y1", number(from.y)), ("x2", number(to.x)), ("y2", number(to.y))] + stroke + [("marker-end", "url(#debug-arrowhead)")]))/>\n"
                anchor = from
            }
            if let label = shape.label {
                out += "    <text\(attributes([("class", "debug-label"), ("x", number(anchor.x + 2)), ("y", number(anchor.y - 2)), ("fill", color), ("stroke", "none")]))>\(XMLText.escape(label))</text>\n"
            }
        }
        return out + "  </g>\n"
    }

    /// SVG's `matrix(a b c d e f)` for a Core Animation transform applied about `center`, when
    /// it is affine in x and y; nil when it has perspective. Row vectors: a point offset (x, y)
    /// from the centre goes to (x·m11 + y·m21 + m41, x·m12 + y·m22 + m42) / m44, hence a = m11, b = m12, c = m21,
    /// d = m22, and e, f move the centre back. The z row and column never reach the plane z = 0.
    public static func affineMatrix(_ t: Transform3D, center: Point) -> [Double]? {
        guard t.m14 == 0, t.m24 == 0, t.m44 != 0 else { return nil }
        let a = t.m11 / t.m44, b = t.m12 / t.m44, c = t.m21 / t.m44, d = t.m22 / t.m44
        let tx = t.m41 / t.m44, ty = t.m42 / t.m44
        let e = center.x + tx - a * center.x - c * center.y
        let f = center.y + ty - b * center.x - d * center.y
        return [a, b, c, d, e, f]
    }

    // MARK: Text

    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(XMLText.escape($0.1))\"" }.joined()
    }

    /// Numbers as SVG reads them: rounded to a millionth (no `6.1e-17` from a rotation's
    /// cosine), integers without a fraction.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return JSONNumberText.format((value * 1_000_000).rounded() / 1_000_000)
    }

    /// A `matrix()` entry: it maps content coordinates, which a wrapping carousel puts millions
    /// of points from the origin, so a millionth in `a` would move a view by a point there;
    /// rounded to 1e−12 instead (still no rotation noise like `6.1e-17`).
    public static func matrixNumber(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return JSONNumberText.format((value * 1e12).rounded() / 1e12)
    }
}
