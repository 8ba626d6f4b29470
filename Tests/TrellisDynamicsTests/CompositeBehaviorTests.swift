import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// Composite behaviours: the same numbers as their children added one by one, added and
/// removed as one, an impulse child still acting once per step however many sub-steps.
@Suite struct CompositeBehaviorTests {
    static let first = DynamicItemID(0), second = DynamicItemID(1), third = DynamicItemID(2)

    static func world() -> DynamicAnimator {
        var animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1000, height: 1000))
        animator.setItem(first, DynamicBody(center: Point(400, 200), size: Size(100, 100)))
        animator.setItem(second, DynamicBody(center: Point(470, 50), size: Size(60, 60)))
        animator.setItem(third, DynamicBody(center: Point(700, 500), size: Size(40, 40)))
        return animator
    }

    static func gravityAndCollision() -> (GravityBehavior, CollisionBehavior, ItemBehavior) {
        var collision = CollisionBehavior(items: [first, second])
        collision.translatesReferenceBoundsIntoBoundary = true
        var material = ItemBehavior(items: [first, second])
        material.properties.elasticity = 0.5
        material.properties.friction = 0.3
        return (GravityBehavior(items: [first, second]), collision, material)
    }

    @Test func aCompositeOfGravityAndCollisionMovesItsItemsExactlyAsTheTwoAddedApart() {
        let (gravity, collision, material) = Self.gravityAndCollision()
        var apart = Self.world(), together = Self.world()
        apart.add(material)
        apart.add(gravity)
        apart.add(collision)
        together.add(material)
        together.add(CompositeBehavior([gravity, collision]))
        for _ in 0..<6 {
            apart.advance(steps: 50)
            together.advance(steps: 50)
            #expect(apart.bodies.bodies == together.bodies.bodies)
        }
        #expect(apart.bodies[Self.first]!.center.y > 900)   // they fell, landed and piled up
        #expect(apart.isPaused == together.isPaused && apart.steps == together.steps)
    }

    @Test func removingTheCompositeRemovesAllItsChildren() throws {
        let (gravity, collision, _) = Self.gravityAndCollision()
        var a = Self.world()
        let id = a.add(CompositeBehavior([gravity, collision]))
        #expect(a.isDynamic(Self.first) && a.isDynamic(Self.second) && !a.isDynamic(Self.third))
        a.advance(steps: 10)
        let falling = a.bodies[Self.first]!.velocity
        #expect(falling.dy > 100)
        let removed = try #require(a.remove(id) as? CompositeBehavior)
        #expect(removed.childBehaviors.count == 2)
        #expect(!a.isDynamic(Self.first) && !a.isDynamic(Self.second))
        let steps = a.steps
        a.advance(steps: 10)
        // One more step without forces, then nothing left to act: paused.
        #expect(a.bodies[Self.first]!.velocity == falling)
        #expect(a.steps == steps + 1)
        #expect(a.isPaused)
        #expect(a.drainEvents().last == .paused)
    }

    /// An instantaneous push on the first item next to a 20 Hz spring on the second, which
    /// makes every step five sub-steps.
    static func pushAndStiffSpring() -> (PushBehavior, AttachmentBehavior) {
        var push = PushBehavior(items: [first], mode: .instantaneous)
        push.pushDirection = Vector(1, 0)
        var spring = AttachmentBehavior(item: second, anchor: .point(Point(470, 0)))
        spring.length = 40
        spring.frequency = 20
        spring.damping = 0.1
        return (push, spring)
    }

    @Test func anInstantaneousPushInsideACompositeActsOncePerStep() throws {
        let (push, spring) = Self.pushAndStiffSpring()
        var constraints = ConstraintSet(referenceBounds: .zero)
        var a = Self.world()
        spring.addConstraints(to: &constraints, bodies: a.bodies)
        #expect(constraints.highestFrequency == 20)   // 2π·20/60 > 0.5: sub-steps
        let id = a.add(CompositeBehavior([CompositeBehavior([push]), spring]))
        a.advance(steps: 1)
        // One impulse of a UIKit Newton-second: 100 pt/s on a 100×100 item, not five times it.
        #expect(abs(a.bodies[Self.first]!.velocity.dx - 100) < 1e-9)
        let composite = try #require(a.behavior(id) as? CompositeBehavior)
        let inner = try #require(composite.childBehaviors[0] as? CompositeBehavior)
        #expect((inner.childBehaviors[0] as? PushBehavior)?.active == false)
        a.advance(steps: 5)
        #expect(abs(a.bodies[Self.first]!.velocity.dx - 100) < 1e-9)
        // And bit for bit as the two added apart.
        var apart = Self.world()
        apart.add(push)
        apart.add(spring)
        apart.advance(steps: 6)
        #expect(apart.bodies.bodies == a.bodies.bodies)
    }

    @Test func aCompositeListsItsChildrensItemsOnceAndPreparesThemWhenAdded() throws {
        var a = Self.world()
        let attachment = AttachmentBehavior(item: Self.second, anchor: .item(Self.first, offset: .zero))
        let composite = CompositeBehavior([attachment, GravityBehavior(items: [Self.first, Self.third]),
                                           CompositeBehavior([ItemBehavior(items: [Self.third, Self.second])])])
        #expect(composite.items == [Self.second, Self.first, Self.third])
        let id = a.add(composite)
        let added = try #require(a.behavior(id) as? CompositeBehavior)
        let length = try #require((added.childBehaviors[0] as? AttachmentBehavior)?.length)
        #expect(abs(length - Point(470, 50).distance(to: Point(400, 200))) < 1e-12)
        // Replacing the whole composite: a child without a length gets one from the items now.
        a.advance(steps: 30)
        var changed = added
        changed.removeChildBehavior(at: 1)
        changed.childBehaviors[0] = attachment
        let replaced = a.update(id, to: changed)
        #expect(replaced)
        let updated = try #require(a.behavior(id) as? CompositeBehavior)
        #expect(updated.childBehaviors.count == 2)
        let now = try #require((updated.childBehaviors[0] as? AttachmentBehavior)?.currentDistance(a.bodies))
        #expect((updated.childBehaviors[0] as? AttachmentBehavior)?.length == now)
    }
}
