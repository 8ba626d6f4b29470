import TrellisGeometry
import TrellisDynamics

/// One element's dynamic state, as `dynamics.item` reports it.
public struct DynamicItemState: Hashable, Sendable {
    public var element: DynamicElement
    /// True while a behaviour acts on it (the animator owns its centre and angle).
    public var isDynamic: Bool
    public var center: Point
    public var size: Size
    public var angle: Double
    public var velocity: Vector
    public var angularVelocity: Double
}

/// UIDynamicAnimator(collectionViewLayout:) on the session: behaviours act on cells (by item id)
/// and on free bodies; while an element is dynamic the animator owns its centre and rotation,
/// and its presentation and model attributes follow the simulation (so hit testing, selection,
/// queries and every viewer see what is drawn). An element no behaviour acts on any more goes
/// back to its layout at once, as UIKit's does when its behaviours are removed: the next layout
/// pass returns the layout's attributes (a body stays where it is, at rest).
extension CollectionView {
    // MARK: Free bodies

    /// Adds a free body (a view that is not a data item).
    @discardableResult
    public mutating func addBody(name: String, center: Point, size: Size, angle: Double = 0,
                                 reuseIdentifier: String = FreeBody.defaultReuseIdentifier, data: ItemPayload? = nil,
                                 zIndex: Int = 0) throws(EngineError) -> FreeBody {
        guard dynamics.bodyNumbers[name] == nil else { throw .bodyExists(name) }
        let body = FreeBody(name: name, number: dynamics.nextBodyNumber, center: center, size: size, angle: angle,
                            reuseIdentifier: reuseIdentifier, data: data, zIndex: zIndex)
        dynamics.nextBodyNumber += 1
        dynamics.insertBody(body)
        // Only the new body's view, if it is shown.
        setNeedsBinding(appeared: .body(body.number))
        bindIfNeeded()
        return body
    }

    /// Removes a free body; refused while a behaviour acts on it.
    public mutating func removeBody(named name: String) throws(EngineError) {
        guard let number = dynamics.bodyNumbers[name] else { throw .unknownBody(name, known: dynamics.bodyNumbers.keys.sorted()) }
        if let id = dynamics.itemIDs[.body(name)] {
            let users = dynamics.animator.behaviors.filter { $0.behavior.items.contains(id) }.map(\.id.rawValue)
            if !users.isEmpty { throw .bodyInUse(name, behaviors: users) }
        }
        dynamics.removeBody(number: number)
        setNeedsBinding()
        bindIfNeeded()
    }

    /// The free bodies, in the order they were added, where they are now.
    public var freeBodies: [FreeBody] { dynamics.bodyOrder.compactMap { dynamics.body(number: $0) } }

    /// The free body named `name`, where it is now.
    public func freeBody(named name: String) -> FreeBody? { dynamics.bodyNumbers[name].flatMap { dynamics.body(number: $0) } }

    // MARK: Behaviours

    /// How much collision work one dynamics step may do.
    public var contactLimits: ContactLimits {
        get { dynamics.animator.contactLimits }
        set { dynamics.animator.contactLimits = newValue }
    }

    /// The number of free bodies.
    public var freeBodyCount: Int { dynamics.bodies.count }

    /// The number of behaviours.
    public var dynamicBehaviorCount: Int { dynamics.animator.behaviors.count }

    /// A resolver for decoding a behaviour: elements named before keep their animator item;
    /// those `keeping` names (a behaviour being updated) stand even if deleted since.
    public func dynamicElementResolver(keeping: [DynamicItemID] = []) -> DynamicElementResolver {
        let data = self.data, bodies = dynamics.bodyNumbers
        return DynamicElementResolver(known: dynamics.itemIDs, next: dynamics.nextItem, keeping: Set(keeping)) { element in
            switch element {
            case .item(let id): return data.indexPath(of: id) != nil
            case .body(let name): return bodies[name] != nil
            }
        }
    }

    /// Adds a behaviour decoded with `resolver` (whose new elements are committed now); `spec`
    /// is its settings as given, kept for listing and snapshots.
    @discardableResult
    ///
    /// In time independent of how many behaviours and bodies the session has: only the items
    /// whose count of behaviours goes from 0 to 1 join the animator, and the views are bound
    /// again only when a cell joined (dynamic cells are drawn after the layout's views).
    public mutating func addDynamicBehavior(_ behavior: any DynamicBehavior, spec: any DynamicBehaviorSpec,
                                            resolver: DynamicElementResolver) -> BehaviorID {
        commit(resolver)
        syncReferenceBounds()
        // Its items join first: the animator takes unset settings (an attachment's length) from them.
        let joined = join(dynamics.retain(behavior.items))
        let id = dynamics.animator.add(behavior)
        dynamics.specs[id] = spec
        if joined { setNeedsBinding() }
        bindIfNeeded()
        return id
    }

