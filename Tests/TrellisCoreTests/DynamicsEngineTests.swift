import Testing
import TrellisDynamics
@testable import TrellisCore
import TrellisJSON

/// UIKit Dynamics on the engine: cells and bodies as the animator's items, in the physics stage
/// of the tick, their attributes following the simulation everywhere the engine shows them.
@Suite struct DynamicsEngineTests {
    /// 4 cells of 100×100 in a 400×600 view (one row), on a flow layout.
    func session() -> CollectionView {
        CollectionView(boundsSize: Size(400, 600), layout: FlowLayout(metrics: FlowLayoutMetrics(itemSize: Size(100, 100), minimumInteritemSpacing: 0)), data: items(4))
    }

    @discardableResult
    func add(_ view: inout CollectionView, _ make: ([DynamicItemID]) -> any DynamicBehavior, _ elements: [DynamicElement]) throws -> BehaviorID {
        var resolver = view.dynamicElementResolver()
        let ids = try elements.map { e throws in try resolver.id(for: e) }
        return view.addDynamicBehavior(make(ids), spec: TestBehaviorSpec(), resolver: resolver)
    }

    /// Free fall, exact at any step: after n steps of h, y = y₀ + g·(n·h)²/2.
    func fallen(_ steps: Int) -> Double { 1000 * DynamicAnimator.defaultStep * DynamicAnimator.defaultStep * Double(steps * steps) / 2 }

    @Test func aCellUnderGravityFallsAndItsViewFollows() throws {
        var view = session()
        try add(&view, { GravityBehavior(items: $0) }, [.item("i1")])
        #expect(view.needsTicks)
        view.advance(to: 0.5)
        let y = 50 + fallen(30)
        let a = try #require(view.presentationAttributes(for: .cell(0, 1)))
        #expect(near(a.center.y, y, 1e-9) && near(a.center.x, 150))
        // Model attributes and hit testing follow what is drawn.
        #expect(view.attributes(for: .cell(0, 1))?.center == a.center)
        #expect(view.hitTest(Point(150, y))?.element == .cell(0, 1))
        #expect(view.hitTest(Point(150, 50))?.element != .cell(0, 1))
        // The others stay where the layout puts them.
        #expect(view.presentationAttributes(for: .cell(0, 0))?.center == Point(50, 50))
    }

    /// A behaviour that puts a NaN into its items' velocities.
    struct Poison: DynamicBehavior {
        var items: [DynamicItemID]
        var phases: StepPhases { .forces }
        func applyForces(to bodies: inout DynamicBodies, step: Double) {
            for id in items { if let k = bodies.index(of: id) { bodies[index: k].velocity = Vector(.nan, 0) } }
        }
    }

    @Test func aBehaviourThatWouldBreakTheSimulationIsStoppedWithAnEventAndTheSceneStaysFinite() throws {
        var view = session()
        try add(&view, { GravityBehavior(items: $0) }, [.item("i1")])
        let poison = try add(&view, { Poison(items: $0) }, [.item("i1")])
        _ = view.drainEvents()
        view.advance(to: 0.5)
        let events = view.drainEvents()
        #expect(events.contains(.dynamicsStopped(behavior: poison.rawValue, reason: DynamicAnimator.nonFiniteForces)))
        #expect(view.dynamicBehaviorStopReason(poison) == DynamicAnimator.nonFiniteForces)
        // Gravity went on as if the poison had never been added.
        let a = try #require(view.presentationAttributes(for: .cell(0, 1)))
        #expect(near(a.center.y, 50 + fallen(30), 1e-9))
        for v in view.scene.views {
            let numbers = [v.attributes.frame.origin.x, v.attributes.frame.origin.y, v.attributes.frame.width]
            #expect(numbers.allSatisfy { $0.isFinite })
        }
    }

    @Test func elementsNoBehaviourNamesAnyMoreAreForgotten() throws {
        // A client naming ever more elements must not grow the session for ever.
        var view = session()
        for k in 0..<200 {
            try view.addBody(name: "b\(k)", center: Point(50, 50), size: Size(10, 10))
            let id = try add(&view, { GravityBehavior(items: $0) }, [.body("b\(k)"), .item(ItemID("i\(k % 4)"))])
            view.advance(to: Double(k + 1) / 60)
            _ = try view.removeDynamicBehavior(id)
            try view.removeBody(named: "b\(k)")
        }
        #expect(view.dynamicsSnapshot { $1 }.elements.isEmpty)
        #expect(view.dynamicItems.isEmpty)
        // Named again, an element gets a new item and acts as before.
        let again = try add(&view, { GravityBehavior(items: $0) }, [.item("i1")])
        #expect(view.dynamicItems.count == 1 && view.dynamicBehaviorIDs == [again.rawValue])
    }

