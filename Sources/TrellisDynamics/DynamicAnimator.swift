import TrellisGeometry

/// UIDynamicAnimator: items, the behaviours that act on them, and the fixed step (60 Hz unless
/// the session chooses 120 or 240) that moves them, in Box2D 2.x's order: forces, then joints
/// and contacts by sequential impulses (contacts warm-started, a face's two points solved as a
/// block), positions, rigid corrections. An item moves by its closed form where one exists
/// (constant forces, resistance, springs to fixed points: `FreeMotion`), so its trajectory does
/// not depend on the step; the rest is stepped by symplectic Euler, as Box2D steps it. No clock
/// of its own: the engine's physics stage says how many steps fall due. Deterministic: the same
/// items, behaviours and steps give the same numbers, bit for bit.
///
/// At rest it pauses (UIDynamicAnimatorDelegate's didPause): when every item has moved slower
/// than 1 pt/s and turned slower than 2°/s for half a second (Box2D's sleep tolerances at
/// 100 pt per metre), steps cost nothing until a behaviour or an item changes.
public struct DynamicAnimator: Sendable {
    /// Seconds per step unless the session chooses another rate (UIKit Dynamics steps at 60 Hz).
    public static let defaultStep = 1.0 / 60.0
    /// The step rates a session may choose, in steps per second.
    public static let stepRates = [60, 120, 240]
    /// Seconds per step: 1/60, 1/120 or 1/240 (`setStepRate`).
    public private(set) var step = DynamicAnimator.defaultStep
    /// Steps per second.
    public var stepRate: Int { Int((1 / step).rounded()) }
    /// Box2D's usual 8 velocity iterations; position iterations (rigid attachments only) 10
    /// rather than Box2D's 3, which let a hanging chain of 10 light links stretch 11 %. They stop
    /// as soon as every rod is within the slop, so a rod alone costs one.
    public var velocityIterations = 8
    public var positionIterations = 10

    /// The reference coordinate space's bounds (the content, for a collection view).
    public var referenceBounds: Rect
    public private(set) var bodies = DynamicBodies()
    public private(set) var behaviors: [(id: BehaviorID, behavior: any DynamicBehavior)] = []
    /// Each behaviour's `phases`, in the same order (none for a stopped one).
    private var phases: [StepPhases] = []
    /// Why each behaviour was stopped, in the same order (nil: it acts).
    private var stopReasons: [String?] = []
    private var nextBehavior = 1
    /// Simulated seconds since the animator last resumed from a pause.
    public private(set) var elapsedTime = 0.0
    /// Steps taken in all.
    public private(set) var steps = 0
    public private(set) var isPaused = true

    /// What happened since the events were last drained.
    ///
    /// Collision events (UICollisionBehaviorDelegate) come after the step that made them, in
    /// the order of `ContactTracker.Key`: by behaviour, then item ids, then boundary. Against
    /// a boundary `b` is nil and `boundary` is the named boundary's identifier, or nil for the
    /// reference bounds (as UIKit passes nil for it). Removing a collision behaviour or an item
    /// ends its touches at once with `collisionEnded` (as Box2D calls EndContact when a body
    /// goes), so every began has its ended.
    public enum Event: Hashable, Sendable {
        case paused
        case resumed
        /// Item `a` began touching item `b`, or (`b` nil) a boundary, at `point`.
        case collisionBegan(behavior: BehaviorID, a: DynamicItemID, b: DynamicItemID?, boundary: String?, point: Point)
        /// Item `a` stopped touching item `b`, or (`b` nil) a boundary.
        case collisionEnded(behavior: BehaviorID, a: DynamicItemID, b: DynamicItemID?, boundary: String?)
        /// A behaviour would have made an item's state non-finite: it was stopped (`stopReason`).
        case stopped(behavior: BehaviorID, reason: String)
    }
    public private(set) var events: [Event] = []
    private var contactTracker = ContactTracker()
    /// The pairs touching after the last step, as the tracker keeps them (the debug layer's
    /// contacts): the same array until one begins or ends.
    var debugTouches: ContactTracker.Touches { contactTracker.touchArray }
    /// Last step's joint impulses, to warm-start this step's.
    private var lastJointImpulses = JointImpulses()
    /// Last step's contact impulses, to warm-start this step's.
    private var contactCache = ContactCache()
    /// Last step's number of springs: this step's array is made that large at once.
    private var springCount = 0
    /// No step since the last wake (every item's rest time is 0).
    private var restTimesCleared = false

