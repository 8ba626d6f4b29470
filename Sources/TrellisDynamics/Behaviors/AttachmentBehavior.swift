import TrellisGeometry

/// UIAttachmentBehavior: an item held to a fixed anchor or to another item. The classic kind,
/// `.spring`, holds each end (at an offset from its item's centre) at `length`: a spring of
/// `frequency` Hz and `damping` ratio, or a rigid rod at frequency 0 (UIKit's defaults:
/// frequency 0, damping 0). iOS 9's kinds map onto Box2D 2.x joints as PhysicsKit's do: limit
/// is a rope, fixed a weld, pin a revolute joint, sliding a prismatic joint.
///
/// Where Apple is silent: sliding, fixed and pin join the items at one point (`attachmentAnchor`)
/// and keep what they keep relative to the items' poses when the behaviour is added, as Box2D's
/// joint definitions do (reference angle, anchors and axis in each body's frame); the range of a
/// pin counts the relative angle from then, and that of a sliding attachment the translation
/// along the axis. Only a pin uses `frictionTorque` (the other kinds either forbid relative
/// turning or, like Box2D's distance and rope joints, have no turning row to resist).
public struct AttachmentBehavior: DynamicBehavior {
    public enum Anchor: Hashable, Sendable {
        /// A point in the reference coordinates.
        case point(Point)
        /// Another item, at an offset from its centre (in its own turning frame).
        case item(DynamicItemID, offset: Vector)
    }

    /// What the attachment holds (UIKit's factory methods of iOS 9).
    public enum Kind: Hashable, Sendable {
        /// The classic attachment: a spring at `frequency` > 0, a rigid rod at 0.
        case spring
        /// The item slides along `axis` (a unit vector in reference coordinates when added) and
        /// may not turn against the anchor; `attachmentRange` limits the translation (points).
        case sliding(axis: Vector)
        /// A rope: the ends at most `length` apart, slack inside.
        case limit
        /// The item fused to the anchor at `attachmentAnchor`.
        case fixed
        /// The item and the anchor turn independently about `attachmentAnchor`;
        /// `frictionTorque` resists the relative turning, `attachmentRange` limits its angle.
        case pin
    }

    // A change to what the joint holds takes a new frame when the behaviour is next added or updated.
    public var item: DynamicItemID { didSet { frame = nil } }
    /// Where on `item` the attachment holds, from its centre (spring and limit; and the joint's
    /// point for sliding, fixed and pin to another item without an `attachmentAnchor`).
    public var offset: Vector { didSet { frame = nil } }
    public var anchor: Anchor { didSet { frame = nil } }
    public var kind: Kind = .spring { didSet { frame = nil } }
    /// Points; nil until the animator sets it to the distance when the behaviour is added
    /// ("the system sets initial length automatically"). Spring and limit.
    public var length: Double?
    /// Hz (spring kind only).
    public var frequency: Double = 0
    /// Damping ratio, 1 critical (spring kind only).
    public var damping: Double = 0
    /// Resistance of a pin to relative turning, 0 by default. Apple gives no units: here 1 is
    /// the torque of one UIKit Newton at a 100 pt lever arm (10,000 mass·pt²/s², Box2D's N·m at
    /// 100 pt per metre), enough to stop a 100×100 item of density 1 turning at 6 rad/s in 1 s.
    public var frictionTorque: Double = 0
    /// Sliding: translation limits along the axis in points, which must include 0 (where the
    /// item is when added). Pin: limits of the relative angle in radians, positive clockwise on
    /// screen, 0 being the angle when added. Infinite (no limit) by default; other kinds ignore it.
    public var attachmentRange = FloatRange.infinite
    /// Sliding, fixed and pin: the joint's point in reference coordinates when added (UIKit's
    /// attachmentAnchor). nil: the anchor's point, or for an anchor item the end of `item`
    /// (its centre plus `offset`).
    public var attachmentAnchor: Point? { didSet { frame = nil } }
    /// Sliding, fixed and pin, as they were when added (see `JointFrame`).
    var frame: JointFrame?

    public init(item: DynamicItemID, offset: Vector = .zero, anchor: Anchor) {
        self.item = item
        self.offset = offset
        self.anchor = anchor
    }

    public init(kind: Kind, item: DynamicItemID, offset: Vector = .zero, anchor: Anchor) {
        self.init(item: item, offset: offset, anchor: anchor)
        self.kind = kind
    }

    /// A joint's points in each item's own frame (body a is the anchor item or the world, b the
    /// item), b's angle minus a's, and a sliding axis in a's frame: fixed when it is added.
    struct JointFrame: Hashable, Sendable {
        var localA: Vector
        var localB: Vector
        var referenceAngle: Double
        var axis: Vector
    }

    // MARK: Validation

    /// Why these settings cannot be used, in words for a user; nil when they can. A sliding
    /// axis counts as a unit vector within 0.1 % of length 1 (so (0.7071, 0.7071) passes), and
    /// is then used normalised.
    public static func validate(kind: Kind, attachmentRange range: FloatRange, frictionTorque: Double = 0,
                                length: Double? = nil, frequency: Double = 0, damping: Double = 0) -> String? {
        if range.minimum.isNaN || range.maximum.isNaN || range.minimum > range.maximum {
            return "attachmentRange's minimum (\(range.minimum)) must not be above its maximum (\(range.maximum))"
        }
        if case .sliding(let axis) = kind {
            if !(abs(axis.length - 1) <= 1e-3) {
                return "a sliding attachment's axisOfTranslation must be a unit vector; (\(axis.dx), \(axis.dy)) has length \(axis.length)"
            }
            if !range.contains(0) {
                return "a sliding attachment's attachmentRange must include 0 (the item's place when added); it is \(range.minimum)...\(range.maximum)"
            }
        }
        if !(frictionTorque >= 0) || frictionTorque.isInfinite { return "frictionTorque must be a finite number, 0 or more" }
        if let length, !(length >= 0) || length.isInfinite { return "length must be a finite number of points, 0 or more" }
        if !(frequency >= 0) || frequency.isInfinite { return "frequency must be a finite number of Hz, 0 or more" }
        if !(damping >= 0) || damping.isInfinite { return "damping must be a finite ratio, 0 or more" }
        return nil
    }

