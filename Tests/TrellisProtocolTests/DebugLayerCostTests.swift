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

    /// Twelve resting bodies: one given a velocity sends its arrow alone, moving on at that
    /// velocity sends nothing (its view's frame carries it), and one that leaves the animator
    /// sends its ids alone.
    @Test func aChangedItemSendsOnlyItsShapesAndAnUnchangedSceneNothing() throws {
        var view = CollectionView(boundsSize: Size(400, 600), layout: FlowLayout(), data: CollectionData())
        for k in 0..<12 {
            try view.addBody(name: "b\(k)", center: Point(50 + 36 * Double(k % 8), 50 + 36 * Double(k / 8)), size: Size(30, 30))
        }
        var resolver = view.dynamicElementResolver()
        let ids = (0..<12).compactMap { try? resolver.id(for: .body("b\($0)")) }
        let spec = WireBehaviorSpec(.object(["type": .string("item")]))
        let behavior = view.addDynamicBehavior(ItemBehavior(items: ids), spec: spec, resolver: resolver)
        var layer = PublishedDebugLayer()
        var built = DebugLayerContents()
        var itemViews = DebugItemViews()
        func frame(_ k: Int) -> DebugLayerDelta {
            if k > 0 { view.advance(to: Double(k) / 60) }
            view.buildDebugLayer(into: &built, itemViews: &itemViews)
            var delta = DebugLayerDelta()
            layer.publish(&built, reporting: &delta)
            return delta
        }
        #expect(frame(0).shapes.filter { $0.kind == .collision }.count == 12)
        #expect(frame(1).isEmpty)
        view.addDynamicVelocity(linear: Vector(dx: 300, dy: 0), angular: 0, to: [ids[5]])
        let pushed = frame(2)
        #expect(pushed.shapes.map(\.id) == [DebugShapeID(.item, ids[5].rawValue, 2)] && pushed.removed.isEmpty, "\(pushed)")
        #expect(frame(3).isEmpty)
        try view.updateDynamicBehavior(behavior, to: ItemBehavior(items: ids.filter { $0 != ids[7] }), spec: spec,
                                       resolver: view.dynamicElementResolver())
        let removed = frame(4)
        #expect(removed.shapes.isEmpty && removed.removed == [DebugShapeID(.item, ids[7].rawValue, 0), DebugShapeID(.item, ids[7].rawValue, 1)],
                "\(removed)")
    }

    /// Which view shows each item, kept from frame to frame, is what a fresh look finds, while
    /// bodies go out of view and back (a scroll) and bodies come and go.
    @Test func keptItemViewsAreTheViewsFoundAfresh() throws {
        var view = Self.pile(count: 60)
        let items = (0..<1_000).map { Item(id: ItemID("i\($0)")) }
        view.reloadData(try CollectionData(sections: [Section(id: "s", items: items)]))
        var built = DebugLayerContents()
        var itemViews = DebugItemViews()
        var offView = 0
        var late: [BehaviorID] = []
        for k in 1...120 {
            view.advance(to: Double(k) / 60)
            if k == 50 { view.setContentOffset(Point(0, 3_000)) }
            if k == 90 { view.setContentOffset(Point(0, 0)) }
            // Bodies join the animator and leave it.
            if k % 40 == 0 {
                try view.addBody(name: "late\(k)", center: Point(200, 100), size: Size(20, 20))
                var resolver = view.dynamicElementResolver()
                let id = try resolver.id(for: .body("late\(k)"))
                late.append(view.addDynamicBehavior(ItemBehavior(items: [id]), spec: WireBehaviorSpec(.object(["type": .string("item")])),
                                                    resolver: resolver))
            }
            if k % 40 == 20, !late.isEmpty { try view.removeDynamicBehavior(late.removeFirst()) }
            view.buildDebugLayer(into: &built, itemViews: &itemViews)
            var fresh = DebugLayerContents()
            var freshViews = DebugItemViews()
            view.buildDebugLayer(into: &fresh, itemViews: &freshViews)
            #expect(built.items == fresh.items, "frame \(k)")
            #expect(built.contacts == fresh.contacts, "frame \(k)")
            if k > 50 && k < 90 { offView += built.items.filter { $0.view < 0 }.count }
        }
        #expect(offView > 0, "the scroll took no body out of view")
    }
}
