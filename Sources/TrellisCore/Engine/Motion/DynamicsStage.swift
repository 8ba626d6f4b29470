import TrellisGeometry
import TrellisDynamics

/// The tick's dynamics stage (`TickStage.dynamics`): UIKit Dynamics for the session, on a fixed
/// time step at the animator's rate (60 Hz unless the session chose 120 or 240) so results do
/// not depend on the frame rate. It owns the `DynamicAnimator`, which
/// elements are dynamic (cells by item id, free bodies by name) under which animator item, the free
/// bodies, and each behaviour's wire form (for listing and snapshots). It needs ticks exactly while
/// the animator runs: a paused animator costs nothing.
struct DynamicsStage: Sendable {
    /// The animator's clock, at its step (`setStepRate`). Every step falls due: a manual clock
    /// advanced by ten seconds simulates ten seconds.
    private(set) var timestep = FixedTimestep(step: DynamicAnimator.defaultStep, maximumStepsPerAdvance: .max)
    /// The released scroll's clock: UIScrollView decelerates at 60 Hz whatever the animator's
    /// rate, so it keeps a clock of its own (the same as the animator's at 60 Hz, step for step).
    private(set) var scrollTimestep = FixedTimestep(step: DynamicsStage.scrollStep, maximumStepsPerAdvance: .max)
    /// At most this many animator steps in one advance, the rest dropped (a live session that
    /// stalled catches up a bounded amount of work rather than freezing its loop to simulate the
    /// gap); the scroll's steps are bounded to the same span of time.
    var catchUpLimit = Int.max
    var animator = DynamicAnimator(referenceBounds: .zero)
    /// Every element a behaviour has named, and its animator item (kept after the element
    /// leaves the animator, so a behaviour that names it keeps naming the same item).
    var itemIDs: [DynamicElement: DynamicItemID] = [:]
    var elements: [DynamicItemID: DynamicElement] = [:]
    var nextItem = 1
    /// Free bodies by number, their numbers by name and in order, and the animator item of each
    /// body that has one (so a frame finds a body's state without hashing its name).
    private(set) var bodies: [Int: FreeBody] = [:]
    private(set) var bodyNumbers: [String: Int] = [:]
    private(set) var bodyOrder: [Int] = []
    private(set) var bodyItems: [Int: DynamicItemID] = [:]
    var nextBodyNumber = 0
    /// Each behaviour's settings as they were given (its typed spec, opaque here).
    var specs: [BehaviorID: any DynamicBehaviorSpec] = [:]
    /// Dynamic cells (in the animator) by their current index path, for binding and attributes.
    var cells: [IndexPath: DynamicItemID] = [:]
    /// Items inserted again under an id a behaviour names, joining once the layout has them.
    var pendingJoins: [DynamicItemID] = []
    /// The springs the layout hangs its shown items on while a scroll stretches them.
    var layoutSprings: LayoutSpringsState?
    /// How many behaviours name each item (an item is in the animator while some do): kept as
    /// behaviours come and go, so adding one costs what it names, not what the session holds.
    private var references: [DynamicItemID: Int] = [:]

    /// Counts a behaviour's items in; those no behaviour named before.
    mutating func retain(_ items: [DynamicItemID]) -> [DynamicItemID] {
        var first: [DynamicItemID] = []
        for id in Set(items).sorted() {
            references[id, default: 0] += 1
            if references[id] == 1 { first.append(id) }
        }
        return first
    }

    /// Counts a behaviour's items out; those no behaviour names any more.
    mutating func release(_ items: [DynamicItemID]) -> [DynamicItemID] {
        var last: [DynamicItemID] = []
        for id in Set(items).sorted() {
            guard let count = references[id] else { continue }
            if count <= 1 {
                references[id] = nil
                last.append(id)
            } else {
                references[id] = count - 1
            }
        }
        return last
    }

    /// The counts taken afresh from the behaviours (after a restore).
    mutating func recountReferences() {
        references.removeAll()
        for entry in animator.behaviors { _ = retain(entry.behavior.items) }
    }

    func isReferenced(_ id: DynamicItemID) -> Bool { references[id] != nil }

    /// Every item some behaviour names.
    var referencedItems: Set<DynamicItemID> { Set(references.keys) }

    var needsTicks: Bool { !animator.isPaused }

    /// Seconds per step of the released scroll (`ScrollDeceleration`), whatever the animator's rate.
    static let scrollStep = 1.0 / 60.0

    /// The engine's clock starts at 0, and so does the stage's (a first behaviour added before
    /// the clock ever moved must not lose the first advance).
    init() {
        _ = timestep.advance(to: 0)
        _ = scrollTimestep.advance(to: 0)
    }

    /// Steps per second of the animator (one of `DynamicAnimator.stepRates`).
    var stepRate: Int { animator.stepRate }

    /// Steps the animator at `rate` from now on; false, and nothing changes, for a rate not in
    /// `DynamicAnimator.stepRates`. The time not yet simulated is kept: it is simulated at the
    /// new rate, so no time is lost or taken twice across the change.
    mutating func setStepRate(_ rate: Int) -> Bool {
        guard animator.setStepRate(rate) else { return false }
        // FixedTimestep's step is a constant: a new one, carrying the old one's time.
        let old = timestep
        timestep = FixedTimestep(step: animator.step, maximumStepsPerAdvance: .max)
        timestep.restore(accumulated: old.accumulated, lastTime: old.lastTime)
        return true
    }

