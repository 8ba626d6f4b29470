import TrellisGeometry

/// One dynamic item's part of the debug layer as plain numbers: its outline (part 0), centre
/// of mass (part 1) and velocity arrow (part 2, while it has one). The layer keeps one per item
/// in a contiguous array and compares them frame to frame; a `DebugShape` is made only for an
/// item whose record changed, so a frame costs a loop over numbers, not thousands of shapes.
public struct DebugItemRecord: Equatable, Sendable {
    /// The item's number (its `DynamicItemID`), the shapes' owner.
    public var owner: Int
    /// The view showing the item (its number), -1 for none: then the geometry is in content
    /// coordinates, otherwise in the view's own (origin at its centre, unturned).
    public var view: Int
    public var size: Size
    /// The item's centre and angle in content coordinates; zero on a view.
    public var center: Point
    public var angle: Double
    /// The velocity arrow's end from the centre, in grid steps of `DynamicAnimator.debugVelocityStep`
    /// (whole numbers, kept as Double so that no speed can trap a conversion); (0, 0): no arrow.
    public var arrowX: Double
    public var arrowY: Double

    public init(owner: Int, view: Int, size: Size, center: Point, angle: Double, arrowX: Double, arrowY: Double) {
        self.owner = owner; self.view = view; self.size = size; self.center = center; self.angle = angle
        self.arrowX = arrowX; self.arrowY = arrowY
    }

    /// Field by field, inlined: the layer compares every item's record every frame.
    @inlinable public static func == (a: DebugItemRecord, b: DebugItemRecord) -> Bool {
        a.arrowX == b.arrowX && a.arrowY == b.arrowY && a.owner == b.owner && a.view == b.view
            && a.center == b.center && a.angle == b.angle && a.size == b.size
    }

    /// A velocity arrow's end in grid steps: `value / step` rounded half away from zero, as
    /// `rounded()` does, without its library call (two per item, every frame) for any value a
    /// speed gives.
    @inlinable public static func gridSteps(_ value: Double, step: Double) -> Double {
        let q = value / step
        guard abs(q) < 1e15 else { return q.rounded() }
        return Double(Int64(q + (q < 0 ? -0.5 : 0.5)))
    }

    /// It draws a velocity arrow.
    @inlinable public var hasArrow: Bool { arrowX != 0 || arrowY != 0 }

    /// The outline (part 0) differs from `other`'s.
    @inlinable public func outlineDiffers(from other: DebugItemRecord) -> Bool {
        view != other.view || size != other.size || center != other.center || angle != other.angle
    }

    /// The centre of mass (part 1) differs from `other`'s.
    @inlinable public func centreDiffers(from other: DebugItemRecord) -> Bool {
        view != other.view || center != other.center
    }

    /// The arrow's end is at most one grid step from `other`'s on each axis, from the same start:
    /// viewers keep the arrow they have (see `PublishedDebugLayer`).
    @inlinable public func arrowIsWithinStep(of other: DebugItemRecord) -> Bool {
        view == other.view && center == other.center && abs(arrowX - other.arrowX) <= 1 && abs(arrowY - other.arrowY) <= 1
    }

    private var shapeView: Int? { view >= 0 ? view : nil }

    /// Part 0: the collision shape.
    public var outline: DebugShape {
        DebugShape(DebugShapeID(.item, owner, 0), .collision, .box(center: center, size: size, angle: angle), view: shapeView)
    }

    /// Part 1: the centre of mass.
    public var centreOfMass: DebugShape {
        DebugShape(DebugShapeID(.item, owner, 1), .centerOfMass, .point(center), view: shapeView)
    }

    /// Part 2: the velocity arrow (meaningful while `hasArrow`).
    public var arrow: DebugShape {
        let step = DynamicAnimator.debugVelocityStep
        let end = Point(x: center.x + arrowX * step, y: center.y + arrowY * step)
        return DebugShape(DebugShapeID(.item, owner, 2), .velocity, .arrow(from: center, to: end), view: shapeView)
    }

    /// The record's shapes, in part order.
    public func appendShapes(to shapes: inout [DebugShape]) {
        shapes.append(outline)
        shapes.append(centreOfMass)
        if hasArrow { shapes.append(arrow) }
    }
}
