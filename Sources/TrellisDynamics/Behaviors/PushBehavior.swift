import TrellisGeometry

/// UIPushBehavior: a force (continuous) or one impulse (instantaneous) on each item, optionally
/// off its centre (then it also turns it). Magnitude 1 is one "UIKit Newton": it accelerates a
/// 100×100 item of density 1 at 100 pt/s².
public struct PushBehavior: DynamicBehavior {
    public enum Mode: String, Sendable, CaseIterable { case continuous, instantaneous }

    public var items: [DynamicItemID]
    public let mode: Mode
    /// Force in UIKit Newtons (length = magnitude); zero by default.
    public var pushDirection = Vector.zero
    /// Where on each item the push acts, from its centre, in the item's own (turning) frame.
    public var targetOffsets: [DynamicItemID: Vector] = [:]
    /// An instantaneous push is active until the step that applies it, then turns itself off.
    public var active = true

    /// Mass × pt/s² per UIKit Newton (a 100×100 item of density 1 has mass 1).
    public static let force = 100.0

    public init(items: [DynamicItemID], mode: Mode) {
        self.items = items
        self.mode = mode
    }

    public var magnitude: Double { pushDirection.length }
    public var angle: Double { pushDirection.angle }

    public mutating func setAngle(_ angle: Double, magnitude: Double) {
        pushDirection = Vector(angle: angle, length: magnitude)
    }

    /// Continuous: a force over the step. Instantaneous: the same push delivered at once as an
    /// impulse of one second's worth (UIKit does not publish its impulse scale: a magnitude of
    /// 1 gives a 100×100, density 1 item 100 pt/s).
    public func applyForces(to bodies: inout DynamicBodies, step: Double) {
        guard active, pushDirection != .zero else { return }
        let push = pushDirection * Self.force
        for id in items {
            guard let index = bodies.index(of: id) else { continue }
            let offset = rotated(targetOffsets[id] ?? .zero, by: bodies[index: index].angle)
            let torque = offset.cross(push)
            switch mode {
            case .continuous:
                // Constant over the step (turning the item turns an off-centre push only from
                // the next step on): it moves the item exactly (½·a·t²).
                bodies.addSteadyForce(push, torque: torque, at: index)
            case .instantaneous:
                let body = bodies[index: index]
                bodies[index: index].velocity += push * body.inverseMass
                bodies[index: index].angularVelocity += torque * body.inverseInertia
            }
        }
    }

    /// An impulse is one per step, however many sub-steps stiff springs ask for.
    public var actsOncePerStep: Bool { mode == .instantaneous }
    public var phases: StepPhases { [.forces, .afterStep] }

    public mutating func didStep(seconds: Double) -> Bool {
        guard mode == .instantaneous, active else { return false }
        active = false
        return true
    }
}
