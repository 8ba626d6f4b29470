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
/// Choice: a linear spring to a fixed point has a closed form, and its force is chosen so that
/// the animator's symplectic step lands on it at every step: with a = e^(−ζωh), the step's
/// stiffness k·h² = 2 − c·h − 2a·cos(ω_d·h) and damping c·h = 1 − a² (per unit mass) give the
/// exact decay and period (a plain k = mω², c = 2mζω decays 5 % too fast per half period at
/// 0.8 Hz on 60 Hz steps, and the springy layout's settling is checked against the closed form).
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

    /// The step's stiffness and damping per unit mass for a step of `h` seconds (see above).
    func coefficients(step h: Double) -> (stiffness: Double, damping: Double) {
        let w = 2 * Double.pi * frequency, z = damping
        let a = exp(-z * w * h)
        let turn: Double
        if z < 1 {
            turn = cos(w * (1 - z * z).squareRoot() * h)
        } else {
            // Overdamped: the eigenvalues are real, e^(−ζωh ± ω√(ζ²−1)·h); cosh keeps their sum.
            turn = cosh(w * (z * z - 1).squareRoot() * h)
        }
        let ch = 1 - a * a
        return ((2 - ch - 2 * a * turn) / (h * h), ch / h)
    }

    public func applyForces(to bodies: inout DynamicBodies, step h: Double) {
        let (k, c) = coefficients(step: h)
        for i in items.indices {
            guard let b = bodies.index(of: items[i]) else { continue }
            let body = bodies[index: b]
            let dx = body.center.x - anchors[i].x, dy = body.center.y - anchors[i].y
            bodies[index: b].force += Vector(dx: -(k * dx + c * body.velocity.dx), dy: -(k * dy + c * body.velocity.dy)) * body.mass
        }
    }
}
