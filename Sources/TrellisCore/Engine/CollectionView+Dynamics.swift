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
        guard physics.bodyNumbers[name] == nil else { throw .bodyExists(name) }
        let body = FreeBody(name: name, number: physics.nextBodyNumber, center: center, size: size, angle: angle,
                            reuseIdentifier: reuseIdentifier, data: data, zIndex: zIndex)
        physics.nextBodyNumber += 1
        physics.insertBody(body)
        // Only the new body's view, if it is shown: adding the ten-thousandth body costs what
        // adding the first did.
        if let attributes = dynamicAttributes(for: .body(body.number)) { bindIfShown(attributes) }
        return body
    }

    /// Removes a free body; refused while a behaviour acts on it.
    public mutating func removeBody(named name: String) throws(EngineError) {
        guard let number = physics.bodyNumbers[name] else { throw .unknownBody(name, known: physics.bodyNumbers.keys.sorted()) }
        if let id = physics.itemIDs[.body(name)] {
            let users = physics.animator.behaviors.filter { $0.behavior.items.contains(id) }.map(\.id.rawValue)
            if !users.isEmpty { throw .bodyInUse(name, behaviors: users) }
        }
        physics.removeBody(number: number)
        updateVisibleViews()
    }

    /// The free bodies, in the order they were added, where they are now.
    public var freeBodies: [FreeBody] { physics.bodyOrder.compactMap { physics.body(number: $0) } }

    /// The free body named `name`, where it is now.
    public func freeBody(named name: String) -> FreeBody? { physics.bodyNumbers[name].flatMap { physics.body(number: $0) } }

    // MARK: Behaviours

    /// How much collision work one physics step may do.
    public var contactLimits: ContactLimits {
        get { physics.animator.contactLimits }
        set { physics.animator.contactLimits = newValue }
    }

    /// The number of free bodies.
    public var freeBodyCount: Int { physics.bodies.count }

    /// The number of behaviours.
    public var dynamicBehaviorCount: Int { physics.animator.behaviors.count }

    /// A resolver for decoding a behaviour: elements named before keep their animator item;
    /// those `keeping` names (a behaviour being updated) stand even if deleted since.
    public func dynamicElementResolver(keeping: [DynamicItemID] = []) -> DynamicElementResolver {
        let data = self.data, bodies = physics.bodyNumbers
        return DynamicElementResolver(known: physics.itemIDs, next: physics.nextItem, keeping: Set(keeping)) { element in
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
        let joined = join(physics.retain(behavior.items))
        let id = physics.animator.add(behavior)
        physics.specs[id] = spec
        if joined { updateVisibleViews() }
        return id
    }

    /// Replaces a behaviour's settings (`spec` its whole new settings as given).
    public mutating func updateDynamicBehavior(_ id: BehaviorID, to behavior: any DynamicBehavior, spec: any DynamicBehaviorSpec,
                                               resolver: DynamicElementResolver) throws(EngineError) {
        guard physics.specs[id] != nil, let old = physics.animator.behavior(id) else {
            throw .unknownBehavior(id.rawValue, known: dynamicBehaviorIDs)
        }
        commit(resolver)
        // New items join first: the animator's update takes unset settings from them.
        let joined = join(physics.retain(behavior.items))
        _ = physics.animator.update(id, to: behavior)
        physics.specs[id] = spec
        let left = leave(physics.release(old.items))
        if joined || left.contains(where: \.isItem) { updateVisibleViews() }
        drainDynamicsEvents()
    }

    /// Removes a behaviour; returns the elements no behaviour acts on any more (handed back).
    @discardableResult
    public mutating func removeDynamicBehavior(_ id: BehaviorID) throws(EngineError) -> [DynamicElement] {
        guard physics.specs[id] != nil, let removed = physics.animator.remove(id) else {
            throw .unknownBehavior(id.rawValue, known: dynamicBehaviorIDs)
        }
        physics.specs[id] = nil
        let left = leave(physics.release(removed.items))
        if left.contains(where: \.isItem) { updateVisibleViews() }
        drainDynamicsEvents()
        return left
    }

    /// The behaviours' ids, in the order they were added.
    public var dynamicBehaviorIDs: [Int] { physics.animator.behaviors.map(\.id.rawValue) }

    /// A behaviour and its settings as given.
    public func dynamicBehavior(_ id: BehaviorID) -> (behavior: any DynamicBehavior, spec: any DynamicBehaviorSpec)? {
        guard let behavior = physics.animator.behavior(id), let spec = physics.specs[id] else { return nil }
        return (behavior, spec)
    }

    /// Every behaviour, in the order added, with its settings as given.
    public var dynamicBehaviors: [(id: BehaviorID, behavior: any DynamicBehavior, spec: any DynamicBehaviorSpec)] {
        physics.animator.behaviors.compactMap { entry in physics.specs[entry.id].map { (entry.id, entry.behavior, $0) } }
    }

    /// Why a behaviour was stopped (it would have made the simulation non-finite), nil while it acts.
    public func dynamicBehaviorStopReason(_ id: BehaviorID) -> String? { physics.animator.stopReason(id) }

    /// The element an animator item stands for.
    public func dynamicElement(for id: DynamicItemID) -> DynamicElement? { physics.elements[id] }

    /// UIDynamicItemBehavior's addLinearVelocity / addAngularVelocity on the items of a behaviour.
    public mutating func addDynamicVelocity(linear: Vector, angular: Double, to items: [DynamicItemID]) {
        for id in items {
            if linear != .zero { physics.animator.addLinearVelocity(linear, to: id) }
            if angular != 0 { physics.animator.addAngularVelocity(angular, to: id) }
        }
    }

    /// The most physics steps one advance takes (the rest of a longer gap is dropped; 0 drops
    /// them all); unlimited by default, so a manual clock's every millisecond is simulated.
    public var physicsCatchUpLimit: Int {
        get { physics.catchUpLimit }
        set { physics.catchUpLimit = max(0, newValue) }
    }

    /// Physics steps the animator took, in all.
    public var physicsStepsTaken: Int { physics.animator.steps }

    /// What the session's physics holds and costs, for `stats`.
    public var dynamicsLoad: DynamicsLoad {
        let a = physics.animator
        return DynamicsLoad(bodies: physics.bodies.count, behaviors: a.behaviors.count, stopped: a.stoppedCount,
                            dynamicItems: a.bodies.count, contacts: a.lastStepContacts,
                            stepsOverContactLimits: a.stepsOverContactLimits, contactPointsDropped: a.contactPointsDropped,
                            stepsDropped: physicsStepsDropped)
    }

    /// True while the animator runs (UIDynamicAnimator.isRunning).
    public var dynamicsRunning: Bool { !physics.animator.isPaused }

    /// The animator items acting now (the elements some behaviour acts on), in the order they joined.
    public var dynamicItems: [DynamicItemID] { physics.animator.bodies.ids }

    /// The dynamic state of an item or body; an element no behaviour acts on reports where it is
    /// drawn (its layout's place, or the body's) and no velocity.
    public func dynamicState(of element: DynamicElement) throws(EngineError) -> DynamicItemState {
        if let id = physics.itemIDs[element], let body = physics.animator.bodies[id] {
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
            guard let body = freeBody(named: name) else { throw .unknownBody(name, known: physics.bodyNumbers.keys.sorted()) }
            return DynamicItemState(element: element, isDynamic: false, center: body.center, size: body.size, angle: body.angle,
                                    velocity: .zero, angularVelocity: 0)
        }
    }

    // MARK: The physics stage in the tick

    /// Stage 3: up to `steps` steps of the animator while `more` says so (at least one): how
    /// many it took (while paused, all: nothing fell behind) and whether dynamic items may have moved.
    mutating func stepPhysics(steps: Int, while more: () -> Bool) -> (taken: Int, moved: Bool) {
        let result = physics.step(steps: steps, while: more)
        if result.moved { drainDynamicsEvents() }
        return result
    }

    /// The animator's events as the engine's (paused; contacts, named by element).
    mutating func drainDynamicsEvents() {
        for event in physics.animator.drainEvents() {
            switch event {
            // The layout's own springs are not the session's dynamics: their rest is not reported.
            case .paused: if physics.layoutSprings == nil || !physics.specs.isEmpty { pendingEvents.append(.dynamicsPaused) }
            case .resumed: break
            case .collisionBegan(let behavior, let a, let b, let boundary, let point):
                report(behavior, began: true, a, b, boundary, point)
            case .collisionEnded(let behavior, let a, let b, let boundary):
                report(behavior, began: false, a, b, boundary, nil)
            case .stopped(let behavior, let reason):
                // The layout's own springs are not a behaviour of the session's.
                if physics.specs[behavior] != nil { pendingEvents.append(.dynamicsStopped(behavior: behavior.rawValue, reason: reason)) }
            }
        }
    }

    private mutating func report(_ behavior: BehaviorID, began: Bool, _ a: DynamicItemID, _ b: DynamicItemID?,
                                 _ boundary: String?, _ point: Point?) {
        let elements = [a] + (b.map { [$0] } ?? [])
        pendingEvents.append(.dynamicsCollision(DynamicsCollision(
            behavior: behavior.rawValue, began: began, elements: elements.compactMap { physics.elements[$0] },
            withBoundary: b == nil, boundary: boundary, point: point)))
    }

    /// The attributes an element has while it is dynamic (or, for a body, always): the
    /// layout's, placed and turned by the simulation; nil for an element the layout places.
    func dynamicAttributes(for element: ElementID) -> LayoutAttributes? {
        switch element.kind {
        case .cell:
            guard let id = physics.cells[element.indexPath], let body = physics.animator.bodies[id] else { return nil }
            var a = layout.attributes(for: element) ?? LayoutAttributes(element: element, frame: .zero)
            Self.place(&a, center: body.center, size: body.size, angle: body.angle)
            return a
        case .body:
            guard let body = physics.body(number: element.indexPath.item) else { return nil }
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

    /// Where an element goes now: the simulation's place while it is dynamic, else the layout's.
    func targetAttributes(for element: ElementID) -> LayoutAttributes? {
        if element.kind == .body || !physics.cells.isEmpty, let a = dynamicAttributes(for: element) { return a }
        return element.kind == .body ? nil : layout.attributes(for: element)
    }

    /// What is shown in `rect`: the layout's elements, less the dynamic cells, plus the dynamic
    /// cells and the bodies whose drawn bounds meet it.
    func shownAttributes(in rect: Rect) -> [LayoutAttributes] {
        var result = layout.attributes(in: rect)
        guard !physics.cells.isEmpty || !physics.bodies.isEmpty else { return result }
        if !physics.cells.isEmpty {
            result.removeAll { $0.element.isCell && physics.cells[$0.element.indexPath] != nil }
            for indexPath in physics.cells.keys.sorted() {
                if let a = dynamicAttributes(for: .cell(indexPath)), a.visualBounds.intersects(rect) { result.append(a) }
            }
        }
        for number in physics.bodyOrder {
            if let a = dynamicAttributes(for: .body(number)), a.visualBounds.intersects(rect) { result.append(a) }
        }
        return result
    }

    // MARK: Membership

    private mutating func commit(_ resolver: DynamicElementResolver) {
        for (element, id) in resolver.added { physics.assign(element, id) }
    }

    /// The animator holds exactly the elements some behaviour acts on: the behaviours' item
    /// counts are taken afresh, new elements join from where they are drawn now, ones no
    /// behaviour names leave (a body keeps its place). For a restore; a behaviour added, updated
    /// or removed changes only the items it names (`join`, `leave`).
    mutating func syncDynamicMembership() {
        physics.recountReferences()
        for id in physics.animator.bodies.ids where !physics.isReferenced(id) { release(id) }
        _ = join(physics.referencedItems.filter { physics.animator.bodies.index(of: $0) == nil }.sorted())
        rebuildDynamicCells()
        updateVisibleViews()
    }

    /// `ids` join the animator from where they are drawn now (cells looked up in one walk over
    /// the data); true when a cell joined (the views are then bound again).
    private mutating func join(_ ids: [DynamicItemID]) -> Bool {
        guard !ids.isEmpty else { return false }
        let items = ids.compactMap { id -> ItemID? in
            if case .item(let itemID) = physics.elements[id] { return itemID }
            return nil
        }
        let paths = indexPaths(of: Set(items))
        for id in ids { join(id, indexPaths: paths) }
        guard !items.isEmpty else { return false }
        for id in ids {
            if case .item(let itemID)? = physics.elements[id], let indexPath = paths[itemID],
               physics.animator.bodies.index(of: id) != nil {
                physics.cells[indexPath] = id
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
            if physics.layoutSprings?.items.values.contains(id) == true { continue }
            guard let element = physics.elements[id] else { continue }
            if physics.animator.bodies.index(of: id) != nil {
                if element.isItem { cells.insert(id) }
                release(id)
                released.append(element)
            }
            forgotten.append(id)
        }
        if !cells.isEmpty { physics.cells = physics.cells.filter { !cells.contains($0.value) } }
        // Their contacts' ended events name them: taken while the elements are still known.
        drainDynamicsEvents()
        for id in forgotten { physics.forget(id) }
        return released
    }

    private mutating func join(_ id: DynamicItemID, indexPaths: [ItemID: IndexPath]) {
        switch physics.elements[id] {
        case .item(let itemID)?:
            guard let indexPath = indexPaths[itemID],
                  let a = bound[.cell(indexPath)]?.attributes ?? layout.attributes(for: .cell(indexPath)) else { return }
            physics.animator.setItem(id, DynamicBody(center: a.center, size: a.size))
        case .body(let name)?:
            guard let body = freeBody(named: name) else { return }
            var state = DynamicBody(center: body.center, size: body.size)
            state.angle = body.angle
            physics.animator.setItem(id, state)
        case nil:
            return
        }
    }

    private mutating func release(_ id: DynamicItemID) {
        if case .body(let name)? = physics.elements[id], let number = physics.bodyNumbers[name],
           let state = physics.animator.bodies[id] {
            physics.placeBody(number: number, center: state.center, angle: state.angle)
        }
        physics.animator.removeItem(id)
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
        physics.cells.removeAll(keepingCapacity: true)
        var byItem: [ItemID: DynamicItemID] = [:]
        for id in physics.animator.bodies.ids {
            if case .item(let itemID)? = physics.elements[id] { byItem[itemID] = id }
        }
        for (itemID, indexPath) in indexPaths(of: Set(byItem.keys)) { physics.cells[indexPath] = byItem[itemID] }
    }

    /// After the data changed: dynamic cells follow their items to their new index paths;
    /// items that are gone leave the animator (behaviours that name them skip them).
    mutating func dynamicsDataDidChange() {
        guard !physics.itemIDs.isEmpty else { return }
        // Every item a behaviour names: in the animator, or gone and perhaps back again.
        var items: [ItemID: DynamicItemID] = [:]
        for id in physics.referencedItems.union(physics.animator.bodies.ids) {
            if case .item(let itemID)? = physics.elements[id] { items[itemID] = id }
        }
        guard !items.isEmpty else { return }
        let paths = indexPaths(of: Set(items.keys))
        var removed = false
        defer { if removed { drainDynamicsEvents() } }
        for (itemID, id) in items.sorted(by: { $0.value < $1.value }) {
            let present = physics.animator.bodies.index(of: id) != nil
            if paths[itemID] == nil, present {
                // Its contacts end now, with their ended events after the request's reply.
                physics.animator.removeItem(id)
                removed = true
            } else if paths[itemID] != nil, !present {
                // An item inserted again under an id a behaviour names joins from its new place,
                // once the layout has it (`joinReinsertedItems`).
                physics.pendingJoins.append(id)
            }
        }
        physics.cells.removeAll(keepingCapacity: true)
        for (itemID, indexPath) in paths where physics.animator.bodies.index(of: items[itemID]!) != nil {
            physics.cells[indexPath] = items[itemID]
        }
    }

    /// After the layout was prepared for new data: items inserted again under an id a behaviour
    /// names join the animator at their layout place. True when any did.
    @discardableResult
    mutating func joinReinsertedItems() -> Bool {
        guard !physics.pendingJoins.isEmpty else { return false }
        let ids = physics.pendingJoins
        physics.pendingJoins.removeAll()
        let paths = indexPaths(of: Set(ids.compactMap { id -> ItemID? in
            if case .item(let itemID)? = physics.elements[id] { return itemID }
            return nil
        }))
        for id in ids {
            guard case .item(let itemID)? = physics.elements[id], let indexPath = paths[itemID],
                  let a = layout.attributes(for: .cell(indexPath)) else { continue }
            physics.animator.setItem(id, DynamicBody(center: a.center, size: a.size))
        }
        rebuildDynamicCells()
        return true
    }

    /// The animator's reference bounds: the content, at least as large as the view (collision
    /// with the bounds keeps items in what can be scrolled to).
    mutating func syncReferenceBounds() {
        let size = scroll.contentSize, view = scroll.boundsSize
        let bounds = Rect(x: 0, y: 0, width: max(size.width, view.width), height: max(size.height, view.height))
        physics.animator.setReferenceBounds(bounds)
    }
}