    /// Replaces a behaviour's settings (`spec` its whole new settings as given).
    public mutating func updateDynamicBehavior(_ id: BehaviorID, to behavior: any DynamicBehavior, spec: any DynamicBehaviorSpec,
                                               resolver: DynamicElementResolver) throws(EngineError) {
        guard dynamics.specs[id] != nil, let old = dynamics.animator.behavior(id) else {
            throw .unknownBehavior(id.rawValue, known: dynamicBehaviorIDs)
        }
        commit(resolver)
        // New items join first: the animator's update takes unset settings from them.
        let joined = join(dynamics.retain(behavior.items))
        _ = dynamics.animator.update(id, to: behavior)
        dynamics.specs[id] = spec
        let left = leave(dynamics.release(old.items))
        if joined || left.contains(where: \.isItem) { setNeedsBinding() }
        drainDynamicsEvents()
        bindIfNeeded()
    }

    /// Removes a behaviour; returns the elements no behaviour acts on any more (handed back).
    @discardableResult
    public mutating func removeDynamicBehavior(_ id: BehaviorID) throws(EngineError) -> [DynamicElement] {
        guard dynamics.specs[id] != nil, let removed = dynamics.animator.remove(id) else {
            throw .unknownBehavior(id.rawValue, known: dynamicBehaviorIDs)
        }
        dynamics.specs[id] = nil
        let left = leave(dynamics.release(removed.items))
        if left.contains(where: \.isItem) { setNeedsBinding() }
        drainDynamicsEvents()
        bindIfNeeded()
        return left
    }

    /// The behaviours' ids, in the order they were added.
    public var dynamicBehaviorIDs: [Int] { dynamics.animator.behaviors.map(\.id.rawValue) }

    /// A behaviour and its settings as given.
    public func dynamicBehavior(_ id: BehaviorID) -> (behavior: any DynamicBehavior, spec: any DynamicBehaviorSpec)? {
        guard let behavior = dynamics.animator.behavior(id), let spec = dynamics.specs[id] else { return nil }
        return (behavior, spec)
    }

    /// Every behaviour, in the order added, with its settings as given.
    public var dynamicBehaviors: [(id: BehaviorID, behavior: any DynamicBehavior, spec: any DynamicBehaviorSpec)] {
        dynamics.animator.behaviors.compactMap { entry in dynamics.specs[entry.id].map { (entry.id, entry.behavior, $0) } }
    }

    /// Why a behaviour was stopped (it would have made the simulation non-finite), nil while it acts.
    public func dynamicBehaviorStopReason(_ id: BehaviorID) -> String? { dynamics.animator.stopReason(id) }

    /// The element an animator item stands for.
    public func dynamicElement(for id: DynamicItemID) -> DynamicElement? { dynamics.elements[id] }

    /// UIDynamicItemBehavior's addLinearVelocity / addAngularVelocity on the items of a behaviour.
    public mutating func addDynamicVelocity(linear: Vector, angular: Double, to items: [DynamicItemID]) {
        for id in items {
            if linear != .zero { dynamics.animator.addLinearVelocity(linear, to: id) }
            if angular != 0 { dynamics.animator.addAngularVelocity(angular, to: id) }
        }
    }

    /// The most dynamics steps one advance takes (the rest of a longer gap is dropped; 0 drops
    /// them all); unlimited by default, so a manual clock's every millisecond is simulated.
    public var dynamicsCatchUpLimit: Int {
        get { dynamics.catchUpLimit }
        set { dynamics.catchUpLimit = max(0, newValue) }
    }

    /// Dynamics steps the animator took, in all.
    public var dynamicsStepsTaken: Int { dynamics.animator.steps }

    /// The step rates a session may choose, in steps per second (UIKit Dynamics' 60 first).
    public static var dynamicsStepRates: [Int] { DynamicAnimator.stepRates }

    /// The animator's steps per second: 60 unless the session chose another of `dynamicsStepRates`.
    public var dynamicsStepRate: Int { dynamics.stepRate }

    /// Steps the animator at `rate` (one of `dynamicsStepRates`) from now on; false, and nothing
    /// changes, for any other. The time not yet simulated is simulated at the new rate. Not
    /// while a deferred tick is in progress (its steps are counted at the old rate).
    @discardableResult
    public mutating func setDynamicsStepRate(_ rate: Int) -> Bool {
        precondition(tickInProgress == nil, "an advance is still in progress: continueAdvance it first")
        return dynamics.setStepRate(rate)
    }

