import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// UICollisionBehaviorDelegate's began/ended contacts as animator events: once when a touch
/// starts and once when it stops, at the right place, in a fixed order.
@Suite struct CollisionEventTests {
    typealias Event = DynamicAnimator.Event

    /// One box of `size` at `center` in a 1000 × 1000 world, falling under gravity onto the
    /// reference bounds' floor (y = 1000).
    static func droppedBox(center: Point = Point(500, 200), size: Size = Size(100, 100), elasticity: Double = 0)
        -> (DynamicAnimator, BehaviorID) {
        let id = DynamicItemID(0)
        var a = CollisionTests.world([DynamicBody(center: center, size: size)])
        a.add(GravityBehavior(items: [id]))
        var collision = CollisionBehavior(items: [id])
        collision.translatesReferenceBoundsIntoBoundary = true
        let behavior = a.add(collision)
        a.add(CollisionTests.material([id]) { $0.elasticity = elasticity })
        return (a, behavior)
    }

    /// The collision events of `steps` steps, with the step (1-based) each came after.
    static func collisions(_ a: inout DynamicAnimator, steps: Int) -> [(step: Int, event: Event)] {
        var found: [(Int, Event)] = []
        for step in 1...steps {
            a.advance(steps: 1)
            for event in a.drainEvents() {
                switch event {
                case .collisionBegan, .collisionEnded: found.append((step, event))
                default: break
                }
            }
        }
        return found
    }

    @Test func aBoxDroppedOnTheFloorBeginsTouchingItOnceAtTheMiddleOfItsBottom() {
        var (a, behavior) = Self.droppedBox()
        let events = Self.collisions(&a, steps: 300)
        #expect(events.count == 1, "\(events)")
        guard case .collisionBegan(let b, let item, let other, let boundary, let point)? = events.first?.event else {
            Issue.record("no began: \(events)")
            return
        }
        #expect(b == behavior && item == DynamicItemID(0) && other == nil && boundary == nil)
        // Both bottom corners touch: the middle of the bottom face, on the floor.
        #expect(abs(point.y - 1000) < 0.5 && abs(point.x - 500) < 0.5, "\(point)")
        // It began within a step of the box first reaching the floor (a fall of 750 pt).
        var replay = Self.droppedBox().0
        var reached = 0
        while replay.bodies[DynamicItemID(0)]!.center.y + 50 < 999.5 {
            replay.advance(steps: 1)
            reached += 1
        }
        #expect(events[0].step - reached >= 0 && events[0].step - reached <= 1, "began after step \(events[0].step), reached \(reached)")
    }

    @Test func aBouncingBoxEndsAndBeginsOncePerBounce() {
        var (a, _) = Self.droppedBox(elasticity: 0.6)
        let events = Self.collisions(&a, steps: 600)
        // Alternating began, ended, began, …, ending with began (it rests on the floor).
        #expect(events.count >= 5 && events.count % 2 == 1, "\(events.map(\.event))")
        for (k, (step, event)) in events.enumerated() {
            switch event {
            case .collisionBegan(_, _, nil, nil, let point):
                #expect(k % 2 == 0, "began at \(k)")
                #expect(abs(point.y - 1000) < 0.5, "\(point)")
            case .collisionEnded(_, _, nil, nil):
                #expect(k % 2 == 1, "ended at \(k)")
                // A bounce leaves the floor within a step or two of touching it.
                #expect(step - events[k - 1].step <= 2)
            default:
                Issue.record("unexpected \(event)")
            }
        }
        // The first bounce rises 0.36 × 750 = 270 pt: about 2 × √(2 · 270 / 1000) s = 1.47 s = 88 steps in the air.
        #expect(events.count >= 3 && abs(events[2].step - events[1].step - 88) <= 4, "\(events.map(\.step))")
    }

    @Test func twoBoxesMeetingHeadOnBeginAndEndOnceBetweenThem() {
        let left = DynamicItemID(0), right = DynamicItemID(1)
        var a = CollisionTests.world([DynamicBody(center: Point(200, 500), size: Size(50, 50)),
                                      DynamicBody(center: Point(500, 500), size: Size(50, 50))])
        let behavior = a.add(CollisionBehavior(items: [left, right]))
        a.add(CollisionTests.material([left, right]) { $0.elasticity = 1 })
        a.addLinearVelocity(Vector(300, 0), to: left)
        let events = Self.collisions(&a, steps: 90)
        #expect(events.count == 2, "\(events)")
        guard events.count == 2, case .collisionBegan(behavior, left, right, nil, let point) = events[0].event else {
            Issue.record("\(events)")
            return
        }
        // They meet face to face at x = 475 (after 250 pt at 300 pt/s, about step 50).
        #expect(abs(point.x - 475) < 1 && abs(point.y - 500) < 0.5, "\(point)")
        #expect(abs(events[0].step - 50) <= 1)
        #expect(events[1].event == .collisionEnded(behavior: behavior, a: left, b: right, boundary: nil))
        #expect(events[1].step - events[0].step <= 2)
    }

