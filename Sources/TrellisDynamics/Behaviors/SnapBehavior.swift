import TrellisGeometry

/// UISnapBehavior: moves an item to a point with a damped spring and straightens it. `damping`
/// runs from 0 (most oscillation) to 1 (least), 0.5 by default, and is used as the spring's
/// damping ratio. UIKit publishes no stiffness: the spring's frequency here is 3 Hz, which
/// settles a default snap in about half a second, as UIKit's visibly does.
public struct SnapBehavior: DynamicBehavior {
    public var item: DynamicItemID
    /// Changing it puts the item in motion again.
    public var snapPoint: Point
    public var damping = 0.5

    public static let frequency = 3.0

    public init(item: DynamicItemID, snapTo point: Point) {
        self.item = item
        self.snapPoint = point
    }

    public var items: [DynamicItemID] { [item] }
    public var phases: StepPhases { .constraints }

    public func addConstraints(to constraints: inout ConstraintSet, bodies: DynamicBodies) {
        guard let b = bodies.index(of: item) else { return }
        constraints.addPoint(b: b, target: snapPoint, frequency: Self.frequency, dampingRatio: damping)
        constraints.addAngle(b: b, angle: 0, frequency: Self.frequency, dampingRatio: damping)
    }
}
