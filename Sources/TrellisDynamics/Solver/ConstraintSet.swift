#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisGeometry

/// The springs and constraints of one step, in flat arrays by kind, as the behaviours add
/// them: springs act as forces, rigid rods are solved by sequential impulses (Box2D 2.x).
public struct ConstraintSet: Sendable {
    var springs: [DistanceSpring] = []
    var angleSprings: [AngleSpring] = []
    var rods: [DistanceJoint] = []
    var contacts: [Contact] = []
    /// How the contacts are solved, alone or in pairs (set once per step: `groupedContacts`).
    var contactGroups: [ContactGroup] = []
    /// The animator's reference bounds (for boundaries made of them).
    public internal(set) var referenceBounds: Rect

    public init(referenceBounds: Rect) { self.referenceBounds = referenceBounds }

    /// A distance between two anchors, body `a` (nil: `anchorA` is a fixed point in the
    /// world) and body `b`: a spring of `frequency` Hz, or a rigid rod at frequency 0.
    public mutating func addDistance(a: Int?, anchorA: Vector, b: Int, anchorB: Vector, length: Double,
                                     frequency: Double, dampingRatio: Double) {
        if frequency > 0 {
            springs.append(DistanceSpring(a: a, localA: anchorA, b: b, localB: anchorB, length: length,
                                          frequency: frequency, dampingRatio: dampingRatio))
        } else {
            rods.append(DistanceJoint(a: a, localA: anchorA, b: b, localB: anchorB, length: length))
        }
    }

    /// Pulls body `b`'s centre to `target` with a zero-length spring.
    public mutating func addPoint(b: Int, target: Point, frequency: Double, dampingRatio: Double) {
        springs.append(DistanceSpring(a: nil, localA: Vector(dx: target.x, dy: target.y), b: b, localB: .zero,
                                      length: 0, frequency: frequency, dampingRatio: dampingRatio))
    }

    /// Turns body `b` to `angle` with a torsion spring.
    public mutating func addAngle(b: Int, angle: Double, frequency: Double, dampingRatio: Double) {
        angleSprings.append(AngleSpring(b: b, target: angle, frequency: frequency, dampingRatio: dampingRatio))
    }

    /// The highest spring frequency (for sub-stepping stiff springs).
    var highestFrequency: Double {
        max(springs.lazy.map(\.frequency).max() ?? 0, angleSprings.lazy.map(\.frequency).max() ?? 0)
    }

    func applySpringForces(_ bodies: inout [DynamicBody]) {
        DistanceSpring.applyForces(springs, to: &bodies)
        for spring in angleSprings { spring.applyForce(&bodies) }
    }
}

/// `R(angle)·v`: a body-local offset turned with the body.
@inline(__always) func rotated(_ v: Vector, by angle: Double) -> Vector {
    if angle == 0 { return v }
    let c = cos(angle), s = sin(angle)
    return Vector(dx: c * v.dx - s * v.dy, dy: s * v.dx + c * v.dy)
}

/// The velocity of the point at offset `r` of a body turning at `w`: ω × r.
@inline(__always) func cross(_ w: Double, _ r: Vector) -> Vector { Vector(dx: -w * r.dy, dy: w * r.dx) }
