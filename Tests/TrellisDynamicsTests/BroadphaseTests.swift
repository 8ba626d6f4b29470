import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// The broadphase finds what testing every pair finds; a pile of many items settles and stays
/// in its box; ellipse boundaries hold items on their side.
@Suite struct BroadphaseTests {
    /// Boxes of random sizes, angles and speeds (some fast enough to widen their margin),
    /// crowded so that many touch, many nearly touch and most do not.
    static func randomBodies(_ count: Int, seed: UInt64) -> DynamicBodies {
        var random = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(random.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        var bodies = DynamicBodies()
        for k in 0..<count {
            var body = DynamicBody(center: Point(uniform(0...600), uniform(0...400)), size: Size(uniform(4...80), uniform(4...80)))
            body.angle = random.below(3) == 0 ? 0 : uniform(-Double.pi...Double.pi)
            let speed = random.below(4) == 0 ? uniform(0...3000) : uniform(0...50)
            body.velocity = Vector(angle: uniform(0...(2 * Double.pi)), length: speed)
            bodies.insert(body, for: DynamicItemID(1000 - k))
        }
        return bodies
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func theBroadphaseFindsExactlyTheContactsOfEveryPair(seed: UInt64) {
        let bodies = Self.randomBodies(150, seed: seed)
        let behavior = CollisionBehavior(items: bodies.ids)
        var swept = ConstraintSet(referenceBounds: Rect(x: 0, y: 0, width: 600, height: 400))
        var every = swept
        behavior.addConstraints(to: &swept, bodies: bodies, allPairs: false, crowds: false)
        behavior.addConstraints(to: &every, bodies: bodies, allPairs: true)
        #expect(every.contacts.count > 100, "crowded enough to test something")
        #expect(swept.contacts.map(\.key) == every.contacts.map(\.key))
        #expect(swept.contacts.map(\.point) == every.contacts.map(\.point))
        #expect(swept.contacts.map(\.separation) == every.contacts.map(\.separation))
    }

    @Test func sortAndSweepPairsAreThoseWhoseBoundsOverlapInOrder() {
        var random = SplitMix64(seed: 9)
        let bounds = (0..<300).map { _ in
            let x = Double(random.below(1000)), y = Double(random.below(300))
            return Broadphase.Bounds(minX: x, minY: y, maxX: x + Double(random.below(60)), maxY: y + Double(random.below(60)))
        }
        var expected: [[Int]] = []
        for i in bounds.indices { for j in (i + 1)..<bounds.count where bounds[i].overlaps(bounds[j]) { expected.append([i, j]) } }
        #expect(expected.count > 300)
        #expect(Broadphase.pairs(bounds).map { [$0.0, $0.1] } == expected)
    }

    @Test func pairsPastTheStoreAreCountedNotSilentlyLost() {
        // 40 items whose (fattened) bounds all overlap but whose cores are far apart: no item is
        // crowded, and their 780 pairs are more than the store's 2 × 8 × 40 + 1 = 641.
        let bounds = (0..<40).map { _ in Broadphase.Bounds(minX: 0, minY: 0, maxX: 1000, maxY: 1000) }
        let cores = (0..<40).map { Broadphase.Core(x: Double($0) * 25, y: 500, radius: 5) }
        var budget = Int.max, dropped = Broadphase.Dropped()
        let pairs = Broadphase.pairs(bounds, cores: cores, testBudget: &budget, dropped: &dropped)
        #expect(pairs.count == 641 && dropped.pastStore == 780 - 641 && dropped.crowdedPairs == 0)
    }

    @Test func aPileOfAHundredBoxesSettlesInsideItsBox() {
        // dynamics.pile.1k's scene at a tenth: a 10-wide grid dropped into a 400 pt wide box.
        let ids = (0..<100).map(DynamicItemID.init)
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 400, height: 800))
        for (k, id) in ids.enumerated() {
            a.setItem(id, DynamicBody(center: Point(38 + Double(k % 10) * 36 + Double(k / 10 % 2) * 3, 18 + Double(k / 10) * 36),
                                      size: Size(30, 30)))
        }
        a.add(GravityBehavior(items: ids))
        var collision = CollisionBehavior(items: ids)
        collision.translatesReferenceBoundsIntoBoundary = true
        a.add(collision)
        a.add(CollisionTests.material(ids) { $0.friction = 0.3 })
        a.advance(steps: 360)
        for id in ids {
            let body = a.bodies[id]!
            #expect(body.velocity.length < 3 && abs(body.angularVelocity) < 0.1, "\(id) still moves: \(body.velocity)")
            let c = body.center
            #expect(c.x > 14 && c.x < 386 && c.y > 14 && c.y < 786, "\(id) at \(c)")
        }
        // Settled, not squashed: 100 boxes of 900 pt² fill at least 90,000 pt² of the box's bottom.
        let top = ids.map { a.bodies[$0]!.center.y }.min()!
        #expect(top < 800 - 90_000 / 400 + 15 && top > 800 - 2 * 90_000 / 400, "top row at \(top)")
    }

