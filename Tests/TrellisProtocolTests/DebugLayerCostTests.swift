import Testing
import TrellisCore
import TrellisDynamics
import TrellisProtocol

/// The debug layer costs what changed: boxes falling (then piling) under gravity send their
/// outlines and centres once, on their views, and after that only velocity arrows that moved
/// by a grid step and contacts that moved by a whole point.
@Suite struct DebugLayerCostTests {
    static func pile(count: Int) -> CollectionView {
        var view = CollectionView(boundsSize: Size(400, 600), layout: FlowLayout(), data: CollectionData())
        for k in 0..<count {
            try? view.addBody(name: "b\(k)", center: Point(50 + 36 * Double(k % 8), 50 + 36 * Double(k / 8)), size: Size(30, 30))
        }
        var resolver = view.dynamicElementResolver()
        let ids = (0..<count).compactMap { try? resolver.id(for: .body("b\($0)")) }
        var collision = CollisionBehavior(items: ids)
        collision.translatesReferenceBoundsIntoBoundary = true
        for (behavior, type) in [(collision as any DynamicBehavior, "collision"), (GravityBehavior(items: ids), "gravity")] {
            view.addDynamicBehavior(behavior, spec: WireBehaviorSpec(.object(["type": .string(type)])), resolver: resolver)
        }
        return view
    }

    @Test func anItemsShapesAreSentOnceOnItsViewAndArrowsAndContactsOnlyWhenTheyMoveAStep() {
        var view = Self.pile(count: 40)
        var layer = PublishedDebugLayer()
        var shapes: [DebugShape] = []
        view.appendDebugShapes(to: &shapes)
        var first = DebugLayerDelta()
        layer.publish(&shapes, reporting: &first)
        let viewsByElement = Dictionary(uniqueKeysWithValues: view.scene.views.map { ($0.element, $0.view.rawValue) })
        // Every item's outline and centre are on a view shown now, about its centre.
        let outlines = first.shapes.filter { $0.kind == .collision }
        #expect(outlines.count == 40)
        #expect(outlines.allSatisfy { $0.view.map { v in viewsByElement.values.contains(v) } == true && $0.geometry == .box(center: .zero, size: Size(30, 30), angle: 0) })
        var resent = 0, arrows = 0, contacts = 0, frames = 0
        for k in 1...240 {
            view.advance(to: Double(k) / 60)
            shapes.removeAll(keepingCapacity: true)
            view.appendDebugShapes(to: &shapes)
            var delta = DebugLayerDelta()
            layer.publish(&shapes, reporting: &delta)
            frames += 1
            for s in delta.shapes {
                switch s.kind {
                case .collision, .centerOfMass: resent += 1
                case .velocity:
                    arrows += 1
                    // On the grid.
                    if case .arrow(let a, let b) = s.geometry {
                        let step = DynamicAnimator.debugVelocityStep
                        #expect(a == .zero && (b.x / step).rounded() * step == b.x && (b.y / step).rounded() * step == b.y, "\(s)")
                    }
                case .contact:
                    contacts += 1
                    if case .point(let p) = s.geometry { #expect(p.x.rounded() == p.x && p.y.rounded() == p.y, "\(s)") }
                default: break
                }
            }
        }
        // The boxes moved every frame, their outlines and centres never went again.
        #expect(resent == 0)
        // An arrow goes again when its end moved more than a step (10 pt: 100 pt/s), about every
        // twelfth frame of a free fall at 1,000 pt/s², not every frame: far fewer than one per
        // box per frame.
        #expect(arrows > 0 && arrows < 40 * frames / 2, "\(arrows) arrows in \(frames) frames")
        #expect(contacts > 0)
    }
}