    /// The released scroll's clock (its own at 60 Hz): its time not yet stepped and its last advance.
    public var scrollTimestep: (accumulated: Double, lastTime: Double?) {
        (dynamics.scrollTimestep.accumulated, dynamics.scrollTimestep.lastTime)
    }

    /// Puts back the released scroll's clock (a snapshot kept it where it differed from the animator's).
    public mutating func restoreScrollTimestep(accumulated: Double, lastTime: Double?) {
        dynamics.restoreScrollTimestep(accumulated: accumulated, lastTime: lastTime)
    }

    /// What the session's dynamics holds and costs, for `stats`.
    public var dynamicsLoad: DynamicsLoad {
        let a = dynamics.animator
        return DynamicsLoad(bodies: dynamics.bodies.count, behaviors: a.behaviors.count, stopped: a.stoppedCount,
                            dynamicItems: a.bodies.count, contacts: a.lastStepContacts,
                            stepsOverContactLimits: a.stepsOverContactLimits, contactPointsDropped: a.contactPointsDropped,
                            pairsPastStore: a.pairsPastStore, stepsDropped: dynamicsStepsDropped, timeDropped: dynamicsTimeDropped)
    }

    /// True while the animator runs (UIDynamicAnimator.isRunning).
    public var dynamicsRunning: Bool { !dynamics.animator.isPaused }

    /// The animator items acting now (the elements some behaviour acts on), in the order they joined.
    public var dynamicItems: [DynamicItemID] { dynamics.animator.bodies.ids }

    /// The dynamic state of an item or body; an element no behaviour acts on reports where it is
    /// drawn (its layout's place, or the body's) and no velocity.
    public func dynamicState(of element: DynamicElement) throws(EngineError) -> DynamicItemState {
        if let id = dynamics.itemIDs[element], let body = dynamics.animator.bodies[id] {
            return DynamicItemState(element: element, isDynamic: true, center: body.center, size: body.size, angle: body.angle,
                                    velocity: body.velocity, angularVelocity: body.angularVelocity)
        }
        switch element {
        case .item(let itemID):
            guard let indexPath = data.indexPath(of: itemID) else { throw .unknownDynamicElement(element) }
            let a = bound[.cell(indexPath)]?.attributes ?? layout.attributes(for: .cell(indexPath))
            return DynamicItemState(element: element, isDynamic: false, center: a?.center ?? .zero, size: a?.size ?? .zero,
                                    angle: 0, velocity: .zero, angularVelocity: 0)
        case .body(let name):
            guard let body = freeBody(named: name) else { throw .unknownBody(name, known: dynamics.bodyNumbers.keys.sorted()) }
            return DynamicItemState(element: element, isDynamic: false, center: body.center, size: body.size, angle: body.angle,
                                    velocity: .zero, angularVelocity: 0)
        }
    }

    // MARK: Events

    /// The animator's events as the engine's (paused; contacts, named by element).
    mutating func drainDynamicsEvents() {
        for event in dynamics.animator.drainEvents() {
            switch event {
            // The layout's own springs are not the session's dynamics: their rest is not reported.
            case .paused: if dynamics.layoutSprings == nil || !dynamics.specs.isEmpty { pendingEvents.append(.dynamicsPaused) }
            case .resumed: break
            case .collisionBegan(let behavior, let a, let b, let boundary, let point):
                report(behavior, began: true, a, b, boundary, point)
            case .collisionEnded(let behavior, let a, let b, let boundary):
                report(behavior, began: false, a, b, boundary, nil)
            case .stopped(let behavior, let reason):
                // The layout's own springs are not a behaviour of the session's.
                if dynamics.specs[behavior] != nil { pendingEvents.append(.dynamicsStopped(behavior: behavior.rawValue, reason: reason)) }
            }
        }
    }

    private mutating func report(_ behavior: BehaviorID, began: Bool, _ a: DynamicItemID, _ b: DynamicItemID?,
                                 _ boundary: String?, _ point: Point?) {
        let elements = [a] + (b.map { [$0] } ?? [])
        pendingEvents.append(.dynamicsCollision(DynamicsCollision(
            behavior: behavior.rawValue, began: began, elements: elements.compactMap { dynamics.elements[$0] },
            withBoundary: b == nil, boundary: boundary, point: point)))
    }

