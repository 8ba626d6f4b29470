import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// The contact pipeline (broadphase, narrow phase, solver) gives the same numbers bit for bit
/// from change to change: a digest of every body's centre, angle and velocities and every cached
/// contact impulse, after a number of steps, against recorded constants. A change that moves any
/// of them by one ulp fails here: a refactoring must not, and a change of physics re-records them
/// and says why.
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

    // Recorded at the last change of physics: exact motion (the share of the step's pull an
    // impulse cancels, along its direction) and the broadphase fattening items for their speed
    // relative to the items' mean velocity. Fattened by absolute speed, falling piles overflowed
    // `Broadphase.pairs`'s store of pairs (2 × crowdLimit per item), which silently dropped pairs
    // that did touch (in pile300 a box falling at 1,767 pt/s onto one at 465 pt/s, 20 pt apart).
    // A change to the contact pipeline meant to keep the numbers must keep these.
    static let pile300: [UInt64] = [0xd003_3ebf_9e25_59d2, 0xac82_23bf_b5f1_218b, 0xd09e_2a8d_a0fd_7fdb, 0xd116_f97f_50af_4808, 0x34d1_924a_99b3_b091]
    static let spawn200: [UInt64] = [0x92f5_78e3_6e94_3baf, 0x5421_ea9c_9243_e7d3, 0x5cb7_6127_4e37_a97a, 0x341b_c152_9e84_9793]
    static let boundaries150: [UInt64] = [0x22ba_e7e3_8a95_8c60, 0x4c15_cb16_f6ee_4142, 0x5eff_9608_016a_d161, 0xf07e_e29f_6be0_92a9]
    static let joints100: [UInt64] = [0x925a_6239_8bb6_42dc, 0x35e6_b50b_e735_8341, 0x952a_ae4d_ad3e_8cab]
}
