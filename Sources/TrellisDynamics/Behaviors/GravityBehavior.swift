import TrellisGeometry

/// UIGravityBehavior: the same acceleration for every item, whatever its mass; a magnitude of
/// 1 is 1000 pt/s² ("UIKit gravity"), pointing down by default.
public struct GravityBehavior: DynamicBehavior {
    public var items: [DynamicItemID]
    /// The acceleration in UIKit gravities (length = magnitude).
    public var gravityDirection = Vector(dx: 0, dy: 1)

    /// 1000 pt/s² per unit of magnitude.
    public static let pointsPerSecondSquared = 1000.0

    public init(items: [DynamicItemID]) { self.items = items }

    /// The direction's angle in radians (π/2 points down); 0 when the magnitude is 0.
    public var angle: Double { magnitude == 0 ? 0 : gravityDirection.angle }
    public var magnitude: Double { gravityDirection.length }

    /// Sets angle and magnitude together, as `setAngle(_:magnitude:)`.
    public mutating func setAngle(_ angle: Double, magnitude: Double) {
        gravityDirection = Vector(angle: angle, length: magnitude)
    }

    public var phases: StepPhases { .forces }

    public func applyForces(to bodies: inout DynamicBodies, step: Double) {
        let acceleration = gravityDirection * Self.pointsPerSecondSquared
        for id in items {
            guard let index = bodies.index(of: id) else { continue }
            // Constant over the step: it moves the item exactly (½·g·t²).
            bodies.addSteadyForce(acceleration * bodies[index: index].mass, at: index)
        }
    }
}