    @Test func aDynamicCellKeepsItsStateWhenABatchMovesItsIndexPath() throws {
        var view = session()
        try add(&view, { GravityBehavior(items: $0) }, [.item("i1")])
        view.advance(to: 0.25)
        let before = try view.dynamicState(of: .item("i1"))
        try view.performBatchUpdates(BatchUpdate([.insertItems(at: [IndexPath(0, 0)], items: [Item(id: "new")])]),
                                     animation: .immediate)
        let after = try view.dynamicState(of: .item("i1"))
        #expect(after == before)
        // At its new index path the cell is drawn where the simulation has it, not at its new slot.
        #expect(view.presentationAttributes(for: .cell(0, 2))?.center == before.center)
        view.advance(to: 0.5)
        #expect(near(try view.dynamicState(of: .item("i1")).center.y, 50 + fallen(30), 1e-9))
    }

    @Test func removingTheLastBehaviourHandsTheCellBackToItsLayoutAtOnce() throws {
        var view = session()
        let gravity = try add(&view, { GravityBehavior(items: $0) }, [.item("i2")])
        view.advance(to: 0.3)
        #expect(view.presentationAttributes(for: .cell(0, 2))?.center != Point(250, 50))
        let released = try view.removeDynamicBehavior(gravity)
        #expect(released == [.item("i2")])
        #expect(view.presentationAttributes(for: .cell(0, 2))?.center == Point(250, 50))
        #expect(try view.dynamicState(of: .item("i2")).isDynamic == false)
        #expect(!view.needsTicks)
    }