    /// Puts back the time not yet simulated (a snapshot kept it) on both clocks: they are one
    /// clock until the rate leaves 60, and a snapshot keeps the scroll's apart only where it
    /// differs (`restoreScrollTimestep`, after this).
    mutating func restoreTimestep(accumulated: Double, lastTime: Double?) {
        timestep.restore(accumulated: accumulated, lastTime: lastTime)
        scrollTimestep.restore(accumulated: accumulated, lastTime: lastTime)
    }

    /// Puts back the scroll's time not yet stepped (a snapshot kept it where it differed).
    mutating func restoreScrollTimestep(accumulated: Double, lastTime: Double?) {
        scrollTimestep.restore(accumulated: accumulated, lastTime: lastTime)
    }

    /// The fixed steps due by `time`: the animator's (at most `catchUpLimit`) and the released
    /// scroll's (at most as many as span the same time); and how many animator steps the limit
    /// dropped while the animator ran (a paused one misses none).
    mutating func dueSteps(to time: Double) -> (steps: Int, scrollSteps: Int, dropped: Int) {
        let due = timestep.advance(to: time)
        let steps = min(due, catchUpLimit)
        let scrollDue = scrollTimestep.advance(to: time)
        let scrollSteps = min(scrollDue, scrollCatchUpLimit)
        return (steps, scrollSteps, animator.isPaused ? 0 : due - steps)
    }

    /// The catch-up limit in scroll steps: the same span of time as `catchUpLimit` animator
    /// steps (equal to it at 60 Hz).
    private var scrollCatchUpLimit: Int {
        let ratio = stepRate / 60
        guard catchUpLimit < Int.max - ratio else { return Int.max }
        return (catchUpLimit + ratio - 1) / ratio
    }

    /// Runs up to `steps` of the animator, asking `more` after each whether to go on: how many
    /// it took, and whether it stepped at all (dynamic items may have moved). A paused animator
    /// takes none, and all of them count as taken (nothing fell behind).
    mutating func step(steps: Int, while more: () -> Bool) -> (taken: Int, moved: Bool) {
        guard steps > 0, !animator.isPaused else { return (steps, false) }
        var taken = 0
        while taken < steps && !animator.isPaused {
            animator.advance(steps: 1)
            taken += 1
            if taken < steps && !more() { return (taken, true) }
        }
        return (steps, true)
    }

    /// The animator item of the body numbered `number`, while it has one.
    func itemID(ofBody number: Int) -> DynamicItemID? { bodyItems[number] }

    /// The body numbered `number`, wherever its state is kept now.
    func body(number: Int) -> FreeBody? {
        guard var body = bodies[number] else { return nil }
        if let id = bodyItems[number], let state = animator.bodies[id] {
            body.center = state.center
            body.angle = state.angle
        }
        return body
    }

    mutating func insertBody(_ body: FreeBody) {
        bodies[body.number] = body
        bodyNumbers[body.name] = body.number
        // A new body has the highest number: appended, in constant time.
        if let last = bodyOrder.last, last > body.number {
            bodyOrder.insert(body.number, at: bodyOrder.firstIndex { $0 > body.number }!)
        } else {
            bodyOrder.append(body.number)
        }
        if let id = itemIDs[.body(body.name)] { bodyItems[body.number] = id }
    }

    mutating func removeBody(number: Int) {
        guard let body = bodies.removeValue(forKey: number) else { return }
        bodyNumbers[body.name] = nil
        bodyOrder.removeAll { $0 == number }
        bodyItems[number] = nil
        if let id = itemIDs.removeValue(forKey: .body(body.name)) { elements[id] = nil }
    }

    /// Where a body was left when the animator let it go.
    mutating func placeBody(number: Int, center: Point, angle: Double) {
        bodies[number]?.center = center
        bodies[number]?.angle = angle
    }

    /// No behaviour names `id` any more: the element and the item part (a behaviour that names
    /// the element later gets a new item).
    mutating func forget(_ id: DynamicItemID) {
        guard let element = elements.removeValue(forKey: id) else { return }
        itemIDs[element] = nil
        if case .body(let name) = element, let number = bodyNumbers[name] { bodyItems[number] = nil }
    }

    /// `element` is the animator's item `id` from now on.
    mutating func assign(_ element: DynamicElement, _ id: DynamicItemID) {
        itemIDs[element] = id
        elements[id] = element
        nextItem = max(nextItem, id.rawValue + 1)
        if case .body(let name) = element, let number = bodyNumbers[name] { bodyItems[number] = id }
    }
}

extension CollectionView {
    /// Counts animator steps dropped, and the simulated time they stood for (at the step rate now).
    mutating func countDroppedDynamicsSteps(_ steps: Int) {
        guard steps > 0 else { return }
        dynamicsStepsDropped += steps
        dynamicsTimeDropped += Double(steps) * dynamics.animator.step
    }

    /// The tick's dynamics stage: up to the tick's remaining steps of the animator while `more`
    /// says so (at least one). False when steps are left and the tick defers them
    /// (`DynamicsOverrun.defer`); else the steps not taken are dropped (and counted), and the
    /// layout's springs that came to rest come off.
    mutating func stepDynamics(_ tick: inout TickInProgress, while more: () -> Bool) -> Bool {
        let (taken, moved) = dynamics.step(steps: tick.remainingSteps, while: more)
        if moved { drainDynamicsEvents() }
        tick.stepped = tick.stepped || moved
        tick.remainingSteps -= taken
        if tick.remainingSteps > 0 {
            if tick.overrun == .defer { return false }
            countDroppedDynamicsSteps(tick.remainingSteps)
        }
        tick.simulated = restLayoutSprings() || tick.stepped
        return true
    }
}