    /// How much collision work a step may do (`ContactLimits`).
    public var contactLimits = ContactLimits()
    /// The last step's contact points, and what the limits left out of it.
    public private(set) var lastStepContacts = 0
    public private(set) var lastStepDropped = ContactsDropped()
    /// Steps in which a contact limit cut contacts (the scene was wrong for that step), and the
    /// contact points left out, in all.
    public private(set) var stepsOverContactLimits = 0
    public private(set) var contactPointsDropped = 0
    /// Pairs of overlapping bounds the broadphase's store left out, in all (`ContactsDropped`).
    public private(set) var pairsPastStore = 0

    /// How many behaviours are stopped (`stopReason`).
    public var stoppedCount: Int { stopReasons.lazy.filter { $0 != nil }.count }

    public static let restSpeed = 1.0
    public static let restAngularSpeed = 2 * Double.pi / 180
    public static let timeToRest = 0.5

    public init(referenceBounds: Rect) {
        self.referenceBounds = referenceBounds
    }

    /// Chooses the step rate (one of `stepRates`); false, and nothing changes, for any other.
    /// What a scene does over a second does not depend on it (the step is exact where a closed
    /// form exists); only how finely contacts and joints are solved does.
    @discardableResult
    public mutating func setStepRate(_ rate: Int) -> Bool {
        guard Self.stepRates.contains(rate) else { return false }
        step = 1 / Double(rate)
        return true
    }

    /// Moves the reference bounds (a boundary made of them moves too) and wakes the animator.
    public mutating func setReferenceBounds(_ bounds: Rect) {
        guard bounds != referenceBounds else { return }
        referenceBounds = bounds
        wake()
    }

    // MARK: Items and behaviours

    /// Adds an item (or replaces its state) and wakes the animator. A state that is not finite
    /// or outside the world (`DynamicBody.worldLimit`: a layout's or a caller's bug) is refused,
    /// false: the item stays as it was, or out of the animator, so a NaN never reaches a step, a
    /// joint's length or a reply.
    @discardableResult
    public mutating func setItem(_ id: DynamicItemID, _ body: DynamicBody) -> Bool {
        guard body.isInsideWorld else { return false }
        var body = body
        body.restTime = 0
        bodies.insert(body, for: id)
        wake()
        return true
    }

    public mutating func removeItem(_ id: DynamicItemID) {
        bodies.remove(id)
        contactTracker.end(item: id) { events.append($0) }
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
        phases.append(behavior.phases)
        stopReasons.append(nil)
        wake()
        return id
    }

    /// Puts back a behaviour under the id it had (a snapshot being restored, its items already
    /// in place: joints take their reference poses from them); later ones number on from it.
    public mutating func restore(_ behavior: any DynamicBehavior, as id: BehaviorID) {
        var behavior = behavior
        behavior.willBeAdded(to: bodies)
        behaviors.append((id, behavior))
        phases.append(behavior.phases)
        stopReasons.append(nil)
        nextBehavior = max(nextBehavior, id.rawValue + 1)
        wake()
    }

    /// Replaces a behaviour's settings (a snap point moved, a push made active again). What the
    /// new settings leave unset is taken from the items now, as `add` does (`willBeAdded`).
    public mutating func update(_ id: BehaviorID, to behavior: any DynamicBehavior) -> Bool {
        guard let k = behaviors.firstIndex(where: { $0.id == id }) else { return false }
        var behavior = behavior
        behavior.willBeAdded(to: bodies)
        behaviors[k].behavior = behavior
        phases[k] = behavior.phases
        // New settings are a new chance: a stopped behaviour acts again (and is stopped again
        // if they still break the invariant).
        stopReasons[k] = nil
        contactTracker.endRenamedBoundaries(of: id, identifier: { (behavior as? CollisionBehavior)?.boundaryIdentifier($0) }) {
            events.append($0)
        }
        wake()
        return true
    }

    @discardableResult
    public mutating func remove(_ id: BehaviorID) -> (any DynamicBehavior)? {
        guard let k = behaviors.firstIndex(where: { $0.id == id }) else { return nil }
        let removed = behaviors.remove(at: k).behavior
        phases.remove(at: k)
        stopReasons.remove(at: k)
        contactTracker.end(behavior: id) { events.append($0) }
        if behaviors.isEmpty {
            // Nothing acts any more: paused now, not after one more (empty) step.
            if !isPaused {
                isPaused = true
                events.append(.paused)
            }
        } else {
            wake()
        }
        return removed
    }