    @Test func aDeletedDynamicItemLeavesTheAnimator() throws {
        var view = session()
        try add(&view, { GravityBehavior(items: $0) }, [.item("i0"), .item("i3")])
        view.advance(to: 0.1)
        try view.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(0, 0)])]), animation: .immediate)
        #expect(view.dynamicItems.count == 1)
        #expect(throws: EngineError.unknownDynamicElement(.item("i0"))) { try view.dynamicState(of: .item("i0")) }
        // The survivor, now at (0, 2), goes on falling.
        view.advance(to: 0.2)
        #expect(near(try view.dynamicState(of: .item("i3")).center.y, 50 + fallen(12), 1e-9))
    }

    @Test func bodiesAreViewsOfTheirOwnWithAReuseIdentifierAndPayload() throws {
        var view = session()
        let payload = ItemPayload(bytes: Array(#"{"label":"info"}"#.utf8))
        try view.addBody(name: "panel", center: Point(200, 300), size: Size(80, 40), reuseIdentifier: "panel",
                         data: payload, zIndex: 2)
        #expect(throws: EngineError.bodyExists("panel")) { try view.addBody(name: "panel", center: .zero, size: Size(1, 1)) }
        let shown = try #require(view.scene.views.first { $0.element.kind == .body })
        #expect(shown.reuseIdentifier == "panel" && shown.itemID == ItemID("panel"))
        #expect(shown.data == payload)
        #expect(shown.attributes.frame == Rect(160, 280, 80, 40) && shown.attributes.zIndex == 2)
        #expect(view.scene.views.last?.element.kind == .body)   // drawn in front (zIndex 2)
        let gravity = try add(&view, { GravityBehavior(items: $0) }, [.body("panel")])
        #expect(throws: EngineError.bodyInUse("panel", behaviors: [gravity.rawValue])) { try view.removeBody(named: "panel") }
        view.advance(to: 0.5)
        try view.removeDynamicBehavior(gravity)
        // Released, a body stays where the simulation left it.
        #expect(near(try #require(view.freeBody(named: "panel")).center.y, 300 + fallen(30), 1e-9))
        try view.removeBody(named: "panel")
        #expect(view.scene.views.allSatisfy { $0.element.kind != .body })
    }

    @Test func anUnknownElementIsRefusedBeforeAnythingChanges() throws {
        var view = session()
        var resolver = view.dynamicElementResolver()
        _ = try resolver.id(for: .item("i0"))
        #expect(throws: EngineError.unknownDynamicElement(.item("nope"))) { try resolver.id(for: .item("nope")) }
        #expect(throws: EngineError.unknownDynamicElement(.body("ghost"))) { try resolver.id(for: .body("ghost")) }
        // The resolver named i0 but nothing was committed.
        #expect(view.dynamicItems.isEmpty && view.dynamicBehaviorIDs.isEmpty)
        view.advance(to: 1)
        #expect(view.presentationAttributes(for: .cell(0, 0))?.center == Point(50, 50))
    }

    @Test func aSettledSimulationPausesAndNeedsNoTicks() throws {
        var view = session()
        try add(&view, { items in
            var c = CollisionBehavior(items: items)
            c.translatesReferenceBoundsIntoBoundary = true
            return c
        }, [.item("i0")])
        try add(&view, { GravityBehavior(items: $0) }, [.item("i0")])
        var t = 0.0
        var paused = false
        while t < 10 && view.needsTicks {
            t += 1.0 / 60
            view.advance(to: t)
            paused = view.drainEvents().contains(.dynamicsPaused) || paused
        }
        #expect(paused && !view.needsTicks)
        // Resting on the bottom of the reference bounds (the view: the content is shorter).
        #expect(near(try view.dynamicState(of: .item("i0")).center.y, 550, 0.6))
        let frozen = view.scene
        view.advance(to: t + 5)
        #expect(view.scene.views.map(\.attributes) == frozen.views.map(\.attributes))
    }

    @Test func theSameCommandsGiveTheSameSimulationBitForBit() throws {
        func run() throws -> [LayoutAttributes] {
            var view = session()
            try add(&view, { GravityBehavior(items: $0) }, [.item("i0"), .item("i1"), .item("i2")])
            try add(&view, { items in
                var c = CollisionBehavior(items: items)
                c.translatesReferenceBoundsIntoBoundary = true
                return c
            }, [.item("i0"), .item("i1"), .item("i2")])
            view.addDynamicVelocity(linear: Vector(300, -200), angular: 3, to: view.dynamicItems)
            for k in 1...150 { view.advance(to: Double(k) * 0.013) }
            return view.scene.views.map(\.attributes)
        }
        #expect(try run() == run())
    }

    @Test func anAttachmentTakesItsLengthFromWhereANewItemIs() throws {
        var view = session()
        // i1's centre is (150, 50): 150 from (0, 50), measured after it joined, not from the origin.
        let id = try add(&view, { AttachmentBehavior(item: $0[0], anchor: .point(Point(0, 50))) }, [.item("i1")])
        let attachment = try #require(view.dynamicBehavior(id)?.behavior as? AttachmentBehavior)
        #expect(attachment.length == 150)
    }

    @Test func anItemInsertedAgainUnderANamedIdJoinsFromItsNewPlace() throws {
        var view = session()
        try add(&view, { GravityBehavior(items: $0) }, [.item("i1")])
        view.advance(to: 0.2)
        try view.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(0, 1)])]), animation: .immediate)
        #expect(view.dynamicItems.isEmpty)
        try view.performBatchUpdates(BatchUpdate([.insertItems(at: [IndexPath(0, 3)], items: [Item(id: "i1")])]), animation: .immediate)
        let state = try view.dynamicState(of: .item("i1"))
        #expect(state.isDynamic && state.center == Point(350, 50) && state.velocity == .zero)
        view.advance(to: 0.3)
        #expect(near(try view.dynamicState(of: .item("i1")).center.y, 50 + fallen(6), 1e-9))
        #expect(view.presentationAttributes(for: .cell(0, 3))?.center == (try view.dynamicState(of: .item("i1"))).center)
    }

    /// A layout that put an item at NaN (a layout's bug) cannot put a NaN into the animator: the
    /// item is not taken in, a joint measured from it keeps a finite length, and the others move.
    @Test func anItemTheLayoutPutsAtNaNIsNotTakenIntoTheAnimator() throws {
        let good = LayoutAttributes(element: .cell(0, 0), frame: Rect(0, 0, 50, 50))
        let bad = LayoutAttributes(element: .cell(0, 1), frame: Rect(.nan, 0, 50, 50))
        var view = CollectionView(boundsSize: Size(400, 600), layout: FixedLayout(elements: [good, bad]), data: items(2))
        try add(&view, { GravityBehavior(items: $0) }, [.item("i0"), .item("i1")])
        try add(&view, { AttachmentBehavior(item: $0[0], anchor: .point(Point(200, 0))) }, [.item("i1")])
        view.advance(to: 0.5)
        #expect(view.dynamicItems.count == 1)
        for entry in view.dynamicBehaviors {
            if let attachment = entry.behavior as? AttachmentBehavior { #expect(attachment.length == 0) }
        }
        #expect(near(try #require(view.presentationAttributes(for: .cell(0, 0))).center.y, 25 + fallen(30), 1e-9))
        var animator = DynamicAnimator(referenceBounds: Rect(0, 0, 100, 100))
        let taken = animator.setItem(DynamicItemID(1), DynamicBody(center: Point(.infinity, 0), size: Size(10, 10)))
        #expect(!taken)
        #expect(animator.bodies.count == 0)
    }
}
