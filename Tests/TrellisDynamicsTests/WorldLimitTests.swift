import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// The animator's world is ±1e12 (`DynamicBody.worldLimit`): finite is not enough, since
/// joints that fight each other can carry a light item to 1e100 points and beyond, finite, until
/// the distance to it overflows (an attachment added then had an infinite length, which a
/// `dynamics.list` reply could not carry: the soak found it).
@Suite struct WorldLimitTests {
    static let first = DynamicItemID(0), second = DynamicItemID(1)

    /// A 1×10 item pinned to another and slid along an axis through a point, both with a huge
    /// friction torque: the joints cannot agree, and its corrections run away.
    static func fightingJoints() -> DynamicAnimator {
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 375, height: 667))
        a.setItem(first, DynamicBody(center: Point(86.6, 382.5), size: Size(1, 10)))
        a.setItem(second, DynamicBody(center: Point(307.5, 448.6), size: Size(100, 10)))
        var pin = AttachmentBehavior(kind: .pin, item: first, offset: Vector(-60.3, 0), anchor: .item(second, offset: Vector(-47.4, 0)))
        pin.frictionTorque = 1e6
        var slide = AttachmentBehavior(kind: .sliding(axis: Vector(1, 0)), item: first, offset: Vector(-33.6, 0),
                                       anchor: .point(Point(186.9, 547.2)))
        slide.frictionTorque = 1e6
        a.add(pin)
        a.add(slide)
        a.add(GravityBehavior(items: [first, second]))
        return a
    }

    @Test func jointsThatRunAwayAreStoppedAtTheWorldsEdge() {
        var a = Self.fightingJoints()
        var farthest = 0.0
        var stopped: [String] = []
        for _ in 0..<600 {
            a.advance(steps: 1)
            for body in a.bodies.bodies {
                #expect(body.isInsideWorld, "\(body)")
                farthest = max(farthest, abs(body.center.x), abs(body.center.y), abs(body.angle))
            }
            for case .stopped(_, let reason) in a.drainEvents() { stopped.append(reason) }
        }
        #expect(farthest <= DynamicBody.worldLimit)
        #expect(stopped.contains(DynamicAnimator.nonFiniteConstraints), "\(stopped)")
        // What is added after takes finite settings from the items: an attachment's length.
        let late = a.add(AttachmentBehavior(kind: .spring, item: Self.first, anchor: .point(Point(0, 0))))
        let length = (a.behavior(late) as? AttachmentBehavior)?.length
        #expect(length?.isFinite == true, "\(String(describing: length))")
    }

    @Test func anItemOutsideTheWorldIsNotTakenIn() {
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 375, height: 667))
        let far = a.setItem(Self.first, DynamicBody(center: Point(2e12, 0), size: Size(10, 10)))
        let huge = a.setItem(Self.first, DynamicBody(center: Point(0, 0), size: Size(1e300, 10)))
        let edge = a.setItem(Self.first, DynamicBody(center: Point(-1e12, 1e12), size: Size(10, 10)))
        #expect(!far && !huge && edge)
        #expect(a.bodies.count == 1)
    }
}