    public func behavior(_ id: BehaviorID) -> (any DynamicBehavior)? {
        behaviors.first(where: { $0.id == id })?.behavior
    }

    /// Why the behaviour was stopped (it then does nothing until updated or removed); nil while it acts.
    public func stopReason(_ id: BehaviorID) -> String? {
        behaviors.firstIndex(where: { $0.id == id }).flatMap { stopReasons[$0] }
    }

    /// Stops a behaviour (a snapshot putting back one that was stopped): it stays, named and
    /// listed, but takes no part in steps until it is updated or removed. No event.
    public mutating func restoreStop(_ id: BehaviorID, reason: String) {
        guard let k = behaviors.firstIndex(where: { $0.id == id }) else { return }
        stopReasons[k] = reason
        phases[k] = []
    }

    /// Stops the behaviour at `k` now, with the event that says why.
    private mutating func stop(_ k: Int, reason: String) {
        guard stopReasons[k] == nil else { return }
        stopReasons[k] = reason
        phases[k] = []
        events.append(.stopped(behavior: behaviors[k].id, reason: reason))
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

    /// The events since the last call (paused, resumed, collisions), oldest first.
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
        behaviors.withUnsafeMutableBufferPointer { list in
            for k in list.indices where phases[k].contains(.properties) {
                Self.inPlace(&list[k].behavior) { $0.applyProperties(to: &bodies) }
            }
        }
        var constraints = ConstraintSet(referenceBounds: referenceBounds)
        constraints.step = step
        constraints.contactLimit = contactLimits.points
        constraints.candidateTests = contactLimits.candidateTests
        constraints.springs.reserveCapacity(springCount)
        constraints.contacts.reserveCapacity(contactCache.count + contactCache.count / 4)
        // By the behaviour's place here, its id looked up after (reading an id out of the tuple
        // in the loop copied the behaviour).
        var contactRanges: [(behavior: Int, range: Range<Int>)] = []
        let current = bodies
        behaviors.withUnsafeMutableBufferPointer { list in
            for k in list.indices where phases[k].contains(.constraints) {
                let first = constraints.contacts.count
                Self.inPlace(&list[k].behavior) { $0.addConstraints(to: &constraints, bodies: current) }
                if constraints.contacts.count > first { contactRanges.append((k, first..<constraints.contacts.count)) }
            }
        }
        let contactOwners = contactRanges.map { (behavior: behaviors[$0.behavior].id, range: $0.range) }
        contactCache.warmStart(&constraints.contacts)
        constraints.contactGroups = constraints.groupedContacts()
        // Stiff springs get sub-steps: keep ω·h at or below 0.5 (a 60 Hz step holds springs up to ~4.8 Hz).
        let omega = 2 * Double.pi * constraints.highestFrequency
        let substeps = min(8, max(1, Int((omega * step / 0.5).rounded(.up))))
        let h = step / Double(substeps)
        constraints.inheritJointImpulses(from: lastJointImpulses, step: h)
        var broken: [Int] = []
        for substep in 0..<substeps {
            behaviors.withUnsafeMutableBufferPointer { list in
                for k in list.indices where phases[k].contains(.forces) {
                    let acted = Self.guarded(&list[k].behavior, &bodies, &guardScratch, step: h) {
                        $0.applyForces(to: &$1, step: h, firstSubstep: substep == 0)
                    }
                    if !acted { broken.append(k) }
                }
                for k in list.indices where phases[k].contains(.forces) {
                    let acted = Self.guarded(&list[k].behavior, &bodies, &guardScratch, step: h) { $0.overrideForces(on: &$1, step: h) }
                    if !acted { broken.append(k) }
                }
            }
            for k in broken { stop(k, reason: Self.nonFiniteForces) }
            broken.removeAll()
            solve(&constraints, step: h)
        }
        stopConstraintsOfBrokenBodies()
        springCount = constraints.springs.count
        lastStepContacts = constraints.contacts.count
        lastStepDropped = constraints.dropped
        if constraints.dropped.exceededLimits { stepsOverContactLimits += 1 }
        contactPointsDropped += constraints.dropped.points
        pairsPastStore += constraints.dropped.pairsPastStore
        lastJointImpulses = constraints.jointImpulses
        contactCache.store(constraints.contacts)
        reportContacts(constraints.contacts, owners: contactOwners)
        var changed = false
        behaviors.withUnsafeMutableBufferPointer { list in
            for k in list.indices where phases[k].contains(.afterStep) {
                guard list[k].behavior.didStep(seconds: step) else { continue }
                changed = true
                phases[k] = list[k].behavior.phases
            }
        }
        steps += 1
        elapsedTime += step
        updateRest(changed: changed)
    }

