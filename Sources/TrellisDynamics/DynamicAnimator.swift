import TrellisGeometry

/// UIDynamicAnimator: items, the behaviours that act on them, and the fixed 60 Hz step that
/// moves them, in Box2D 2.x's order: forces (springs among them) into velocities, damping, rods
/// and contacts by sequential impulses (contacts warm-started, a face's two points solved as a
/// block), positions, rigid corrections. No clock of its own: the engine's physics stage says
/// how many steps fall due. Deterministic: the same items, behaviours and steps give the same
/// numbers, bit for bit.
///
/// At rest it pauses (UIDynamicAnimatorDelegate's didPause): when every item has moved slower
/// than 1 pt/s and turned slower than 2°/s for half a second (Box2D's sleep tolerances at
/// 100 pt per metre), steps cost nothing until a behaviour or an item changes.
public struct DynamicAnimator: Sendable {
    /// Seconds per step.
    public static let step = 1.0 / 60.0
    /// Box2D's usual 8 velocity iterations; position iterations (rigid attachments only) 10
    /// rather than Box2D's 3, which let a hanging chain of 10 light links stretch 11 %. They stop
    /// as soon as every rod is within the slop, so a rod alone costs one.
    public var velocityIterations = 8
    public var positionIterations = 10

    /// The reference coordinate space's bounds (the content, for a collection view).
    public var referenceBounds: Rect
    public private(set) var bodies = DynamicBodies()
    public private(set) var behaviors: [(id: BehaviorID, behavior: any DynamicBehavior)] = []
    private var nextBehavior = 1
    /// Simulated seconds since the animator last resumed from a pause.
    public private(set) var elapsedTime = 0.0
    /// Steps taken in all.
    public private(set) var steps = 0
    public private(set) var isPaused = true

    /// What happened since the events were last drained.
    public enum Event: Hashable, Sendable {
        case paused
        case resumed
    }
    public private(set) var events: [Event] = []
    /// Last step's contact impulses, to warm-start this step's.
    private var contactImpulses: [Contact.Key: (normal: Double, tangent: Double)] = [:]
    /// Last step's number of springs: this step's array is made that large at once.
    private var springCount = 0
    /// No step since the last wake (every item's rest time is 0).
    private var restTimesCleared = false

    public static let restSpeed = 1.0
    public static let restAngularSpeed = 2 * Double.pi / 180
    public static let timeToRest = 0.5

    public init(referenceBounds: Rect) {
        self.referenceBounds = referenceBounds
    }

    // MARK: Items and behaviours

    /// Adds an item (or replaces its state) and wakes the animator.
    public mutating func setItem(_ id: DynamicItemID, _ body: DynamicBody) {
        var body = body
        body.restTime = 0
        bodies.insert(body, for: id)
        wake()
    }

    public mutating func removeItem(_ id: DynamicItemID) {
        bodies.remove(id)
        wake()
    }

    /// Adds a behaviour (which may take settings from the items now: `willBeAdded`).
    @discardableResult
    public mutating func add(_ behavior: any DynamicBehavior) -> BehaviorID {
        var behavior = behavior
        behavior.willBeAdded(to: bodies)
        let id = BehaviorID(nextBehavior)
        nextBehavior += 1
        behaviors.append((id, behavior))
        wake()
        return id
    }

    /// Replaces a behaviour's settings (a snap point moved, a push made active again).
    public mutating func update(_ id: BehaviorID, to behavior: any DynamicBehavior) -> Bool {
        guard let k = behaviors.firstIndex(where: { $0.id == id }) else { return false }
        behaviors[k].behavior = behavior
        wake()
        return true
    }

    @discardableResult
    public mutating func remove(_ id: BehaviorID) -> (any DynamicBehavior)? {
        guard let k = behaviors.firstIndex(where: { $0.id == id }) else { return nil }
        let removed = behaviors.remove(at: k).behavior
        wake()
        return removed
    }

    public func behavior(_ id: BehaviorID) -> (any DynamicBehavior)? {
        behaviors.first(where: { $0.id == id })?.behavior
    }

    /// UIDynamicItemBehavior's addLinearVelocity(_:for:).
    public mutating func addLinearVelocity(_ velocity: Vector, to id: DynamicItemID) {
        guard let k = bodies.index(of: id) else { return }
        bodies[index: k].velocity += velocity
        wake()
    }

    /// UIDynamicItemBehavior's addAngularVelocity(_:for:), radians per second.
    public mutating func addAngularVelocity(_ velocity: Double, to id: DynamicItemID) {
        guard let k = bodies.index(of: id) else { return }
        bodies[index: k].angularVelocity += velocity
        wake()
    }

    /// Whether any behaviour acts on `id` (an item none acts on goes back to its layout).
    public func isDynamic(_ id: DynamicItemID) -> Bool {
        behaviors.contains { $0.behavior.items.contains(id) }
    }

    /// The events since the last call (paused, resumed), oldest first.
    public mutating func drainEvents() -> [Event] {
        defer { events.removeAll() }
        return events
    }

    private mutating func wake() {
        // Only a step adds rest time: after a wake with no step since, every item's is still 0
        // (adding 10,000 items and their behaviours one by one spent 0.1 s clearing them).
        if !restTimesCleared {
            for k in 0..<bodies.count { bodies[index: k].restTime = 0 }
            restTimesCleared = true
        }
        guard isPaused, !behaviors.isEmpty else { return }
        isPaused = false
        elapsedTime = 0
        events.append(.resumed)
    }

