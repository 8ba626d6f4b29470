import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// Collisions: with the reference bounds (bounce heights, rest, no tunnelling), between items
/// (momentum and energy in elastic collisions), and a stack that stays stacked.
@Suite struct CollisionTests {
    static func world(_ bodies: [DynamicBody], size: Size = Size(1000, 1000)) -> DynamicAnimator {
        var animator = DynamicAnimator(referenceBounds: Rect(origin: .zero, size: size))
        for (k, body) in bodies.enumerated() { animator.setItem(DynamicItemID(k), body) }
        return animator
    }

    static func material(_ ids: [DynamicItemID], _ change: (inout DynamicItemProperties) -> Void) -> ItemBehavior {
        var behavior = ItemBehavior(items: ids)
        change(&behavior.properties)
        return behavior
    }

    @Test func aDroppedBoxBouncesToElasticitySquaredOfItsDropAndComesToRest() {
        let id = DynamicItemID(0)
        var a = Self.world([DynamicBody(center: Point(500, 200), size: Size(100, 100))])
        a.add(GravityBehavior(items: [id]))
        var collision = CollisionBehavior(items: [id])
        collision.translatesReferenceBoundsIntoBoundary = true
        a.add(collision)
        a.add(Self.material([id]) { $0.elasticity = 0.6 })
        // Fall 750 pt to the floor, rise to 0.36 × 750 = 270 pt above it.
        var bottoms: [Double] = [], rising: [Bool] = []
        for _ in 0..<240 {
            a.advance(steps: 1)
            bottoms.append(a.bodies[id]!.center.y + 50)
            rising.append(a.bodies[id]!.velocity.dy < 0)
        }
        // The first bounce (the step that struck the floor ends in flight again).
        let landing = rising.firstIndex(of: true)!
        let apex = bottoms[landing...].min()!
        #expect(abs((1000 - apex) / 270 - 1) < 0.05, "rose \(1000 - apex) pt")
        a.advance(steps: 600)
        #expect(abs(a.bodies[id]!.center.y + 50 - 1000) < 1, "rests at \(a.bodies[id]!.center.y + 50)")
        #expect(a.isPaused)
    }

    @Test func aFlungBoxDoesNotPassThroughTheBounds() {
        let id = DynamicItemID(0)
        var a = Self.world([DynamicBody(center: Point(500, 500), size: Size(40, 40))])
        var collision = CollisionBehavior(items: [id])
        collision.translatesReferenceBoundsIntoBoundary = true
        a.add(collision)
        a.addLinearVelocity(Vector(20_000, 7_000), to: id)
        for _ in 0..<120 {
            a.advance(steps: 1)
            let c = a.bodies[id]!.center
            #expect(c.x >= 19 && c.x <= 981 && c.y >= 19 && c.y <= 981, "\(c)")
        }
    }

    @Test func aBoxStopsAtASegmentBoundary() {
        let id = DynamicItemID(0)
        var a = Self.world([DynamicBody(center: Point(500, 100), size: Size(60, 60))])
        a.add(GravityBehavior(items: [id]))
        var collision = CollisionBehavior(items: [id])
        collision.boundaries = [("shelf", .segment(Point(300, 600), Point(700, 600)))]
        a.add(collision)
        a.advance(steps: 300)
        #expect(abs(a.bodies[id]!.center.y + 30 - 600) < 1, "\(a.bodies[id]!.center)")
    }

    @Test func anElasticHeadOnCollisionSwapsEqualMassesVelocities() {
        let left = DynamicItemID(0), right = DynamicItemID(1)
        var a = Self.world([DynamicBody(center: Point(200, 500), size: Size(50, 50)),
                            DynamicBody(center: Point(500, 500), size: Size(50, 50))])
        a.add(CollisionBehavior(items: [left, right]))
        a.add(Self.material([left, right]) { $0.elasticity = 1 })
        a.addLinearVelocity(Vector(300, 0), to: left)
        a.advance(steps: 90)
        let l = a.bodies[left]!, r = a.bodies[right]!
        #expect(abs(l.velocity.dx) < 3, "\(l.velocity)")
        #expect(abs(r.velocity.dx - 300) < 3, "\(r.velocity)")
        let momentum = l.velocity * l.mass + r.velocity * r.mass
        #expect(abs(momentum.dx - 300 * l.mass) < 1e-6)
        let energy = 0.5 * (l.mass * l.velocity.lengthSquared + r.mass * r.velocity.lengthSquared)
        #expect(abs(energy / (0.5 * l.mass * 300 * 300) - 1) < 0.01)
    }

    @Test func aStackOfTenBoxesStaysStacked() {
        let ids = (0..<10).map(DynamicItemID.init)
        let boxes = (0..<10).map { k in DynamicBody(center: Point(500, 1000 - 25 - Double(k) * 50), size: Size(50, 50)) }
        var a = Self.world(boxes)
        a.add(GravityBehavior(items: ids))
        var collision = CollisionBehavior(items: ids)
        collision.translatesReferenceBoundsIntoBoundary = true
        a.add(collision)
        a.add(Self.material(ids) { $0.friction = 0.5 })
        a.advance(steps: 300)
        for (k, id) in ids.enumerated() {
            let c = a.bodies[id]!.center
            #expect(abs(c.x - 500) < 1, "box \(k) at \(c)")
            #expect(abs(c.y - (1000 - 25 - Double(k) * 50)) < 3, "box \(k) at \(c)")
            #expect(abs(a.bodies[id]!.angle) < 0.01, "box \(k) turned \(a.bodies[id]!.angle)")
        }
    }

    @Test func aChainOfAttachmentsHangsWithoutExploding() {
        // Ten links of 30 pt on rigid rods from a fixed point, let go sideways under gravity.
        let ids = (0..<10).map(DynamicItemID.init)
        var a = Self.world((0..<10).map { k in DynamicBody(center: Point(500 + Double(k + 1) * 30, 100), size: Size(10, 10)) })
        a.add(AttachmentBehavior(item: ids[0], anchor: .point(Point(500, 100))))
        for k in 1..<10 { a.add(AttachmentBehavior(item: ids[k], anchor: .item(ids[k - 1], offset: .zero))) }
        a.add(GravityBehavior(items: ids))
        func lengths() -> [Double] {
            (0..<10).map { k in a.bodies[ids[k]]!.center.distance(to: k == 0 ? Point(500, 100) : a.bodies[ids[k - 1]]!.center) }
        }
        var longest = 0.0
        for _ in 0..<600 {
            a.advance(steps: 1)
            longest = max(longest, lengths().max()!)
        }
        // While it whips down the light links stretch a little (8 velocity and 3 position
        // iterations, as Box2D), never by more than a quarter; hanging, they are back to length.
        #expect(longest.isFinite && longest < 30 * 1.25, "longest link \(longest)")
        #expect(lengths().allSatisfy { abs($0 - 30) < 1 }, "\(lengths())")
        #expect(a.bodies[ids[9]]!.center.y > 250)
    }
}