    /// Collision events: which items touch now against the step before (`ContactTracker`).
    private mutating func reportContacts(_ contacts: [Contact], owners: [(behavior: BehaviorID, range: Range<Int>)]) {
        let behaviors = behaviors
        contactTracker.update(contacts: contacts, owners: owners, bodies: bodies.storage, step: step, identifier: { id, number in
            (behaviors.first { $0.id == id }?.behavior as? CollisionBehavior)?.boundaryIdentifier(number)
        }) { events.append($0) }
    }

    // MARK: Carried from step to step

    /// What the animator carries from one step to the next beyond its items' motion and its
    /// behaviours' settings: the solver's warm start (contact and joint impulses), which
    /// contacts touch (so no began or ended is invented), rest timers and counters. A snapshot
    /// keeps it, and an animator given it back (`restore(carryOver:)`, after its items and
    /// behaviours) goes on as one that never stopped, bit for bit.
    public var carryOver: AnimatorCarryOver {
        AnimatorCarryOver(elapsedTime: elapsedTime, steps: steps, isPaused: isPaused, restTimesCleared: restTimesCleared,
                          nextBehavior: nextBehavior, restTimes: bodies.storage.map(\.restTime),
                          contacts: contactCache.entries, touching: contactTracker.touches, found: contactTracker.foundKeys,
                          joints: lastJointImpulses,
                          kicks: bodies.kicks.indices.compactMap { k in
                              bodies.kicks[k].step == 0 ? nil : IndexedKick(index: k, kick: bodies.kicks[k])
                          })
    }

    /// Puts back what a snapshot kept (its items and behaviours already in place).
    public mutating func restore(carryOver c: AnimatorCarryOver) {
        elapsedTime = c.elapsedTime
        steps = c.steps
        isPaused = c.isPaused || behaviors.isEmpty
        restTimesCleared = c.restTimesCleared
        nextBehavior = max(nextBehavior, c.nextBehavior)
        if c.restTimes.count == bodies.count {
            for k in 0..<bodies.count { bodies[index: k].restTime = c.restTimes[k] }
        }
        contactCache = ContactCache(entries: c.contacts)
        contactTracker = ContactTracker(touches: c.touching, found: c.found)
        lastJointImpulses = c.joints
        for entry in c.kicks where bodies.kicks.indices.contains(entry.index) { bodies.kicks[entry.index] = entry.kick }
        events.removeAll()
    }

    // MARK: The invariant: every position, angle and velocity stays finite

    public static let nonFiniteForces = "its forces would have made an item's velocity or force infinite or NaN; it was stopped (update it with other settings, or remove it)"
    public static let nonFiniteConstraints = "its constraints would have made an item's velocity or position infinite or NaN, or carried it past the world's edge (±1e12 points or radians); it was stopped (update it with other settings, or remove it)"

    /// What a behaviour may change of an item while it adds forces, kept to undo it.
    struct SavedMotion {
        var index: Int, force: Vector, torque: Double, velocity: Vector, angularVelocity: Double, linear: LinearForces
    }
    /// Reused between behaviours and steps (nothing of it outlives one call of `guarded`).
    private var guardScratch: [SavedMotion] = []
    /// The contact solver's flat arrays, kept so that a step allocates none (`ContactSolver`).
    private var contactSolver = ContactSolver()
    /// Bodies the solver or the joints left non-finite this step (set back, at rest).
    private var brokenBodies: [Int] = []
    /// Each body's free motion in the current sub-step (kept between steps for its capacity).
    private var freeMotion: [FreeMotion] = []