    /// The attributes an element has while it is dynamic (or, for a body, always): the
    /// layout's, placed and turned by the simulation; nil for an element the layout places.
    func dynamicAttributes(for element: ElementID) -> LayoutAttributes? {
        switch element.kind {
        case .cell:
            guard let id = dynamics.cells[element.indexPath], let body = dynamics.animator.bodies[id] else { return nil }
            var a = layout.attributes(for: element) ?? LayoutAttributes(element: element, frame: .zero)
            Self.place(&a, center: body.center, size: body.size, angle: body.angle)
            return a
        case .body:
            guard let number = element.bodyNumber, let body = dynamics.body(number: number) else { return nil }
            var a = LayoutAttributes(element: element, frame: .zero, zIndex: body.zIndex)
            Self.place(&a, center: body.center, size: body.size, angle: body.angle)
            return a
        case .supplementary, .decoration:
            return nil
        }
    }

    private static func place(_ a: inout LayoutAttributes, center: Point, size: Size, angle: Double) {
        a.frame = Rect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
        // An angle too small to show in the wire's six decimals is no rotation (a box dropped flat
        // picks up 1e-17 rad, which would otherwise resend an identity transform every frame).
        a.transform = abs(angle) < 5e-7 ? .identity : .rotation(angle: angle, x: 0, y: 0, z: 1)
    }

    // MARK: Membership

    private mutating func commit(_ resolver: DynamicElementResolver) {
        for (element, id) in resolver.added { dynamics.assign(element, id) }
    }

    /// The animator holds exactly the elements some behaviour acts on: the behaviours' item
    /// counts are taken afresh, new elements join from where they are drawn now, ones no
    /// behaviour names leave (a body keeps its place). For a restore; a behaviour added, updated
    /// or removed changes only the items it names (`join`, `leave`).
    mutating func syncDynamicMembership() {
        dynamics.recountReferences()
        for id in dynamics.animator.bodies.ids where !dynamics.isReferenced(id) { release(id) }
        _ = join(dynamics.referencedItems.filter { dynamics.animator.bodies.index(of: $0) == nil }.sorted())
        rebuildDynamicCells()
        // The end of the restore's membership step (its callers restore the animator's
        // carry-over and clock next, which bind nothing).
        setNeedsBinding()
        bindIfNeeded()
    }

    /// `ids` join the animator from where they are drawn now (cells looked up in one walk over
    /// the data); true when a cell joined (the views are then bound again).
    private mutating func join(_ ids: [DynamicItemID]) -> Bool {
        guard !ids.isEmpty else { return false }
        let items = ids.compactMap { id -> ItemID? in
            if case .item(let itemID) = dynamics.elements[id] { return itemID }
            return nil
        }
        let paths = indexPaths(of: Set(items))
        for id in ids { join(id, indexPaths: paths) }
        guard !items.isEmpty else { return false }
        for id in ids {
            if case .item(let itemID)? = dynamics.elements[id], let indexPath = paths[itemID],
               dynamics.animator.bodies.index(of: id) != nil {
                dynamics.cells[indexPath] = id
            }
        }
        return true
    }

    /// `ids`, which no behaviour names any more, leave the animator (a body stays where it is, a
    /// cell goes back to its layout) unless the layout's springs hold them, and are forgotten: a
    /// behaviour that names the element later gets a new item, so naming ever more elements
    /// keeps no trace of those let go. The elements that were in the animator, by item.
    private mutating func leave(_ ids: [DynamicItemID]) -> [DynamicElement] {
        guard !ids.isEmpty else { return [] }
        var released: [DynamicElement] = [], cells: Set<DynamicItemID> = [], forgotten: [DynamicItemID] = []
        for id in ids.sorted() {
            if dynamics.layoutSprings?.items.values.contains(id) == true { continue }
            guard let element = dynamics.elements[id] else { continue }
            if dynamics.animator.bodies.index(of: id) != nil {
                if element.isItem { cells.insert(id) }
                release(id)
                released.append(element)
            }
            forgotten.append(id)
        }
        if !cells.isEmpty { dynamics.cells = dynamics.cells.filter { !cells.contains($0.value) } }
        // Their contacts' ended events name them: taken while the elements are still known.
        drainDynamicsEvents()
        for id in forgotten { dynamics.forget(id) }
        return released
    }

    private mutating func join(_ id: DynamicItemID, indexPaths: [ItemID: IndexPath]) {
        switch dynamics.elements[id] {
        case .item(let itemID)?:
            guard let indexPath = indexPaths[itemID],
                  let a = bound[.cell(indexPath)]?.attributes ?? layout.attributes(for: .cell(indexPath)) else { return }
            dynamics.animator.setItem(id, DynamicBody(center: a.center, size: a.size))
        case .body(let name)?:
            guard let body = freeBody(named: name) else { return }
            var state = DynamicBody(center: body.center, size: body.size)
            state.angle = body.angle
            dynamics.animator.setItem(id, state)
        case nil:
            return
        }
    }

