import TrellisDynamics

/// The lasting dynamic state of a session, for a state snapshot: the free bodies, which
/// elements are which animator items, every behaviour's wire form under its id (and what it
/// took from the items, a joint's frame or a field's clock), each dynamic item's simulated
/// state (centre, angle, velocities, material), and what the animator carries from step to
/// step (the solver's warm start, which contacts touch, rest timers, the fraction of a step not
/// yet simulated). A restored simulation goes on as one that never stopped, bit for bit.
public struct DynamicsSnapshot: Sendable {
    public var bodies: [FreeBody] = []
    public var nextBodyNumber = 0
    public var elements: [(element: DynamicElement, item: DynamicItemID)] = []
    public var nextItem = 1
    /// Each behaviour's settings as given, why it was stopped if it was, and its carry-over.
    public var behaviors: [(id: BehaviorID, spec: any DynamicBehaviorSpec, stopped: String?, carryOver: [Double])] = []
    public var items: [(item: DynamicItemID, state: DynamicBody)] = []
    /// What the animator carries from step to step (nil in snapshots written before it was kept).
    public var carryOver: AnimatorCarryOver?
    /// The physics stage's time not yet simulated and its last advance's time.
    public var timestep: (accumulated: Double, lastTime: Double?)?

    public init() {}

    /// Nothing dynamic was ever set up: the key is left out of the snapshot.
    public var isEmpty: Bool { bodies.isEmpty && elements.isEmpty && behaviors.isEmpty }
}

extension CollectionView {
    /// The dynamic state as a snapshot keeps it; `spec` gives each behaviour's current settings.
    public func dynamicsSnapshot(spec: (any DynamicBehavior, any DynamicBehaviorSpec) -> any DynamicBehaviorSpec) -> DynamicsSnapshot {
        var s = DynamicsSnapshot()
        s.bodies = dynamics.bodyOrder.compactMap { dynamics.bodies[$0] }
        s.nextBodyNumber = dynamics.nextBodyNumber
        s.elements = dynamics.itemIDs.map { ($0.key, $0.value) }.sorted { $0.1 < $1.1 }
        s.nextItem = dynamics.nextItem
        s.behaviors = dynamicBehaviors.map { ($0.id, spec($0.behavior, $0.spec), dynamics.animator.stopReason($0.id), $0.behavior.carryOver) }
        s.items = dynamics.animator.bodies.ids.compactMap { id in dynamics.animator.bodies[id].map { (id, $0) } }
        s.carryOver = dynamics.animator.carryOver
        s.timestep = (dynamics.timestep.accumulated, dynamics.timestep.lastTime)
        return s
    }

    /// First step of a restore: the bodies and which element is which item.
    public mutating func restoreDynamicElements(_ s: DynamicsSnapshot) {
        for body in s.bodies { dynamics.insertBody(body) }
        dynamics.nextBodyNumber = max(s.nextBodyNumber, (s.bodies.map(\.number).max() ?? -1) + 1)
        for (element, item) in s.elements { dynamics.assign(element, item) }
        dynamics.nextItem = max(s.nextItem, dynamics.nextItem)
    }

    /// A resolver for a snapshot's behaviours (elements named before stand even when gone).
    public func restoringElementResolver() -> DynamicElementResolver {
        let data = self.data, bodies = dynamics.bodyNumbers
        return DynamicElementResolver(known: dynamics.itemIDs, next: dynamics.nextItem, keepsGoneElements: true) { element in
            switch element {
            case .item(let id): return data.indexPath(of: id) != nil
            case .body(let name): return bodies[name] != nil
            }
        }
    }

    /// Second step: the behaviours under their ids, then each item's simulated state.
    public mutating func restoreDynamicBehaviors(_ behaviors: [(id: BehaviorID, behavior: any DynamicBehavior, spec: any DynamicBehaviorSpec,
                                                                stopped: String?, carryOver: [Double])],
                                                 items: [(item: DynamicItemID, state: DynamicBody)],
                                                 carryOver: AnimatorCarryOver? = nil,
                                                 timestep: (accumulated: Double, lastTime: Double?)? = nil) {
        syncReferenceBounds()
        for (item, state) in items where dynamics.elements[item] != nil { dynamics.animator.setItem(item, state) }
        for entry in behaviors {
            var behavior = entry.behavior
            behavior.restore(carryOver: entry.carryOver)
            dynamics.animator.restore(behavior, as: entry.id)
            if let reason = entry.stopped { dynamics.animator.restoreStop(entry.id, reason: reason) }
            dynamics.specs[entry.id] = entry.spec
        }
        syncDynamicMembership()
        // Last: what the animator carried from step to step (its items and behaviours in place).
        if let carryOver { dynamics.animator.restore(carryOver: carryOver) }
        if let timestep { dynamics.restoreTimestep(accumulated: timestep.accumulated, lastTime: timestep.lastTime) }
        _ = dynamics.animator.drainEvents()
    }
}
