import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// A box that lands flat on a face meets it with two corners at once: the impact is symmetric
/// and must not turn it (Box2D's block solver gives both corners the same impulse). A box that
/// lands on a corner must still turn.
@Suite struct FlatLandingTests {
    /// A 100×100 item at `center` and `angle` dropped under gravity 1 into 400×600 reference
    /// bounds (the boundary), of `elasticity`.
    static func drop(center: Point = Point(200, 100), angle: Double = 0, elasticity: Double) -> DynamicAnimator {
        let id = DynamicItemID(0)
        var a = DynamicAnimator(referenceBounds: Rect(0, 0, 400, 600))
        var body = DynamicBody(center: center, size: Size(100, 100))
        body.angle = angle
        a.setItem(id, body)
        a.add(GravityBehavior(items: [id]))
        var collision = CollisionBehavior(items: [id])
        collision.translatesReferenceBoundsIntoBoundary = true
        a.add(collision)
        var material = ItemBehavior(items: [id])
        material.properties.elasticity = elasticity
        a.add(material)
        return a
    }

    @Test(arguments: [0.6, 0])
    func aBoxDroppedFlatLandsAndBouncesWithoutTurning(elasticity: Double) {
        // Centres whose corners are exact (200) and not (123.4, 271.3: x ± 50 rounds), and
        // boxes thrown sideways, sliding (friction 0) along the floor into a wall face on.
        for (x, vx): (Double, Double) in [(200, 0), (123.4, 0), (271.3, 0), (200, -37), (200, 120)] {
            var a = Self.drop(center: Point(x, 100), elasticity: elasticity)
            a.addLinearVelocity(Vector(vx, 0), to: DynamicItemID(0))
            var largest = 0.0, bounces = 0, falling = true
            for _ in 0..<600 {
                a.advance(steps: 1)
                let body = a.bodies[DynamicItemID(0)]!
                largest = max(largest, abs(body.angle), abs(body.angularVelocity) * DynamicAnimator.defaultStep)
                if falling && body.velocity.dy < 0 { bounces += 1 }
                falling = body.velocity.dy >= 0
            }
            let body = a.bodies[DynamicItemID(0)]!
            // Not merely below 1e-9: both corners' arithmetic is the same, mirrored, so nothing
            // at all (levers worked out from rounded corner points turned it by 1e-15 rad).
            #expect(largest == 0, "x = \(x), vx = \(vx), e = \(elasticity): turned up to \(largest) rad")
            // It did bounce (elastic) and it came to rest on the floor.
            if elasticity > 0 { #expect(bounces >= 3, "x = \(x): \(bounces) bounces") }
            #expect(abs(body.center.y + 50 - 600) < 1, "x = \(x): rests at \(body.center.y + 50)")
            #expect(a.isPaused, "x = \(x): still moving at \(body.velocity)")
            if vx == 0 { #expect(abs(body.center.x - x) < 1e-9, "x = \(x): slid to \(body.center.x)") }
        }
    }

    @Test(arguments: [0.6, 0])
    func aBoxDroppedOnACornerTurnsOntoItsFace(elasticity: Double) {
        // 0.2 rad clockwise: the lower left corner lands first and the box falls onto its face.
        var a = Self.drop(angle: 0.2, elasticity: elasticity)
        var fastest = 0.0
        for _ in 0..<600 {
            a.advance(steps: 1)
            fastest = max(fastest, abs(a.bodies[DynamicItemID(0)]!.angularVelocity))
        }
        let body = a.bodies[DynamicItemID(0)]!
        // Turned (several radians per second on landing), and settled on a face.
        #expect(fastest > 1, "turned at most \(fastest) rad/s")
        let offFace = remainder(body.angle, Double.pi / 2)
        #expect(abs(offFace) < 0.01, "rests at \(body.angle) rad")
        #expect(abs(body.center.y + 50 - 600) < 1.5, "rests at \(body.center.y + 50)")
    }
}