    /// Runs `act` (a behaviour adding forces or impulses to its items) and undoes it when it left
    /// any of its items' force, torque or velocity non-finite: false then. The items' state is
    /// kept first, so the undo is exact and the other behaviours' forces stand.
    @inline(__always)
    private static func guarded(_ behavior: inout any DynamicBehavior, _ bodies: inout DynamicBodies, _ saved: inout [SavedMotion], step h: Double,
                                _ act: (inout any DynamicBehavior, inout DynamicBodies) -> Void) -> Bool {
        saved.removeAll(keepingCapacity: true)
        for id in behavior.items {
            guard let index = bodies.index(of: id) else { continue }
            let b = bodies[index: index]
            saved.append(SavedMotion(index: index, force: b.force, torque: b.torque, velocity: b.velocity, angularVelocity: b.angularVelocity,
                                     linear: bodies.linear[index]))
        }
        act(&behavior, &bodies)
        var finite = true
        for entry in saved {
            let b = bodies[index: entry.index]
            if !(b.force.dx.isFinite && b.force.dy.isFinite && b.torque.isFinite && b.velocity.dx.isFinite
                 && b.velocity.dy.isFinite && b.angularVelocity.isFinite && bodies.linear[entry.index].isFinite(step: h)) {
                finite = false
                break
            }
        }
        guard !finite else { return true }
        for entry in saved {
            bodies[index: entry.index].force = entry.force
            bodies[index: entry.index].torque = entry.torque
            bodies[index: entry.index].velocity = entry.velocity
            bodies[index: entry.index].angularVelocity = entry.angularVelocity
            bodies.linear[entry.index] = entry.linear
        }
        return false
    }

    /// After a step in which the solver or the joints would have made a body non-finite (the
    /// body was set back where it was, at rest): the behaviour added last of those whose
    /// constraints hold it is stopped. Forces are checked as they are added (`guarded`), so with
    /// finite, in-range inputs this does not happen; it is the invariant's last line.
    private mutating func stopConstraintsOfBrokenBodies() {
        guard !brokenBodies.isEmpty else { return }
        let ids = Set(brokenBodies.map { bodies.ids[$0] })
        brokenBodies.removeAll()
        for k in behaviors.indices.reversed() where phases[k].contains(.constraints) {
            if behaviors[k].behavior.items.contains(where: ids.contains) {
                stop(k, reason: Self.nonFiniteConstraints)
                return
            }
        }
    }

    /// Hands `body` a behaviour where it lies in `behaviors` (their buffer's element), inout.
    /// Reading one out (`for (_, behavior) in behaviors`, `behaviors[k].behavior`, even through
    /// an unsafe buffer) copies it first, its tuple through the runtime with a retain and a
    /// release; an inout parameter is used in place, and a non-mutating call on it does not
    /// check its box for uniqueness either. For 10,000 attachments that was a fifth of a step.
    @inline(__always)
    private static func inPlace(_ behavior: inout any DynamicBehavior, _ body: (inout any DynamicBehavior) -> Void) {
        body(&behavior)
    }

    private mutating func solve(_ constraints: inout ConstraintSet, step h: Double) {
        let velocityIterations = velocityIterations, positionIterations = positionIterations
        // The animator's solver arrays, taken out for the step (keeping their capacity).
        var solver = ContactSolver()
        swap(&solver, &contactSolver)
        var motion = freeMotion
        freeMotion = []
        motion.removeAll(keepingCapacity: true)
        bodies.withBodyArrays { all, linear, kicks in
            SteppedKick.takeStepping(&all, kicks, step: h)
            constraints.applySprings(&all, &linear, step: h)
            var memo = FreeMotion.Memo(), angularMemo = FreeMotion.Memo()
            for k in all.indices {
                motion.append(FreeMotion.advance(&all[k], linear[k], &kicks[k], step: h, memo: &memo, angularMemo: &angularMemo))
                if !linear[k].isEmpty { linear[k] = LinearForces() }
            }
            guard constraints.hasJoints || !constraints.contacts.isEmpty else { return }
            constraints.prepareJoints(&all, step: h)
            // Every contact's approach speed (its bounce) from the velocities before any warm
            // start, as Box2D initialises all its velocity constraints first: prepared and warm
            // started one by one, a box landing flat bounced its second corner off the turn the
            // first corner's impulse had given it.
            let impacts = h == step
            for k in constraints.contacts.indices { constraints.contacts[k].prepare(all, motion: motion, step: h, impacts: impacts) }
            guard !constraints.contacts.isEmpty else {
                for _ in 0..<velocityIterations { constraints.solveJointVelocities(&all) }
                return
            }
            // Warm start and iterations on the solver's flat arrays (`ContactSolver`), the
            // velocities copied in and out around the joints' iterations (when there are any).
            solver.load(constraints.contacts, groups: constraints.contactGroups, bodies: all)
            solver.warmStart()
            let joints = constraints.hasJoints
            for _ in 0..<velocityIterations {
                if joints {
                    solver.storeVelocities(&all)
                    constraints.solveJointVelocities(&all)
                    solver.loadVelocities(all)
                }
                solver.solveVelocities()
            }
            solver.storeVelocities(&all)
            solver.storeImpulses(&constraints.contacts)
        }
        swap(&solver, &contactSolver)
        integrate(motion, step: h)
        freeMotion = motion
        placeImpacts(constraints.contacts)
        guard constraints.hasJoints else { return }
        var broken: [Int] = []
        bodies.withBodyArray { all in
            let poses = all.map { (center: $0.center, angle: $0.angle) }
            for _ in 0..<positionIterations {
                if constraints.solveJointPositions(&all) { break }
            }
            for k in all.indices where !all[k].poseIsInsideWorld {
                all[k].center = poses[k].center
                all[k].angle = poses[k].angle
                all[k].velocity = .zero
                all[k].angularVelocity = 0
                broken.append(k)
            }
        }
        for k in broken { bodies.kicks[k] = .none }
        brokenBodies += broken
    }

