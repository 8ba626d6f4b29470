import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// The bodies' index by id (an open-addressing table of its own) against the positions it must
/// give, through growth and removals.
@Suite struct DynamicBodiesTests {
    @Test func everyIdIsFoundWhereItIsThroughGrowthAndRemovals() {
        var bodies = DynamicBodies()
        var rng = SplitMix64(seed: 7)
        // Scattered, negative and clustered ids, so probe chains form and cross the table's end.
        var ids = (0..<3_000).map { _ in DynamicItemID(Int.random(in: -1_000_000...1_000_000, using: &rng)) }
        ids += (0..<500).map { DynamicItemID($0 * 1 << 20) }
        for (k, id) in ids.enumerated() {
            bodies.insert(DynamicBody(center: Point(Double(k), 0), size: Size(1, 1)), for: id)
        }
        for _ in 0..<1_000 { bodies.remove(ids[Int.random(in: 0..<ids.count, using: &rng)]) }
        var expected: [DynamicItemID: Double] = [:]
        for (k, id) in ids.enumerated() { expected[id] = Double(k) }   // a repeated id: the last body
        for (position, id) in bodies.ids.enumerated() {
            #expect(bodies.index(of: id) == position)
            #expect(bodies[id]?.center.x == expected[id])
        }
        let kept = Set(bodies.ids)
        #expect(kept.count == bodies.count)
        for id in ids where !kept.contains(id) { #expect(bodies.index(of: id) == nil) }
        #expect(bodies.index(of: DynamicItemID(1_000_001)) == nil)
    }

    @Test func insertingAnIdAgainReplacesItsBody() {
        var bodies = DynamicBodies()
        bodies.insert(DynamicBody(center: .zero, size: Size(1, 1)), for: DynamicItemID(5))
        bodies.insert(DynamicBody(center: Point(3, 4), size: Size(1, 1)), for: DynamicItemID(5))
        #expect(bodies.count == 1)
        #expect(bodies[DynamicItemID(5)]?.center == Point(3, 4))
    }
}
