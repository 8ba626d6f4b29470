import TrellisGeometry

/// The ten kinds of UIFieldBehavior (its class factories; the custom evaluation block is left
/// out: a closure cannot cross the protocol), with the settings only some kinds have. The force
/// laws are in `FieldBehavior`'s documentation.
public enum FieldKind: Hashable, Sendable {
    /// linearGravityField(direction:): the same acceleration everywhere, strength × direction
    /// UIKit gravities (1000 pt/s² each), whatever the mass.
    case linearGravity(direction: Vector)
    /// radialGravityField(position:): towards the position (away for negative strength).
    case radialGravity
    /// velocityField(direction:): sets the item's velocity to strength × direction pt/s.
    case velocity(direction: Vector)
    /// dragField(): slows an item in proportion to its velocity.
    case drag
    /// noiseField(smoothness:animationSpeed:): smooth random accelerations; smoothness 0 (as
    /// noisy as possible) … 1 (as smooth as possible), animationSpeed in Hz (0 freezes it).
    case noise(smoothness: Double, animationSpeed: Double)
    /// turbulenceField(smoothness:animationSpeed:): noise scaled by the item's speed.
    case turbulence(smoothness: Double, animationSpeed: Double)
    /// springField(): Hooke's law towards the position.
    case spring
    /// electricField(): F = qE, towards the position for positive charge × strength.
    case electric
    /// magneticField(): F = q v × B with B along +z, turning positive charges anticlockwise on
    /// screen (clockwise for negative strength).
    case magnetic
    /// vortexField(): tangential, anticlockwise on screen for positive strength.
    case vortex

    /// The falloff a field of this kind starts with: 2 (inverse square) for radial gravity and
    /// the electric field, as SpriteKit's SKFieldNode sets them; 0 (uniform) for the others
    /// (UIKit's documented default; SpriteKit's spring falloff of −1 is this spring's law
    /// already, which is proportional to distance).
    public var defaultFalloff: Double {
        switch self {
        case .radialGravity, .electric: return 2
        default: return 0
        }
    }
}
