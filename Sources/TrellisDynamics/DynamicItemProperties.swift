/// The material of a dynamic item, as UIDynamicItemBehavior sets it, with UIKit's defaults.
public struct DynamicItemProperties: Hashable, Sendable {
    /// Mass per area: a 100×100 item of density 1 has mass 1 (UIKit's rule).
    public var density: Double = 1
    /// 0 inelastic … 1 elastic (restitution).
    public var elasticity: Double = 0
    /// 0 slides freely.
    public var friction: Double = 0
    /// Linear velocity damping per second (Box2D's linearDamping), exact: v·e^(−resistance·t).
    public var resistance: Double = 0
    /// Angular velocity damping per second.
    public var angularResistance: Double = 0
    public var allowsRotation = true
    /// An anchored item does not move but still collides (iOS 9).
    public var isAnchored = false
    /// For electric and magnetic fields (iOS 9).
    public var charge: Double = 0

    public init() {}
}
