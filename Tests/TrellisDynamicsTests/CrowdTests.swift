import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// Items spawned on top of each other cost what a pile costs, not N²: crowded items keep a few
/// pairs each, every pair of an uncrowded item is kept, and a step's contacts are bounded by
/// `ContactLimits` however the items crowd.
@Suite struct CrowdTests {
    static func box(_ center: Point, _ size: Size = Size(30, 30)) -> Broadphase.Bounds {
        Broadphase.Bounds(minX: center.x - size.width / 2, minY: center.y - size.height / 2,
                          maxX: center.x + size.width / 2, maxY: center.y + size.height / 2)
    }

    static func cores(_ bounds: [Broadphase.Bounds]) -> [Broadphase.Core] {
        bounds.map { Broadphase.Core(x: ($0.minX + $0.maxX) / 2, y: ($0.minY + $0.maxY) / 2,
                                     radius: min($0.maxX - $0.minX, $0.maxY - $0.minY) / 2) }
    }

    @Test func aCrowdAtOnePointKeepsAFewPairsPerItemNotEveryPair() {
        let n = 400
        let bounds = (0..<n).map { _ in Self.box(Point(100, 100)) }
        var budget = Int.max, dropped = Broadphase.Dropped()
        let pairs = Broadphase.pairs(bounds, cores: Self.cores(bounds), testBudget: &budget, dropped: &dropped)
        #expect(pairs.count <= Broadphase.crowdShare * n)
        #expect(dropped.crowdedPairs == n * (n - 1) / 2 - pairs.count)
        // Each item keeps its share, and the picks are spread (not every item on the same few).
        var partners = [Int](repeating: 0, count: n)
        for (i, j) in pairs { partners[i] += 1; partners[j] += 1 }
        #expect(partners.allSatisfy { $0 >= Broadphase.crowdShare })
        #expect(partners.max()! < 4 * Broadphase.crowdShare)
        // Sorted by first then second index, as the contacts' warm start expects.
        let keys = pairs.map { $0.0 * n + $0.1 }
        #expect(keys == keys.sorted())
    }

    @Test func aFloorUnderManySmallBoxesKeepsEveryOne() {
        // The floor overlaps 60 boxes (crowded by them), but none of them is crowded: all kept.
        var bounds = [Self.box(Point(1000, 100), Size(2000, 20))]
        for k in 0..<60 { bounds.append(Self.box(Point(15 + 31 * Double(k), 100 - 10 - 15 + 0.2), Size(30, 30))) }
        var budget = Int.max, dropped = Broadphase.Dropped()
        let pairs = Broadphase.pairs(bounds, cores: Self.cores(bounds), testBudget: &budget, dropped: &dropped)
        #expect(pairs.filter { $0.0 == 0 }.count == 60)
        #expect(dropped.crowdedPairs == 0)
        #expect(pairs.map { [$0.0, $0.1] } == Broadphase.pairs(bounds).map { [$0.0, $0.1] })
    }

    @Test func theCandidateTestsStopAtTheirBudget() {
        let bounds = (0..<200).map { _ in Self.box(Point(50, 50)) }
        var budget = 1000, dropped = Broadphase.Dropped()
        _ = Broadphase.pairs(bounds, cores: Self.cores(bounds), testBudget: &budget, dropped: &dropped)
        #expect(budget == 0)
        #expect(dropped.exhausted)
    }

    /// `count` boxes of 30×30 at one point in a 600×600 box, falling; or (`grid`) the same boxes
    /// 36 pt apart in rows of 15, as `dynamics.pile.1k` drops them.
    static func spawn(_ count: Int, grid: Bool = false) -> (DynamicAnimator, [DynamicItemID]) {
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 600, height: 600))
        let ids = (0..<count).map(DynamicItemID.init)
        for (k, id) in ids.enumerated() {
            let center = grid ? Point(48 + 36 * Double(k % 15), 30 + 36 * Double(k / 15)) : Point(300, 300)
            a.setItem(id, DynamicBody(center: center, size: Size(30, 30)))
        }
        var collision = CollisionBehavior(items: ids)
        collision.translatesReferenceBoundsIntoBoundary = true
        a.add(collision)
        a.add(GravityBehavior(items: ids))
        a.add(CollisionTests.material(ids) { $0.friction = 0.3 })
        return (a, ids)
    }

    @Test func itemsSpawnedAtOnePointSpreadIntoAPileAtAPilesCost() {
        var (pile, _) = Self.spawn(200, grid: true)
        var (a, ids) = Self.spawn(200)
        var pileTotal = 0, total = 0, most = 0
        for _ in 0..<360 {
            pile.advance(steps: 1)
            a.advance(steps: 1)
            pileTotal += pile.lastStepContacts
            total += a.lastStepContacts
            most = max(most, a.lastStepContacts)
            #expect(!a.lastStepDropped.exceededLimits)
        }
        // The solver's work is its contacts. Every pair of 200 boxes at one point would be 40,000
        // contacts a step; as the crowd spreads, each box keeps a few, so over the run the spawn
        // costs a few times what the pile does (2.4 times when written), and its busiest step
        // stays far below every pair (6,129 when written).
        #expect(total <= 3 * pileTotal, "\(total) contacts in all; the pile's: \(pileTotal)")
        #expect(most <= 10_000, "\(most) contacts in one step")
        // Then a pile: inside the box, at rest, no two boxes more than a few points into each other.
        for id in ids {
            let b = a.bodies[id]!
            #expect(b.center.x > 14 && b.center.x < 586 && b.center.y > 14 && b.center.y < 586, "\(id) at \(b.center)")
            #expect(b.velocity.length < 5, "\(id) moves at \(b.velocity)")
        }
        let centres = ids.map { a.bodies[$0]!.center }
        var deepest = 0.0
        for i in centres.indices {
            for j in centres.indices where j > i {
                let d = centres[i].distance(to: centres[j])
                deepest = max(deepest, 30 - d)
            }
        }
        #expect(deepest < 8, "two boxes' centres \(30 - deepest) pt apart")
    }

    @Test func pastTheContactLimitTheRestOfAStepsContactsAreLeftOutAndCounted() {
        var (a, _) = Self.spawn(100)
        a.contactLimits = ContactLimits(points: 50, candidateTests: 1_000_000)
        a.advance(steps: 3)
        #expect(a.lastStepContacts == 50)
        #expect(a.lastStepDropped.points > 0)
        #expect(a.stepsOverContactLimits == 3)
        #expect(a.bodies.bodies.allSatisfy { $0.center.x.isFinite && $0.center.y.isFinite })
    }
}