    @Test func aNamedSegmentBoundaryReportsItsIdentifier() {
        let id = DynamicItemID(0)
        var a = CollisionTests.world([DynamicBody(center: Point(500, 100), size: Size(60, 60))])
        a.add(GravityBehavior(items: [id]))
        var collision = CollisionBehavior(items: [id])
        collision.boundaries = [("floor", .segment(Point(0, 900), Point(1000, 900))),
                                ("shelf", .segment(Point(300, 600), Point(700, 600)))]
        collision.translatesReferenceBoundsIntoBoundary = true
        let behavior = a.add(collision)
        let events = Self.collisions(&a, steps: 300)
        #expect(events.count == 1)
        guard case .collisionBegan(behavior, id, nil, "shelf", let point)? = events.first?.event else {
            Issue.record("\(events)")
            return
        }
        #expect(abs(point.y - 600) < 0.5 && abs(point.x - 500) < 0.5, "\(point)")
    }

    @Test func aRestingContactIsQuietAndRemovingTheBehaviourOrTheItemEndsIt() {
        var (a, behavior) = Self.droppedBox()
        _ = Self.collisions(&a, steps: 300)
        // Woken while it rests: still touching, nothing to report.
        a.addLinearVelocity(Vector(0, 1), to: DynamicItemID(0))
        #expect(Self.collisions(&a, steps: 60).isEmpty)
        var removed = a
        removed.remove(behavior)
        let ends = removed.drainEvents()
        #expect(ends.contains(.collisionEnded(behavior: behavior, a: DynamicItemID(0), b: nil, boundary: nil)), "\(ends)")
        #expect(Self.collisions(&removed, steps: 10).isEmpty)
        a.removeItem(DynamicItemID(0))
        let itemEnds = a.drainEvents()
        #expect(itemEnds.first == .collisionEnded(behavior: behavior, a: DynamicItemID(0), b: nil, boundary: nil), "\(itemEnds)")
    }

    @Test func renamingATouchedBoundaryEndsTheOldTouchAndBeginsTheNew() {
        let id = DynamicItemID(0)
        var a = CollisionTests.world([DynamicBody(center: Point(500, 100), size: Size(60, 60))])
        a.add(GravityBehavior(items: [id]))
        var collision = CollisionBehavior(items: [id])
        collision.boundaries = [("shelf", .segment(Point(300, 600), Point(700, 600)))]
        let behavior = a.add(collision)
        _ = Self.collisions(&a, steps: 120)
        collision.boundaries = [("ledge", .segment(Point(300, 600), Point(700, 600)))]
        let updated = a.update(behavior, to: collision)
        #expect(updated)
        let renamed = a.drainEvents()
        #expect(renamed.contains(.collisionEnded(behavior: behavior, a: id, b: nil, boundary: "shelf")), "\(renamed)")
        let events = Self.collisions(&a, steps: 2)
        guard case .collisionBegan(behavior, id, nil, "ledge", _)? = events.first?.event else {
            Issue.record("\(events)")
            return
        }
    }

    @Test func eventsOfOneStepComeInBehaviourThenItemOrder() {
        // Three boxes side by side landing together: each on the floor, in id order.
        let ids = [DynamicItemID(7), DynamicItemID(3), DynamicItemID(5)]
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1000, height: 1000))
        for (k, id) in ids.enumerated() { a.setItem(id, DynamicBody(center: Point(200 + Double(k) * 200, 500), size: Size(50, 50))) }
        a.add(GravityBehavior(items: ids))
        var collision = CollisionBehavior(items: ids)
        collision.translatesReferenceBoundsIntoBoundary = true
        a.add(collision)
        let events = Self.collisions(&a, steps: 120)
        #expect(events.count == 3 && Set(events.map(\.step)).count == 1, "\(events)")
        let items = events.compactMap { if case .collisionBegan(_, let item, _, _, _) = $0.event { item } else { nil } }
        #expect(items == ids.sorted())
    }
}