    // MARK: Stepping

    /// Takes `count` fixed steps (nothing while paused).
    public mutating func advance(steps count: Int) {
        for _ in 0..<count where !isPaused { stepOnce() }
    }

    private mutating func stepOnce() {
        for k in behaviors.indices { Self.inPlace(&behaviors[k].behavior) { $0.applyProperties(to: &bodies) } }
        var constraints = ConstraintSet(referenceBounds: referenceBounds)
        constraints.springs.reserveCapacity(springCount)
        for k in behaviors.indices { Self.inPlace(&behaviors[k].behavior) { $0.addConstraints(to: &constraints, bodies: bodies) } }
        springCount = constraints.springs.count
        for k in constraints.contacts.indices {
            if let (normal, tangent) = contactImpulses[constraints.contacts[k].key] {
                constraints.contacts[k].normalImpulse = normal
                constraints.contacts[k].tangentImpulse = tangent
            }
        }
        constraints.contactGroups = constraints.groupedContacts()
        // Stiff springs get sub-steps: keep ω·h at or below 0.5 (a 60 Hz step holds springs up to ~4.8 Hz).
        let omega = 2 * Double.pi * constraints.highestFrequency
        let substeps = min(8, max(1, Int((omega * Self.step / 0.5).rounded(.up))))
        let h = Self.step / Double(substeps)
        for substep in 0..<substeps {
            for k in behaviors.indices {
                Self.inPlace(&behaviors[k].behavior) { if substep == 0 || !$0.actsOncePerStep { $0.applyForces(to: &bodies, step: h) } }
            }
            solve(&constraints, step: h)
        }
        contactImpulses.removeAll(keepingCapacity: true)
        for contact in constraints.contacts { contactImpulses[contact.key] = (contact.normalImpulse, contact.tangentImpulse) }
        var changed = false
        for k in behaviors.indices { changed = behaviors[k].behavior.didStep() || changed }
        steps += 1
        elapsedTime += Self.step
        updateRest(changed: changed)
    }

    /// Hands `body` a behaviour where it lies in `behaviors`. Reading one out
    /// (`for (_, behavior) in behaviors`, `behaviors[k].behavior`) copies it first, its tuple
    /// through the runtime with a retain and a release, which for 10,000 attachments cost more
    /// than their springs; through `inout` it is used in place.
    @inline(__always)
    private static func inPlace(_ behavior: inout any DynamicBehavior, _ body: (any DynamicBehavior) -> Void) {
        body(behavior)
    }

    private mutating func solve(_ constraints: inout ConstraintSet, step h: Double) {
        let velocityIterations = velocityIterations, positionIterations = positionIterations
        bodies.withBodyArray { all in
            constraints.applySpringForces(&all)
            for k in all.indices { Self.accelerate(&all[k], step: h) }
            guard !constraints.rods.isEmpty || !constraints.contacts.isEmpty else { return }
            for k in constraints.rods.indices { constraints.rods[k].prepare(&all) }
            for k in constraints.contacts.indices {
                constraints.contacts[k].prepare(all)
                constraints.contacts[k].warmStart(&all)
            }
            for _ in 0..<velocityIterations {
                for k in constraints.rods.indices { constraints.rods[k].solveVelocity(&all) }
                for group in constraints.contactGroups {
                    switch group {
                    case .single(let k):
                        constraints.contacts[k].solveVelocity(&all, step: h)
                    case .pair(let k):
                        var first = constraints.contacts[k], second = constraints.contacts[k + 1]
                        if !ContactPair.solve(&first, &second, &all, step: h) {
                            first.solveVelocity(&all, step: h)
                            second.solveVelocity(&all, step: h)
                        }
                        constraints.contacts[k] = first
                        constraints.contacts[k + 1] = second
                    }
                }
            }
        }
        integrate(step: h)
        guard !constraints.rods.isEmpty else { return }
        bodies.withBodyArray { all in
            for _ in 0..<positionIterations {
                var done = true
                for rod in constraints.rods { done = rod.solvePosition(&all) && done }
                if done { break }
            }
        }
    }

    /// Forces into velocities, then damping (Box2D: v ← v / (1 + h·c)); in place (a copy of
    /// each body out and back cost a tenth of a step of 10,000 springs).
    @inline(__always)
    private static func accelerate(_ body: inout DynamicBody, step h: Double) {
        body.velocity += body.force * (body.inverseMass * h)
        body.angularVelocity += h * body.inverseInertia * body.torque
        body.velocity = body.velocity * (1 / (1 + h * body.properties.resistance))
        body.angularVelocity *= 1 / (1 + h * body.properties.angularResistance)
        if body.inverseMass == 0 { body.velocity = .zero }
        if body.inverseInertia == 0 { body.angularVelocity = 0 }
        body.force = .zero
        body.torque = 0
    }

    private mutating func integrate(step h: Double) {
        bodies.forEach { body in
            body.center += body.velocity * h
            body.angle += body.angularVelocity * h
        }
    }

    private mutating func updateRest(changed: Bool) {
        restTimesCleared = false
        var resting = !changed
        bodies.forEach { body in
            if body.velocity.length < Self.restSpeed && abs(body.angularVelocity) < Self.restAngularSpeed {
                body.restTime += Self.step
            } else {
                body.restTime = 0
            }
            if body.restTime < Self.timeToRest { resting = false }
        }
        if resting || behaviors.isEmpty {
            isPaused = true
            events.append(.paused)
        }
    }
}
