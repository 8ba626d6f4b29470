import TrellisGeometry

/// One simulated item: where it is, how it moves, what it is made of. Kept in a contiguous
/// array by the animator (no object per item).
public struct DynamicBody: Hashable, Sendable {
    public var center: Point
    /// The item's bounds size: its collision shape and, with the density, its mass.
    public var size: Size
    /// Rotation in radians, clockwise on screen (y downwards).
    public var angle: Double = 0
    /// Points per second.
    public var velocity: Vector = .zero
    /// Radians per second.
    public var angularVelocity: Double = 0
    public var properties = DynamicItemProperties()

    /// Forces and torque gathered for the current step (UIKit Newtons: mass × pt/s²).
    var force: Vector = .zero
    var torque: Double = 0
    /// Seconds spent below the rest tolerances.
    var restTime: Double = 0

    public init(center: Point, size: Size) {
        self.center = center
        self.size = size
    }

    /// density × area, with 100×100 at density 1 weighing 1.
    public var mass: Double { properties.density * size.width * size.height / 10_000 }

    /// A solid rectangle's moment of inertia about its centre.
    public var inertia: Double { mass * (size.width * size.width + size.height * size.height) / 12 }

    /// 0 for an anchored (static) item or one without mass.
    public var inverseMass: Double {
        let m = mass
        return properties.isAnchored || m <= 0 ? 0 : 1 / m
    }

    /// 0 when it may not rotate.
    public var inverseInertia: Double {
        let i = inertia
        return properties.isAnchored || !properties.allowsRotation || i <= 0 ? 0 : 1 / i
    }
}
