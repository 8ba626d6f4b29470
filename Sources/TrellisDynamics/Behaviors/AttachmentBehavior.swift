import TrellisGeometry

/// UIAttachmentBehavior: an item held to a fixed anchor or to another item, each end at an
/// offset from its item's centre, at `length`: a spring of `frequency` Hz and `damping` ratio,
/// or a rigid rod at frequency 0 (UIKit's defaults: frequency 0, damping 0).
public struct AttachmentBehavior: DynamicBehavior {
    public enum Anchor: Hashable, Sendable {
        /// A point in the reference coordinates.
        case point(Point)
        /// Another item, at an offset from its centre (in its own turning frame).
        case item(DynamicItemID, offset: Vector)
    }

    public var item: DynamicItemID
    /// Where on `item` the attachment holds, from its centre.
    public var offset: Vector
    public var anchor: Anchor
    /// Points; nil until the animator sets it to the distance when the behaviour is added
    /// ("the system sets initial length automatically").
    public var length: Double?
    public var frequency: Double = 0
    public var damping: Double = 0

    public init(item: DynamicItemID, offset: Vector = .zero, anchor: Anchor) {
        self.item = item
        self.offset = offset
        self.anchor = anchor
    }

    /// Without a length, the distance between the ends when it is added.
    public mutating func willBeAdded(to bodies: DynamicBodies) {
        if length == nil { length = currentDistance(bodies) ?? 0 }
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

    public func addConstraints(to constraints: inout ConstraintSet, bodies: DynamicBodies) {
        guard let b = bodies.index(of: item) else { return }
        let length = length ?? currentDistance(bodies) ?? 0
        switch anchor {
        case .point(let point):
            constraints.addDistance(a: nil, anchorA: Vector(dx: point.x, dy: point.y), b: b, anchorB: offset,
                                    length: length, frequency: frequency, dampingRatio: damping)
        case .item(let other, let otherOffset):
            guard let a = bodies.index(of: other) else { return }
            constraints.addDistance(a: a, anchorA: otherOffset, b: b, anchorB: offset,
                                    length: length, frequency: frequency, dampingRatio: damping)
        }
    }
}
