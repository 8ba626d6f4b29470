import Testing
import TrellisClient
import TrellisCore
import TrellisDynamics

/// Shapes on a view (`DebugShape.view`) are drawn where the view is, through its centre and
/// 3-D transform, by the SVG writer and the terminal (both use `DebugLayerPlacement`); a shape
/// whose view is not shown is not drawn.
@Suite struct DebugPlacementTests {
    static func scene(_ transform: Transform3D) -> Scene {
        let a = LayoutAttributes(element: .cell(0, 0), frame: Rect(x: 100, y: 200, width: 80, height: 40), transform: transform)
        return Scene(time: 0, contentOffset: .zero, contentSize: Size(400, 600), boundsSize: Size(400, 600),
                     views: [SceneView(view: ViewID(7), reuseIdentifier: "cell", element: .cell(0, 0), itemID: nil, attributes: a, data: nil)])
    }

    static let shapes = [
        DebugShape(DebugShapeID(.bounds, 0), .bounds, .box(center: Point(200, 300), size: Size(400, 600), angle: 0)),
        DebugShape(DebugShapeID(.item, 1, 0), .collision, .box(center: .zero, size: Size(80, 40), angle: 0), view: 7),
        DebugShape(DebugShapeID(.item, 1, 1), .centerOfMass, .point(.zero), view: 7),
        DebugShape(DebugShapeID(.item, 1, 2), .velocity, .arrow(from: .zero, to: Point(10, 0)), view: 7),
        DebugShape(DebugShapeID(.item, 2, 0), .collision, .box(center: .zero, size: Size(10, 10), angle: 0), view: 99),
    ]

    @Test(arguments: [
        ("none", Transform3D.identity),
        ("turned", Transform3D.rotation(angle: 0.7, x: 0, y: 0, z: 1)),
        ("perspective", Transform3D.rotation(angle: 0.9, x: 0, y: 1, z: 0).concatenating(.perspective(eyeDistance: 500))),
    ])
    func anItemsOutlineIsTheViewsTransformedCorners(_ name: String, _ transform: Transform3D) throws {
        let scene = Self.scene(transform)
        let placed = DebugLayerPlacement.inContent(Self.shapes, scene: scene)
        // The shape of view 99 (not shown) is left out; content shapes are as they were.
        #expect(placed.map(\.id) == Self.shapes.prefix(4).map(\.id), "\(name)")
        #expect(placed[0] == Self.shapes[0])
        #expect(placed.allSatisfy { $0.view == nil })
        let view = scene.views[0].attributes
        guard case .polygon(let outline) = placed[1].geometry else { Issue.record("\(name): \(placed[1])"); return }
        for (p, q) in zip(outline, view.transformedCorners) {
            #expect(abs(p.x - q.x) < 1e-9 && abs(p.y - q.y) < 1e-9, "\(name): \(outline) vs \(view.transformedCorners)")
        }
        #expect(placed[2].geometry == .point(view.center), "\(name)")
        if name != "none" {
            // Turned with the view: no longer the untransformed frame's corners.
            #expect(outline[0] != Point(100, 200), "\(name)")
        }
        // The SVG draws the placed outline.
        let svg = SVGRenderer().render(scene, debug: Self.shapes)
        let expected = outline.map { SVGRenderer.number($0.x) + "," + SVGRenderer.number($0.y) }.joined(separator: " ")
        #expect(svg.contains("data-id=\"item.1.0\" points=\"\(expected)\""), "\(name): \(svg)")
        #expect(!svg.contains("item.2.0"))
    }
}
