import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// The contact pipeline (broadphase, narrow phase, solver) gives the same numbers bit for bit as
/// it did before it was made faster: a digest of every body's centre, angle and velocities and
/// every cached contact impulse, after a number of steps, against constants recorded from the
/// code before the change. A change that moves any of them by one ulp fails here.
@Suite struct PileDeterminismTests {
    /// FNV-1a over the bit patterns of the bodies' state and the contacts' impulses.
    static func digest(_ animator: DynamicAnimator) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ x: Double) { h = (h ^ x.bitPattern) &* 0x100_0000_01b3 }
        for b in animator.bodies.bodies {
            mix(b.center.x); mix(b.center.y); mix(b.angle)
            mix(b.velocity.dx); mix(b.velocity.dy); mix(b.angularVelocity)
        }
        for c in animator.carryOver.contacts {
            mix(c.normalImpulse); mix(c.tangentImpulse)
            h = (h ^ UInt64(bitPattern: Int64(c.b &* 31 &+ c.feature))) &* 0x100_0000_01b3
        }
        return h
    }

    /// The benchmark's pile (`dynamics.pile.1k`: 30×30 boxes on a 25-wide grid 36 pt apart in
    /// the 1,200 × 2,000 bounds, gravity, friction 0.3), `count` boxes of it, or all of them
    /// spawned at one point (`dynamics.spawn.1500`'s crowd).
    static func boxes(_ count: Int, atOnePoint: Bool = false, boundaries: Bool = false) -> DynamicAnimator {
        var animator = DynamicAnimator(referenceBounds: Rect(0, 0, 1_200, 2_000))
        let left = (1_200 - 24 * 36.0) / 2
        let ids = (0..<count).map(DynamicItemID.init)
        for (k, id) in ids.enumerated() {
            let place = atOnePoint ? Point(600, 1_000) : Point(left + 36 * Double(k % 25), 50 + 36 * Double(k / 25))
            animator.setItem(id, DynamicBody(center: place, size: Size(30, 30)))
        }
        var collision = CollisionBehavior(items: ids)
        collision.translatesReferenceBoundsIntoBoundary = true
        if boundaries {
            collision.boundaries = [("ramp", .segment(Point(100, 900), Point(700, 1_100))),
                                    ("shelf", .rect(Rect(800, 700, 200, 40))),
                                    ("bowl", .ellipse(Rect(300, 1_300, 600, 600)))]
        }
        animator.add(collision)
        animator.add(GravityBehavior(items: ids))
        var material = ItemBehavior(items: ids)
        material.properties.friction = 0.3
        material.properties.elasticity = 0
        animator.add(material)
        return animator
    }

    static func run(_ animator: DynamicAnimator, steps: Int, every: Int) -> [UInt64] {
        var animator = animator
        var digests: [UInt64] = []
        for s in 1...steps {
            animator.advance(steps: 1)
            if s % every == 0 { digests.append(digest(animator)) }
        }
        return digests
    }

    @Test func aPileOf300StepsAsBefore() {
        let digests = Self.run(Self.boxes(300), steps: 300, every: 60)
        print("pile300", digests.map { String($0, radix: 16) })
        #expect(digests == Self.pile300)
    }

    @Test func aCrowdSpawnedAtOnePointStepsAsBefore() {
        let digests = Self.run(Self.boxes(200, atOnePoint: true), steps: 120, every: 30)
        print("spawn200", digests.map { String($0, radix: 16) })
        #expect(digests == Self.spawn200)
    }

    @Test func aPileOnNamedBoundariesStepsAsBefore() {
        let digests = Self.run(Self.boxes(150, boundaries: true), steps: 240, every: 60)
        print("boundaries150", digests.map { String($0, radix: 16) })
        #expect(digests == Self.boundaries150)
    }

    /// Joints and stiff springs among the contacts (the joints' and contacts' iterations
    /// interleave, and a 12 Hz spring sub-steps the step).
    @Test func aPileWithJointsAndSubstepsStepsAsBefore() {
        var animator = Self.boxes(100)
        animator.add(AttachmentBehavior(item: DynamicItemID(0), offset: Vector(5, 5), anchor: .point(Point(168, 20))))
        animator.add(AttachmentBehavior(kind: .pin, item: DynamicItemID(30), anchor: .item(DynamicItemID(31), offset: Vector(-15, 0))))
        animator.add(AttachmentBehavior(kind: .fixed, item: DynamicItemID(60), anchor: .item(DynamicItemID(61), offset: .zero)))
        var spring = AttachmentBehavior(item: DynamicItemID(90), anchor: .point(Point(700, 400)))
        spring.frequency = 12
        spring.damping = 0.3
        animator.add(spring)
        let digests = Self.run(animator, steps: 180, every: 60)
        print("joints100", digests.map { String($0, radix: 16) })
        #expect(digests == Self.joints100)
    }

    // Recorded from the code before the contact solver was made faster (0a039aa).
    static let pile300: [UInt64] = [0x9c7b_30f8_a511_4ffc, 0xe007_73f4_fe67_e165, 0x9a07_fe2e_d48d_f874, 0x2ec2_61ce_1e43_2cff,
                                    0xe372_2336_64ec_399a]
    static let spawn200: [UInt64] = [0x1ef7_ab96_7549_bba0, 0x6bd0_6ef8_e70f_20e5, 0xc8fb_83f9_787a_24ef, 0x50ad_4902_d4f5_9748]
    static let boundaries150: [UInt64] = [0x533a_c404_bbf7_00da, 0xd9d6_7944_2ab1_c216, 0xfd4e_e778_5c72_ae10, 0xe5df_0dba_640d_f3ae]
    static let joints100: [UInt64] = [0xdf0d_27f3_9ea0_8b7c, 0xf91a_b9b0_a767_fbf8, 0xf5ad_47b4_2e1d_4bea]
}