    /// Items that struck a boundary this step end where their exact bounce puts them along its
    /// normal (`Impact`; the solver has given them its speed).
    private mutating func placeImpacts(_ contacts: [Contact]) {
        for contact in contacts {
            guard let impact = contact.impact else { continue }
            let n = contact.normal, center = bodies[index: contact.b].center
            let shift = impact.center - center.vector(from: .zero).dot(n)
            let placed = center + n * shift
            guard placed.x.isFinite, placed.y.isFinite else { continue }
            bodies[index: contact.b].center = placed
        }
    }

    /// Box2D's speed limits (b2_maxTranslation 2 m and b2_maxRotation π/2 per 60 Hz step, at 100
    /// pt per metre), as speeds so that they do not depend on the step rate: nothing moves faster
    /// than 12,000 pt/s or turns faster than 15 turns a second, whatever a field or push asks, so
    /// every number stays finite and a contact can still catch it.
    public static let maximumSpeed = 12_000.0
    public static let maximumAngularSpeed = 30 * Double.pi

    /// Each body to where its free motion and the constraints' impulses take it (`FreeMotion.place`),
    /// within the speed limits and the world.
    private mutating func integrate(_ motion: [FreeMotion], step h: Double) {
        let maxTranslation = Self.maximumSpeed * h
        let maxRotation = Self.maximumAngularSpeed * h
        var broken: [Int] = []
        var index = 0
        let kicks = bodies.kicks
        bodies.forEach { body in
            defer { index += 1 }
            let pose = (center: body.center, angle: body.angle)
            guard body.velocity.dx.isFinite, body.velocity.dy.isFinite, body.angularVelocity.isFinite else {
                // Left where the step found it, at rest (stopConstraintsOfBrokenBodies says why).
                body.velocity = .zero
                body.angularVelocity = 0
                broken.append(index)
                return
            }
            motion[index].place(&body, step: h)
            let travel = body.center.vector(from: pose.center), distance = travel.length
            if distance > maxTranslation {
                body.center = pose.center + travel * (maxTranslation / distance)
                let speed = body.velocity.length
                if speed > Self.maximumSpeed { body.velocity = body.velocity * (Self.maximumSpeed / speed) }
            }
            if abs(body.angle - pose.angle) > maxRotation {
                body.angle = pose.angle + (body.angle > pose.angle ? maxRotation : -maxRotation)
                if abs(body.angularVelocity) > Self.maximumAngularSpeed {
                    body.angularVelocity = body.angularVelocity < 0 ? -Self.maximumAngularSpeed : Self.maximumAngularSpeed
                }
            }
            guard body.poseIsInsideWorld, body.center.x.isFinite, body.center.y.isFinite, body.angle.isFinite else {
                // The world's edge holds it, at rest: a body there was carried by something
                // that ran away (a force does not keep pushing for a million years).
                body.center = pose.center
                body.angle = pose.angle
                body.velocity = .zero
                body.angularVelocity = 0
                broken.append(index)
                return
            }
            // The velocity half a kick ahead of the stepping one again (`SteppedKick`).
            if kicks[index].step != 0 {
                body.velocity += kicks[index].velocity
                body.angularVelocity += kicks[index].angular
            }
        }
        for k in broken { bodies.kicks[k] = .none }
        brokenBodies += broken
    }

    private mutating func updateRest(changed: Bool) {
        restTimesCleared = false
        var resting = !changed
        bodies.forEach { body in
            if body.velocity.length < Self.restSpeed && abs(body.angularVelocity) < Self.restAngularSpeed {
                body.restTime += step
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
