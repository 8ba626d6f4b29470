import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// The animator's invariant: after every step each item's position, angle and velocity are
/// finite, whatever a behaviour does. A behaviour whose step would break it has that step's
/// effect undone and is stopped (with an event saying why); the others act as if it were not
/// there, and the animator goes on.
@Suite struct FiniteStateTests {
    static let item = DynamicItemID(1), other = DynamicItemID(2)

    /// Adds a force (or sets a velocity) that is not finite: a behaviour gone wrong.
    struct Poison: DynamicBehavior {
        var items: [DynamicItemID]
        var velocity = false
        var phases: StepPhases { .forces }
        func applyForces(to bodies: inout DynamicBodies, step: Double) {
            for id in items {
                guard let k = bodies.index(of: id) else { continue }
                if velocity { bodies[index: k].velocity.dx = .infinity } else { bodies[index: k].force += Vector(.nan, 1) }
            }
        }
    }

    /// A spring of a length that is not a number: its constraint drives the item to NaN.
    struct PoisonSpring: DynamicBehavior {
        var items: [DynamicItemID]
        var phases: StepPhases { .constraints }
        func addConstraints(to constraints: inout ConstraintSet, bodies: DynamicBodies) {
            guard let b = bodies.index(of: items[0]) else { return }
            constraints.addDistance(a: nil, anchorA: Vector(0, 0), b: b, anchorB: .zero, length: .nan, frequency: 2, dampingRatio: 0)
        }
    }

    static func animator() -> DynamicAnimator {
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1000, height: 1000))
        a.setItem(item, DynamicBody(center: Point(100, 100), size: Size(50, 50)))
        a.setItem(other, DynamicBody(center: Point(400, 100), size: Size(50, 50)))
        return a
    }

    static func isFinite(_ b: DynamicBody) -> Bool {
        [b.center.x, b.center.y, b.angle, b.velocity.dx, b.velocity.dy, b.angularVelocity].allSatisfy(\.isFinite)
    }

    @Test(arguments: [false, true]) func aBehaviourWhoseForcesAreNotFiniteIsStoppedAndTheOthersActAsWithoutIt(velocity: Bool) {
        var reference = Self.animator()
        reference.add(GravityBehavior(items: [Self.item, Self.other]))
        var a = Self.animator()
        a.add(GravityBehavior(items: [Self.item, Self.other]))
        let poison = a.add(Poison(items: [Self.item], velocity: velocity))
        _ = a.drainEvents()
        reference.advance(steps: 30)
        a.advance(steps: 30)
        // The poison's first step was undone exactly: both items fall as under gravity alone.
        #expect(a.bodies[Self.item] == reference.bodies[Self.item])
        #expect(a.bodies[Self.other] == reference.bodies[Self.other])
        #expect(a.stopReason(poison) == DynamicAnimator.nonFiniteForces)
        let stops = a.drainEvents().filter { if case .stopped = $0 { true } else { false } }
        #expect(stops == [.stopped(behavior: poison, reason: DynamicAnimator.nonFiniteForces)])
    }

    @Test func aFieldThatWouldOverflowIsStoppedNotTheAnimator() {
        // The protocol refuses a negative drag; the engine holds whatever it is given.
        var a = Self.animator()
        var drag = FieldBehavior(.drag, items: [Self.item])
        drag.strength = -1e6
        let id = a.add(drag)
        a.add(GravityBehavior(items: [Self.other]))
        a.advance(steps: 6)
        #expect(a.bodies.bodies.allSatisfy(Self.isFinite))
        #expect(a.stopReason(id) != nil)
        #expect(a.bodies[Self.item]!.center == Point(100, 100))
        #expect(a.bodies[Self.other]!.velocity.dy > 0)
    }

    @Test func aConstraintThatWouldBreakAnItemStopsAndTheItemStaysWhereItWas() {
        var a = Self.animator()
        let spring = a.add(PoisonSpring(items: [Self.item]))
        a.add(GravityBehavior(items: [Self.other]))
        a.advance(steps: 10)
        #expect(a.bodies.bodies.allSatisfy(Self.isFinite))
        #expect(a.stopReason(spring) == DynamicAnimator.nonFiniteConstraints)
        #expect(a.bodies[Self.item]!.center == Point(100, 100))
        #expect(a.bodies[Self.item]!.velocity == .zero)
        let events = a.drainEvents()
        #expect(events.contains(.stopped(behavior: spring, reason: DynamicAnimator.nonFiniteConstraints)))
    }

    @Test func newSettingsStartAStoppedBehaviourAgain() {
        var a = Self.animator()
        var drag = FieldBehavior(.drag, items: [Self.item])
        drag.strength = -1e6
        let id = a.add(drag)
        a.add(GravityBehavior(items: [Self.item]))
        a.advance(steps: 2)
        #expect(a.stopReason(id) != nil)
        drag.strength = 2
        let updated = a.update(id, to: drag)
        #expect(updated)
        #expect(a.stopReason(id) == nil)
        a.advance(steps: 30)
        #expect(a.stopReason(id) == nil)
        // Drag now acts: the item falls slower than gravity alone would let it.
        #expect(a.bodies[Self.item]!.velocity.dy < 500)
        #expect(a.bodies[Self.item]!.velocity.dy > 0)
    }

    @Test func aStopIsKeptWhenABehaviourIsPutBack() {
        var a = Self.animator()
        let id = a.add(GravityBehavior(items: [Self.item]))
        a.restoreStop(id, reason: "why")
        a.advance(steps: 10)
        #expect(a.bodies[Self.item]!.center == Point(100, 100))
        #expect(a.stopReason(id) == "why")
        let events = a.drainEvents()
        #expect(!events.contains { if case .stopped = $0 { true } else { false } })
    }
}
