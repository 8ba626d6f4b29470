import TrellisGeometry

/// One simulated item: where it is, how it moves, what it is made of. Kept in a contiguous
/// array by the animator (no object per item).
public struct DynamicBody: Hashable, Sendable {
    public var center: Point
    /// The item's bounds size: its collision shape and, with the density, its mass.
    public var size: Size { didSet { updateInverseMass() } }
    /// Rotation in radians, clockwise on screen (y downwards).
    public var angle: Double = 0
    /// Points per second.
    public var velocity: Vector = .zero
    /// Radians per second.
    public var angularVelocity: Double = 0
    public var properties = DynamicItemProperties() { didSet { updateInverseMass() } }

    /// Forces and torque gathered for the current step (UIKit Newtons: mass × pt/s²).
    var force: Vector = .zero
    var torque: Double = 0
    /// Seconds spent below the rest tolerances.
    var restTime: Double = 0

    public init(center: Point, size: Size) {
        self.center = center
        self.size = size
        updateInverseMass()
    }

    /// The bound of the animator's world, in points, radians, and per second of each: a body's
    /// centre, size, angle and velocities stay within ±1e12. Finite is not enough: a runaway
    /// constraint can carry a body to 1e291 points, finite, but its distances then overflow to
    /// infinity (a joint's length, a reply). At 1e12 a Double still resolves 0.0001 pt and its
    /// squares (1e24) are far from overflowing. (**ours**: Box2D asserts a similar b2_huge.)
    public static let worldLimit = 1e12

    /// Every number of its state finite and within `worldLimit` (what the animator takes in and
    /// keeps after every step).
    public var isInsideWorld: Bool {
        let limit = Self.worldLimit
        return abs(center.x) <= limit && abs(center.y) <= limit && abs(size.width) <= limit && abs(size.height) <= limit
            && abs(angle) <= limit && abs(velocity.dx) <= limit && abs(velocity.dy) <= limit && abs(angularVelocity) <= limit
    }

    /// The pose (centre and angle) within `worldLimit`.
    var poseIsInsideWorld: Bool {
        let limit = Self.worldLimit
        return abs(center.x) <= limit && abs(center.y) <= limit && abs(angle) <= limit
    }

    /// density × area, with 100×100 at density 1 weighing 1.
    public var mass: Double { properties.density * size.width * size.height / 10_000 }

    /// A solid rectangle's moment of inertia about its centre.
    public var inertia: Double { mass * (size.width * size.width + size.height * size.height) / 12 }

    /// 0 for an anchored (static) item or one without mass. Kept up to date with the size and
    /// properties rather than worked out when read: every spring, joint row and contact reads
    /// it, and working it out there was a fifth of a step of 10,000 springs.
    public private(set) var inverseMass: Double = 0

    /// 0 when it may not rotate (kept as `inverseMass` is).
    public private(set) var inverseInertia: Double = 0

    private mutating func updateInverseMass() {
        let m = mass, i = inertia
        inverseMass = properties.isAnchored || m <= 0 ? 0 : 1 / m
        inverseInertia = properties.isAnchored || !properties.allowsRotation || i <= 0 ? 0 : 1 / i
    }
}
