import Testing
import TrellisDynamics
@testable import TrellisCore

/// A live clock's ticks come when the loop gets to them: late, or several at once after a stall.
/// Physics takes its fixed steps whatever the tick times, so a live session ends where a manual
/// clock given the same steps does, bit for bit (the README's dynamics block, which once left
/// the card below the floor on a live clock).
@Suite struct LiveTickTimingTests {
    /// The README's drop: a card and item 3 falling onto a floor, the card bouncy and thrown up,
    /// item 3 on a spring field; collision first, so no step ever runs without the floor.
    func drop() throws -> CollectionView {
        var view = CollectionView(boundsSize: Size(375, 667), layout: FlowLayout(), data: items(8))
        view.dynamicsCatchUpLimit = 240
        try view.addBody(name: "card", center: Point(187.5, 100), size: Size(100, 100))
        var resolver = view.dynamicElementResolver()
        let card = try resolver.id(for: .body("card")), item3 = try resolver.id(for: .item("i3"))
        var collision = CollisionBehavior(items: [card, item3])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.boundaries = [("floor", .segment(Point(0, 600), Point(375, 600)))]
        view.addDynamicBehavior(collision, spec: TestBehaviorSpec(), resolver: resolver)
        view.addDynamicBehavior(GravityBehavior(items: [card, item3]), spec: TestBehaviorSpec(), resolver: resolver)
        var bouncy = ItemBehavior(items: [card])
        bouncy.properties.elasticity = 0.6
        view.addDynamicBehavior(bouncy, spec: TestBehaviorSpec(), resolver: resolver)
        view.addDynamicVelocity(linear: Vector(0, -800), angular: 0, to: [card])
        var field = FieldBehavior(.spring, items: [item3], position: Point(187.5, 333.5))
        field.region = .rect(Size(375, 667))
        view.addDynamicBehavior(field, spec: TestBehaviorSpec(), resolver: resolver)
        return view
    }

    func state(_ view: CollectionView) throws -> [DynamicItemState] {
        [try view.dynamicState(of: .body("card")), try view.dynamicState(of: .item("i3"))]
    }

    /// Tick times of a loop that stalls and then runs ticks back to back, ending at `end`.
    func lateAndBursty(until end: Double) -> [Double] {
        var times: [Double] = []
        var t = 0.0
        var k = 0
        while t < end {
            // 60 Hz, every seventh tick 0.25 s late, then three ticks 1 ms apart.
            t += k % 7 == 6 ? 0.25 : 1.0 / 60
            times.append(min(t, end))
            if k % 7 == 6 { for _ in 0..<3 { t += 0.001; times.append(min(t, end)) } }
            k += 1
        }
        return times
    }

    @Test func lateAndBurstyTicksTakeTheStepsAManualClockTakes() throws {
        var manual = try drop()
        var live = try drop()
        for n in 1...180 { manual.advance(to: Double(n) / 60) }
        for t in lateAndBursty(until: 3) { live.advance(to: t, dynamicsWhile: { true }, overrun: .drop) }
        #expect(live.dynamicsStepsDropped == 0)
        #expect(try state(live) == state(manual))
        // Three seconds on, the card rests on the floor, not under it.
        let card = try view(live, "card")
        #expect(card.center.y + card.size.height / 2 <= 600 + 0.5)
    }

    /// A stall past the catch-up limit drops steps (the loop must not freeze) but never makes
    /// a step longer: the card falls no further per step than it would at 60 Hz, so it cannot
    /// pass through the floor.
    @Test func aStallPastTheCatchUpLimitDropsStepsAndNeverLengthensOne() throws {
        var live = try drop()
        live.advance(to: 0.1, dynamicsWhile: { true }, overrun: .drop)
        live.advance(to: 10, dynamicsWhile: { true }, overrun: .drop)
        #expect(live.dynamicsStepsDropped > 0)
        for n in 1...120 { live.advance(to: 10 + Double(n) / 60, dynamicsWhile: { true }, overrun: .drop) }
        let card = try view(live, "card")
        #expect(card.center.y + card.size.height / 2 <= 600 + 0.5)
    }

    func view(_ view: CollectionView, _ body: String) throws -> DynamicItemState {
        try view.dynamicState(of: .body(body))
    }
}
