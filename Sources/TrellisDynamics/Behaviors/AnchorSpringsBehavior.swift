#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisGeometry

/// Many items, each hung on a zero-length spring to its own fixed anchor: what the springy flow
/// layout gives each item it shows (one UIAttachmentBehavior(item:attachedToAnchor:) of length 0
/// per item in UIKit), held as one behaviour over two contiguous arrays so that a tile of items
/// costs one entry in the animator, not one behaviour each. The springs pull the centre only:
/// anchored at the centre they exert no torque.
///
/// A linear spring to a fixed point has a closed form, and each item moves on it
/// (`LinearForces`, `FreeMotion`): the springy layout's settling is the damped oscillator's
/// curve at every step, whatever the step.
public struct AnchorSpringsBehavior: DynamicBehavior {
    /// Hz, as UIAttachmentBehavior's frequency.
    public var frequency: Double
    /// The damping ratio (1 critical), as UIAttachmentBehavior's damping.
    public var damping: Double
    public private(set) var items: [DynamicItemID] = []
    public private(set) var anchors: [Point] = []

    public init(frequency: Double, damping: Double) {
        self.frequency = frequency
        self.damping = damping
    }

    public var phases: StepPhases { .forces }

    /// Hangs `item` on a spring to `anchor`, or moves its anchor there.
    public mutating func set(_ item: DynamicItemID, anchor: Point) {
        if let i = items.firstIndex(of: item) { anchors[i] = anchor } else {
            items.append(item)
            anchors.append(anchor)
        }
    }

    /// Takes the spring off `item`.
    public mutating func remove(_ item: DynamicItemID) {
        guard let i = items.firstIndex(of: item) else { return }
        items.remove(at: i)
        anchors.remove(at: i)
    }

    /// Takes the springs off the items `drop` says yes to; the others keep their order.
    public mutating func removeAll(where drop: (DynamicItemID) -> Bool) {
        var k = 0
        for i in items.indices where !drop(items[i]) {
            items[k] = items[i]
            anchors[k] = anchors[i]
            k += 1
        }
        items.removeLast(items.count - k)
        anchors.removeLast(anchors.count - k)
    }

    /// The anchor `item` hangs from, if it has a spring.
    public func anchor(of item: DynamicItemID) -> Point? { items.firstIndex(of: item).map { anchors[$0] } }

    public func applyForces(to bodies: inout DynamicBodies, step h: Double) {
        for i in items.indices {
            guard let b = bodies.index(of: items[i]) else { continue }
            bodies.addAnchoredSpring(at: b, anchor: anchors[i], length: 0, frequency: frequency, damping: damping)
        }
    }
}