    private mutating func release(_ id: DynamicItemID) {
        if case .body(let name)? = dynamics.elements[id], let number = dynamics.bodyNumbers[name],
           let state = dynamics.animator.bodies[id] {
            dynamics.placeBody(number: number, center: state.center, angle: state.angle)
        }
        dynamics.animator.removeItem(id)
    }

    /// The index paths of `ids` in the current data, in one walk over it.
    private func indexPaths(of ids: Set<ItemID>) -> [ItemID: IndexPath] {
        var found: [ItemID: IndexPath] = [:]
        guard !ids.isEmpty else { return found }
        for (s, section) in data.sections.enumerated() {
            for (i, item) in section.items.enumerated() where ids.contains(item.id) {
                found[item.id] = IndexPath(s, i)
                if found.count == ids.count { return found }
            }
        }
        return found
    }

    private mutating func rebuildDynamicCells() {
        dynamics.cells.removeAll(keepingCapacity: true)
        var byItem: [ItemID: DynamicItemID] = [:]
        for id in dynamics.animator.bodies.ids {
            if case .item(let itemID)? = dynamics.elements[id] { byItem[itemID] = id }
        }
        for (itemID, indexPath) in indexPaths(of: Set(byItem.keys)) { dynamics.cells[indexPath] = byItem[itemID] }
    }

    /// After the data changed: dynamic cells follow their items to their new index paths;
    /// items that are gone leave the animator (behaviours that name them skip them).
    mutating func dynamicsDataDidChange() {
        guard !dynamics.itemIDs.isEmpty else { return }
        // Every item a behaviour names: in the animator, or gone and perhaps back again.
        var items: [ItemID: DynamicItemID] = [:]
        for id in dynamics.referencedItems.union(dynamics.animator.bodies.ids) {
            if case .item(let itemID)? = dynamics.elements[id] { items[itemID] = id }
        }
        guard !items.isEmpty else { return }
        let paths = indexPaths(of: Set(items.keys))
        var removed = false
        defer { if removed { drainDynamicsEvents() } }
        for (itemID, id) in items.sorted(by: { $0.value < $1.value }) {
            let present = dynamics.animator.bodies.index(of: id) != nil
            if paths[itemID] == nil, present {
                // Its contacts end now, with their ended events after the request's reply.
                dynamics.animator.removeItem(id)
                removed = true
            } else if paths[itemID] != nil, !present {
                // An item inserted again under an id a behaviour names joins from its new place,
                // once the layout has it (`joinReinsertedItems`).
                dynamics.pendingJoins.append(id)
            }
        }
        dynamics.cells.removeAll(keepingCapacity: true)
        for (itemID, indexPath) in paths where dynamics.animator.bodies.index(of: items[itemID]!) != nil {
            dynamics.cells[indexPath] = items[itemID]
        }
    }

    /// After the layout was prepared for new data: items inserted again under an id a behaviour
    /// names join the animator at their layout place. True when any did.
    @discardableResult
    mutating func joinReinsertedItems() -> Bool {
        guard !dynamics.pendingJoins.isEmpty else { return false }
        // The views are bound where the layout places them before the items join: joined cells
        // are drawn after the layout's views, so a single pass after the join would hand them
        // the pool's views in another order.
        bindIfNeeded()
        let ids = dynamics.pendingJoins
        dynamics.pendingJoins.removeAll()
        let paths = indexPaths(of: Set(ids.compactMap { id -> ItemID? in
            if case .item(let itemID)? = dynamics.elements[id] { return itemID }
            return nil
        }))
        for id in ids {
            guard case .item(let itemID)? = dynamics.elements[id], let indexPath = paths[itemID],
                  let a = layout.attributes(for: .cell(indexPath)) else { continue }
            dynamics.animator.setItem(id, DynamicBody(center: a.center, size: a.size))
        }
        rebuildDynamicCells()
        return true
    }

    /// The animator's reference bounds: the content, at least as large as the view (collision
    /// with the bounds keeps items in what can be scrolled to).
    mutating func syncReferenceBounds() {
        let size = scroll.contentSize, view = scroll.boundsSize
        let bounds = Rect(x: 0, y: 0, width: max(size.width, view.width), height: max(size.height, view.height))
        dynamics.animator.setReferenceBounds(bounds)
    }
}
