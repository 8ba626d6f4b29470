import TrellisDynamics

/// The springs a layout hangs its items on (`Layout.springs`, the springy flow layout), kept in
/// the dynamics stage as one behaviour: while a finger scrolls the content (and while a fling
/// it started decelerates) each sprung item moves with the content by its lag only (seed 000's
/// shouldInvalidateLayout(forBoundsChange:)), and its spring pulls it back to its place. Tiled
/// as WWDC 2013's version: only items within the margin of what is shown have springs; an item
/// coming in gets one where the latest scroll step says it lags, so none pops. Once everything
/// rests, the springs come off and the items are the layout's again, exactly.
struct LayoutSpringsState: Sendable {
    var behavior: BehaviorID
    var springs: AnchorSpringsBehavior
    /// The animator item of each sprung item.
    var items: [ItemID: DynamicItemID] = [:]
    /// The latest scroll step along the axis (points), for items that come in.
    var latestDelta = 0.0
}

extension CollectionView {
    /// The on-screen offset moved from `old`: sprung items move with the content by their lag,
    /// items coming into the tile get springs, items leaving it lose theirs. Only while a finger
    /// has scrolled (a programmatic scroll does not stretch).
    mutating func layoutSpringsFollowScroll(from old: Point) {
        guard let springs = layout.springs else {
            if dynamics.layoutSprings != nil { tearDownLayoutSprings() }
            return
        }
        guard let finger = scrollMotion.deceleration.fingerInView,
              scrollMotion.deceleration.dragging || scrollMotion.deceleration.decelerating else { return }
        let offset = presentationContentOffset
        let delta = springs.vertical ? offset.y - old.y : offset.x - old.x
        guard delta != 0 else { return }
        // The finger in content coordinates: where it is in the view, over the content shown now.
        let touch = finger + offset
        var state = dynamics.layoutSprings ?? LayoutSpringsState(
            behavior: dynamics.animator.add(AnchorSpringsBehavior(frequency: springs.frequency, damping: springs.damping)),
            springs: AnchorSpringsBehavior(frequency: springs.frequency, damping: springs.damping))
        for (i, id) in state.springs.items.enumerated() {
            guard var body = dynamics.animator.bodies[id] else { continue }
            let lag = springs.lag(delta: delta, touch: touch, anchor: state.springs.anchors[i])
            if springs.vertical { body.center.y += lag } else { body.center.x += lag }
            dynamics.animator.setItem(id, body)
        }
        state.latestDelta = delta
        tile(&state, springs, touch: touch)
        dynamics.layoutSprings = state
    }

    /// Springs for the items within the margin of the bounds on screen, none for the others; in
    /// the layout's order, so the animator's items are numbered the same in every process.
    private mutating func tile(_ state: inout LayoutSpringsState, _ springs: LayoutSprings, touch: Point) {
        let rect = onScreenBounds.expanded(dx: springs.tileMargin, dy: springs.tileMargin)
        var wanted: [(ItemID, LayoutAttributes)] = []
        var wantedIDs = Set<ItemID>()
        for a in layout.attributes(in: rect) where a.element.isCell && data.contains(a.indexPath) {
            let itemID = data.id(at: a.indexPath)
            if wantedIDs.insert(itemID).inserted { wanted.append((itemID, a)) }
        }
        // Leaving: the spring comes off; the item leaves the animator unless a behaviour of the
        // session's names it too.
        var leaving = Set<DynamicItemID>()
        for (itemID, id) in state.items where !wantedIDs.contains(itemID) { leaving.insert(id); state.items[itemID] = nil }
        if !leaving.isEmpty { state.springs.removeAll { leaving.contains($0) } }
        // Coming in: a spring at its place, the item where the latest step says it lags.
        var joining: [(DynamicItemID, DynamicBody, IndexPath)] = []
        for (itemID, a) in wanted where state.items[itemID] == nil {
            let element = DynamicElement.item(itemID)
            let id = dynamics.itemIDs[element] ?? DynamicItemID(dynamics.nextItem)
            dynamics.assign(element, id)
            state.items[itemID] = id
            state.springs.set(id, anchor: a.center)
            guard dynamics.animator.bodies.index(of: id) == nil else { continue }
            var start = a.center
            let lag = springs.lag(delta: state.latestDelta, touch: touch, anchor: a.center)
            if springs.vertical { start.y += lag } else { start.x += lag }
            joining.append((id, DynamicBody(center: start, size: a.size), a.indexPath))
        }
        _ = dynamics.animator.update(state.behavior, to: state.springs)
        for (id, body, indexPath) in joining {
            dynamics.animator.setItem(id, body)
            dynamics.cells[indexPath] = id
        }
        if !leaving.isEmpty { releaseSprung(leaving) }
    }

    /// Items the springs let go of leave the animator, unless a behaviour of the session names them.
    private mutating func releaseSprung(_ ids: Set<DynamicItemID>) {
        var named = Set<DynamicItemID>()
        for entry in dynamics.animator.behaviors { named.formUnion(entry.behavior.items) }
        let gone = ids.subtracting(named)
        guard !gone.isEmpty else { return }
        for id in gone.sorted() {
            dynamics.animator.removeItem(id)
            // Only the springs knew it: forget it, so scrolling through many items keeps no trace.
            if let element = dynamics.elements[id], dynamics.specs.isEmpty {
                dynamics.elements[id] = nil
                dynamics.itemIDs[element] = nil
            }
        }
        dynamics.cells = dynamics.cells.filter { !gone.contains($0.value) }
    }

    /// Takes every spring off (the items are the layout's again): at rest, on a new layout or
    /// new data.
    mutating func tearDownLayoutSprings() {
        guard let state = dynamics.layoutSprings else { return }
        dynamics.layoutSprings = nil
        _ = dynamics.animator.remove(state.behavior)
        releaseSprung(Set(state.items.values))
    }

    /// After a tick: once nothing moves any more, the springs come off and the items are the
    /// layout's again, exactly. True when they did.
    mutating func restLayoutSprings() -> Bool {
        guard dynamics.layoutSprings != nil, dynamics.animator.isPaused, !scrollMotion.deceleration.dragging,
              !scrollMotion.deceleration.decelerating, scrollMotion.animation == nil else { return false }
        tearDownLayoutSprings()
        return true
    }
}