    /// `validate` on these settings. The animator does not check: it slides along a non-unit
    /// axis normalised, and pushes an item outside its range back into it.
    public var validationError: String? {
        Self.validate(kind: kind, attachmentRange: attachmentRange, frictionTorque: frictionTorque,
                      length: length, frequency: frequency, damping: damping)
    }

    // MARK: DynamicBehavior

    /// Without a length, the distance between the ends when it is added; sliding, fixed and pin
    /// take their frame from the items' poses then.
    public mutating func willBeAdded(to bodies: DynamicBodies) {
        if length == nil { length = currentDistance(bodies) ?? 0 }
        if frame == nil { frame = jointFrame(bodies) }
    }

    public var phases: StepPhases { .constraints }

    /// The joint's frame taken from the items' poses when added (sliding, fixed, pin): restored,
    /// the joint keeps what it kept rather than the poses of the moment it is restored.
    public var carryOver: [Double] {
        guard let f = frame else { return [] }
        return [f.localA.dx, f.localA.dy, f.localB.dx, f.localB.dy, f.referenceAngle, f.axis.dx, f.axis.dy]
    }

    public mutating func restore(carryOver c: [Double]) {
        guard c.count == 7, c.allSatisfy(\.isFinite) else { return }
        frame = JointFrame(localA: Vector(c[0], c[1]), localB: Vector(c[2], c[3]), referenceAngle: c[4], axis: Vector(c[5], c[6]))
    }

    public var items: [DynamicItemID] {
        if case .item(let other, _) = anchor { return [item, other] }
        return [item]
    }

    /// The distance between the two ends now.
    public func currentDistance(_ bodies: DynamicBodies) -> Double? {
        guard let body = bodies[item] else { return nil }
        let end = body.center + rotated(offset, by: body.angle)
        switch anchor {
        case .point(let point): return end.distance(to: point)
        case .item(let other, let otherOffset):
            guard let o = bodies[other] else { return nil }
            return end.distance(to: o.center + rotated(otherOffset, by: o.angle))
        }
    }

    /// The joint's frame from the items' poses now (nil for spring and limit, or a missing item).
    func jointFrame(_ bodies: DynamicBodies) -> JointFrame? {
        guard let body = bodies[item] else { return nil }
        var axis = Vector.zero
        switch kind {
        case .spring, .limit: return nil
        case .sliding(let worldAxis): axis = worldAxis.normalized
        case .fixed, .pin: break
        }
        let inverse = { (v: Vector, angle: Double) in rotated(v, by: -angle) }
        switch anchor {
        case .point(let point):
            let joint = attachmentAnchor ?? point
            return JointFrame(localA: Vector(dx: joint.x, dy: joint.y), localB: inverse(joint.vector(from: body.center), body.angle),
                              referenceAngle: body.angle, axis: axis)
        case .item(let other, _):
            guard let o = bodies[other] else { return nil }
            let joint = attachmentAnchor ?? body.center + rotated(offset, by: body.angle)
            return JointFrame(localA: inverse(joint.vector(from: o.center), o.angle), localB: inverse(joint.vector(from: body.center), body.angle),
                              referenceAngle: body.angle - o.angle, axis: inverse(axis, o.angle))
        }
    }

    public func addConstraints(to constraints: inout ConstraintSet, bodies: DynamicBodies) {
        guard let b = bodies.index(of: item) else { return }
        var a: Int?, anchorA = Vector.zero
        switch anchor {
        case .point(let point):
            anchorA = Vector(dx: point.x, dy: point.y)
        case .item(let other, let otherOffset):
            guard let index = bodies.index(of: other) else { return }
            a = index
            anchorA = otherOffset
        }
        switch kind {
        case .spring:
            let length = length ?? currentDistance(bodies) ?? 0
            constraints.addDistance(a: a, anchorA: anchorA, b: b, anchorB: offset,
                                    length: length, frequency: frequency, dampingRatio: damping)
        case .limit:
            let length = length ?? currentDistance(bodies) ?? 0
            constraints.addRope(a: a, anchorA: anchorA, b: b, anchorB: offset, length: length)
        case .sliding, .fixed, .pin:
            guard let frame = frame ?? jointFrame(bodies) else { return }
            switch kind {
            case .sliding:
                guard frame.axis != .zero else { return }
                constraints.addSliding(a: a, anchorA: frame.localA, b: b, anchorB: frame.localB, axis: frame.axis,
                                       referenceAngle: frame.referenceAngle, range: attachmentRange)
            case .fixed:
                constraints.addFixed(a: a, anchorA: frame.localA, b: b, anchorB: frame.localB, referenceAngle: frame.referenceAngle)
            default:
                constraints.addPin(a: a, anchorA: frame.localA, b: b, anchorB: frame.localB, referenceAngle: frame.referenceAngle,
                                   range: attachmentRange, frictionTorque: frictionTorque * Self.torqueUnit)
            }
        }
    }

    /// mass·pt²/s² per unit of `frictionTorque`: a UIKit Newton (100 mass·pt/s²) at 100 pt.
    public static let torqueUnit = 10_000.0
}