    @Test(arguments: [Size(20, 20), Size(300, 120), Size(1000, 1000), Size(5000, 200), Size(40_000, 40_000)])
    func anEllipsesSidesStayWithinHalfAPointOfTheCurve(size: Size) {
        let rect = Rect(origin: Point(10, 20), size: size)
        let segments = CollisionBehavior.Boundary.ellipse(rect).segments
        #expect(segments.count % 4 == 0 && segments.count >= 8)
        #expect(segments.count == CollisionBehavior.Boundary.ellipseSides(rect))
        let a = size.width / 2, b = size.height / 2
        var worst = 0.0
        for (from, to) in segments {
            // The curve's point furthest from the chord is near its middle in parameter.
            let t0 = atan2((from.y - rect.midY) / b, (from.x - rect.midX) / a)
            var t1 = atan2((to.y - rect.midY) / b, (to.x - rect.midX) / a)
            if t1 < t0 { t1 += 2 * Double.pi }
            let chord = to.vector(from: from), normal = chord.perpendicular / chord.length
            for k in 1..<16 {
                let t = t0 + (t1 - t0) * Double(k) / 16
                let p = Point(rect.midX + a * cos(t), rect.midY + b * sin(t))
                worst = max(worst, abs(normal.dot(p.vector(from: from))))
            }
        }
        if segments.count < CollisionBehavior.Boundary.maximumEllipseSides {
            #expect(worst <= 0.5, "\(segments.count) sides stray \(worst) pt")
            // And not needlessly many: four fewer would stray further than allowed (or go below 8).
            #expect(segments.count == 8 || max(a, b) * (1 - cos(Double.pi / Double(segments.count - 4))) > 0.5)
        } else {
            #expect(worst > 0.5)
        }
    }

    @Test func aBoxDroppedInsideAnEllipseStaysInAndRestsAtItsBottom() {
        let id = DynamicItemID(0)
        let oval = Rect(x: 100, y: 100, width: 600, height: 400)
        var a = CollisionTests.world([DynamicBody(center: Point(300, 250), size: Size(40, 40))])
        a.add(GravityBehavior(items: [id]))
        var collision = CollisionBehavior(items: [id])
        collision.boundaries = [("bowl", .ellipse(oval))]
        a.add(collision)
        // Frictionless, so that only the bottom holds it; damped, so that it stops rocking there.
        a.add(CollisionTests.material([id]) { $0.resistance = 2; $0.elasticity = 0.3 })
        for _ in 0..<900 {
            a.advance(steps: 1)
            // The centre stays inside the ellipse: (x/a)² + (y/b)² < 1.
            let c = a.bodies[id]!.center
            let x = (c.x - 400) / 300, y = (c.y - 300) / 200
            #expect(x * x + y * y < 1, "left the ellipse at \(c)")
        }
        // On the flat side at the bottom, 0.3 pt above y = 500 (the side is a chord 33 pt long,
        // under a 40 pt box: resting level on the chord's two ends, frictionless, it may rest
        // anywhere it still covers both, 3.6 pt either side of the middle).
        let body = a.bodies[id]!
        #expect(abs(body.center.x - 400) < 4 && abs(body.center.y + 20 - 500) < 1, "rests at \(body.center)")
        #expect(abs(body.angle) < 0.02 && body.velocity.length < 1, "\(body.angle) \(body.velocity)")
    }

    @Test func aBoxOutsideAnEllipseStaysOut() {
        let id = DynamicItemID(0)
        var a = CollisionTests.world([DynamicBody(center: Point(560, 100), size: Size(40, 40))])
        a.add(GravityBehavior(items: [id]))
        var collision = CollisionBehavior(items: [id])
        collision.boundaries = [("ball", .ellipse(Rect(x: 300, y: 400, width: 400, height: 400)))]
        a.add(collision)
        var closest = Double.infinity
        for _ in 0..<120 {
            a.advance(steps: 1)
            closest = min(closest, a.bodies[id]!.center.distance(to: Point(500, 600)))
        }
        // It lands on the ball (sinking at most one step's fall, 12 pt, before it is pushed out:
        // a box's centre 20 pt from a face), slides off its right side and falls past it.
        #expect(closest > 200 + 20 - 12, "came within \(closest) of the centre")
        let c = a.bodies[id]!.center
        #expect(c.x > 700 && c.y > 600, "\(c)")
    }
}
