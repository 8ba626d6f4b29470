/// One session's whole collection-view state, as a UICollectionView owns it: data, layout,
/// scroll geometry, the bound views and their reuse pool, selection. A single-threaded value
/// with no clock and no I/O: time enters only through `advance(to:)`, so the same commands
/// give the same scenes everywhere.
public struct CollectionView: Sendable {
    public internal(set) var data: CollectionData
    public internal(set) var layout: any Layout
    public internal(set) var scroll: ScrollState
    /// Elements this far (points, every side) outside the visible rect are bound too, so views
    /// are ready before they scroll in. UIKit's prefetch distance is not public; 64 points is ours.
    public private(set) var prefetchMargin: Double
    public internal(set) var reusePool: ReusePool
    public var selectionPolicy = SelectionPolicy()
    /// Selected items by identifier, in selection order, so selection follows items through updates.
    public internal(set) var selectedItems: [ItemID] = []
    /// The engine's current time in seconds; only `advance(to:)` moves it.
    public internal(set) var time: Double = 0

    /// Bound views by element; `order` is the position in the layout's answer, for drawing ties.
    var bound = BoundViews()
    /// Views of deleted or vanished elements, animating to their final attributes; they return
    /// to the pool when their animation ends.
    var disappearing: [DisappearingView] = []
    /// The motion pipeline's stages with state of their own (MotionStage.swift tells the order).
    var scrollMotion = ScrollMotion()
    var physics = PhysicsStage()
    var animations = TimedAnimations()
    /// The interactive layout transition in progress, if any.
    var interactiveTransition: InteractiveTransitionState?
    /// A tick whose physics steps are not all taken yet (`advance(to:physicsWhile:overrun:)`).
    var tickInProgress: TickInProgress?
    /// Physics steps dropped, in all: by a bounded advance (`PhysicsOverrun.drop`) and past the
    /// catch-up limit (`physicsCatchUpLimit`) while the animator ran.
    public internal(set) var physicsStepsDropped = 0
    private var generation = 0
    var pendingEvents: [EngineEvent] = []
    /// The scene's last drawing order, reused while it holds.
    let drawingOrderMemo = DrawingOrderMemo()

    struct BoundView: Sendable {
        var view: ViewID
        var reuseIdentifier: String
        /// The presentation attributes (what is on screen now).
        var attributes: LayoutAttributes
        var order: Int
        var generation: Int
        var animation: ViewAnimation?
    }

    struct DisappearingView: Sendable {
        var view: ViewID
        var reuseIdentifier: String
        var element: ElementID
        var itemID: ItemID?
        var data: ItemPayload?
        var attributes: LayoutAttributes
        var order: Int
        var animation: ViewAnimation
    }

    public static let defaultPrefetchMargin = 64.0

    public init(boundsSize: Size, layout: any Layout, data: CollectionData = CollectionData(),
                contentInset: EdgeInsets = .zero, prefetchMargin: Double = CollectionView.defaultPrefetchMargin,
                reusePool: ReusePool = ReusePool()) {
        self.data = data
        self.layout = layout
        self.prefetchMargin = prefetchMargin
        self.reusePool = reusePool
        scroll = ScrollState(boundsSize: boundsSize, contentInset: contentInset)
        scroll.contentOffset = scroll.minimumContentOffset
        relayout(.all)
    }

    // MARK: Inputs

    /// reloadData: new data, every visible view returned to its pool and bound again, selection
    /// cleared (as UXKit's reconstruction does), the offset pulled back if the content shrank.
    public mutating func reloadData(_ newData: CollectionData) {
        let wrapped = wrappedPlace.map { (id: data[$0.item].id, displacement: $0.displacement) }
        tearDownLayoutSprings()
        data = newData
        dynamicsDataDidChange()
        unbindAll()
        if !selectedItems.isEmpty {
            selectedItems.removeAll()
            pendingEvents.append(.selectionChanged(selected: []))
        }
        relayout(.all, clampOffset: true)
        if let wrapped, let item = data.indexPath(of: wrapped.id), let centring = offsetCentring(item) {
            scroll.contentOffset = centring + wrapped.displacement
            retargetScroll()
            prepareForOnScreenBounds()
            updateVisibleViews()
        }
        if joinReinsertedItems() { updateVisibleViews() }
    }

    /// Replaces the data keeping bound views and the selection of items that still exist: the
    /// step batch updates and snapshots end with (selection follows item identifiers).
    mutating func setData(_ newData: CollectionData, invalidation: LayoutInvalidation, rebind: Bool = true) {
        tearDownLayoutSprings()
        data = newData
        dynamicsDataDidChange()
        if !selectedItems.isEmpty {
            var remaining = Set(selectedItems)
            for section in data.sections where !remaining.isEmpty {
                for item in section.items { remaining.remove(item.id) }
            }
            if !remaining.isEmpty {
                selectedItems.removeAll { remaining.contains($0) }  // `remaining` holds the ids that are gone
                pendingEvents.append(.selectionChanged(selected: selectedItems))
            }
        }
        if rebind {
            relayout(invalidation, clampOffset: true)
            if joinReinsertedItems() { updateVisibleViews() }
        } else {
            layout.prepare(context, invalidation: invalidation)
            scroll.contentSize = layout.contentSize
            joinReinsertedItems()
        }
    }

    /// Sets the content offset as UIScrollView's setContentOffset does: exactly, unclamped.
    public mutating func setContentOffset(_ offset: Point) {
        stopOffsetAnimation()
        haltScrollPhysics()
        let old = scroll.visibleBounds
        scroll.contentOffset = offset
        boundsDidChange(from: old)
        recentreWrappedContent()
    }

    /// Scrolls so the item sits at `position` (UIKit's scrollToItem), clamped to the content.
    public mutating func scrollToItem(at indexPath: IndexPath, position: ScrollPosition) throws(EngineError) {
        setContentOffset(try offsetShowingItem(at: indexPath, position: position))
    }

    /// The offset that shows the item at `position`, clamped to the content.
    func offsetShowingItem(at indexPath: IndexPath, position: ScrollPosition) throws(EngineError) -> Point {
        if let problem = position.validationError { throw .invalidScrollPosition(problem) }
        guard data.contains(indexPath), let attributes = layout.attributes(for: .cell(indexPath)) else {
            throw .itemOutOfRange(indexPath, sections: data.numberOfSections,
                                  items: indexPath.section >= 0 && indexPath.section < data.numberOfSections
                                      ? data.numberOfItems(inSection: indexPath.section) : nil)
        }
        return scroll.offset(showing: attributes.frame, at: position)
    }

    /// Changes the visible size (a resize or rotation); the layout is asked again and the
    /// offset kept inside the content.
    public mutating func resize(to size: Size) {
        scroll.boundsSize = size
        relayout(.boundsChange, clampOffset: true)
    }

    /// Changes UIScrollView's contentInset.
    public mutating func setContentInset(_ inset: EdgeInsets) {
        scroll.contentInset = inset
        relayout(.boundsChange, clampOffset: true)
    }

    /// Replaces the layout without animation; the offset goes through the new layout's
    /// `targetContentOffset(forProposed:)` and is kept inside the content.
    public mutating func setLayout(_ newLayout: any Layout) {
        tearDownLayoutSprings()
        layout = newLayout
        relayout(.all)
        setContentOffset(scroll.clamped(layout.targetContentOffset(forProposed: scroll.contentOffset)))
    }

    /// Moves the engine's clock (seconds) and everything that moves with it: the one way time
    /// enters the engine. Time never goes backwards. One tick of the motion pipeline, in its
    /// order (MotionStage.swift): input, scroll motion, physics, layout on the on-screen bounds,
    /// timed animations, binding.
    public mutating func advance(to time: Double) {
        advance(to: time, physicsWhile: { true }, overrun: .drop)
    }

    /// `advance(to:)` with its physics bounded by the caller: after each physics step `more` is
    /// asked whether to take another (the server asks its clock; the engine has none, and the
    /// steps it takes are the same whatever the answers, only when they are taken differs). At
    /// least one step is taken if any is due. The steps `more` refuses are dropped (`.drop`:
    /// physics falls behind real time, as a live clock must, and `physicsStepsDropped` counts
    /// them) or kept for `continueAdvance` (`.defer`: a manual clock's long advance, split
    /// across the server's loop turns; the tick then ends only when the last step is taken, and
    /// nothing else may be asked of the engine meanwhile). True when the tick ended.
    @discardableResult
    public mutating func advance(to time: Double, physicsWhile more: () -> Bool, overrun: PhysicsOverrun) -> Bool {
        precondition(tickInProgress == nil, "an advance is still in progress: continueAdvance it first")
        guard time > self.time else { return true }
        self.time = time
        // A layout animating by itself is prepared again for this tick, even at its last one.
        var tick = TickInProgress(layoutMoves: layout.needsTicks)
        let shown = presentationContentOffset
        // 1. Input samples due by now: gestures arrive as commands (pan, touch) between ticks.
        // The fixed steps due, one count for the released scroll and the animator.
        let (steps, beyondCatchUp) = physics.dueSteps(to: time)
        physicsStepsDropped += beyondCatchUp
        // 2. Scroll motion: the offset on screen (an animation, or the user's released scroll).
        let (animated, scrollLanded) = scrollMotion.step(to: time)
        let flung = stepScrollPhysics(steps: steps)
        tick.scrolled = animated || flung
        tick.scrollLanded = scrollLanded
        // The layout's springs follow the scroll before the step (seed 000's bounds change).
        if tick.scrolled { layoutSpringsFollowScroll(from: shown) }
        // 3. Physics (the rest of the tick follows once its steps are taken).
        tick.remainingSteps = steps
        tick.overrun = overrun
        return runTick(tick, while: more)
    }

    /// Takes more of a deferred tick's physics steps (`advance(to:physicsWhile:overrun:)` with
    /// `.defer`), and ends the tick once the last is taken: true then.
    @discardableResult
    public mutating func continueAdvance(physicsWhile more: () -> Bool) -> Bool {
        guard let tick = tickInProgress else { return true }
        tickInProgress = nil
        return runTick(tick, while: more)
    }

    /// True while a deferred tick still has physics steps to take.
    public var isAdvancing: Bool { tickInProgress != nil }

    /// Stage 3 for as long as `more` allows, then (the steps taken or dropped) stages 4 to 6.
    private mutating func runTick(_ tick: TickInProgress, while more: () -> Bool) -> Bool {
        var tick = tick
        let (taken, moved) = stepPhysics(steps: tick.remainingSteps, while: more)
        tick.stepped = tick.stepped || moved
        tick.remainingSteps -= taken
        if tick.remainingSteps > 0 {
            if tick.overrun == .defer {
                tickInProgress = tick
                return false
            }
            physicsStepsDropped += tick.remainingSteps
        }
        // Springs that came to rest come off.
        let simulated = restLayoutSprings() || tick.stepped
        // 4. Layout for the bounds on screen, when the layout depends on them.
        if tick.scrolled || tick.layoutMoves { prepareForOnScreenBounds() }
        // 5. Timed animations.
        let landed = stepAnimations(alsoLanded: tick.scrollLanded)
        // 6. Binding and the scene.
        if tick.scrolled || landed || simulated || tick.layoutMoves { updateVisibleViews() }
        // Endless content goes back to its middle copy once everything has stopped.
        recentreWrappedContent()
        return true
    }

    /// The session needs frames: some stage of the pipeline moves something by time alone. The
    /// frame clock, persistence and `stats` ask only this.
    public var needsTicks: Bool { physics.needsTicks || needsTicksBesidesPhysics }

    /// Some stage other than physics moves something by time alone (a restored live session lands
    /// these; its physics goes on live).
    public var needsTicksBesidesPhysics: Bool { scrollMotion.needsTicks || animations.needsTicks || layout.needsTicks }

    /// Sets the prefetch margin and rebinds.
    public mutating func setPrefetchMargin(_ margin: Double) {
        prefetchMargin = max(0, margin)
        updateVisibleViews()
    }

    /// Sets the pool bound per reuse identifier (and optional per-identifier bounds).
    public mutating func setPoolLimit(_ limit: Int, for reuseIdentifier: String? = nil) {
        if let reuseIdentifier { reusePool.limits[reuseIdentifier] = limit } else { reusePool.defaultLimitPerIdentifier = limit }
    }

    /// Events since the last call (selection, …), oldest first.
    public mutating func drainEvents() -> [EngineEvent] {
        defer { pendingEvents.removeAll() }
        return pendingEvents
    }

    // MARK: Outputs

    /// The views on screen now, back to front.
    public var scene: Scene {
        var builder = SceneBuilder(capacity: boundViewCount)
        visitScene(&builder)
        return Scene(time: time, contentOffset: presentationContentOffset, contentSize: scroll.contentSize,
                     boundsSize: scroll.boundsSize, views: builder.views)
    }

    /// Hands `visitor` the views of `scene`, back to front, without building them.
    public func visitScene<Visitor: SceneVisitor>(_ visitor: inout Visitor) {
        // Drawing order is settled on small keys first (remembered from the last frame while it
        // holds: DrawingOrderMemo), then each view is read once in its place: sorting whole
        // SceneViews (or indices into them, then copying) cost as much as building them, and
        // this runs for every frame of every session.
        var keys = [DrawingKey]()
        keys.reserveCapacity(bound.count + disappearing.count)
        // Fields are read through the subscript, never `let b = …`: a BoundView copy carries
        // its animation's two attribute sets.
        for index in bound.indices {
            keys.append(DrawingKey(zIndex: bound[row: index].attributes.zIndex, order: bound[row: index].order,
                                   view: bound[row: index].view, source: index))
        }
        for (i, d) in disappearing.enumerated() {
            keys.append(DrawingKey(zIndex: d.attributes.zIndex, order: d.order, view: d.view, source: bound.count + i))
        }
        keys = drawingOrderMemo.sorted(keys)
        // Attributes are handed over by pointer, where they are kept: passed as values, each
        // was copied on the way and destroyed after (4% of a frame's instructions).
        bound.withUnsafeRows { rows in
            disappearing.withUnsafeBufferPointer { leaving in
                for (order, key) in keys.enumerated() {
                    let goOn: Bool
                    if key.source < rows.count {
                        let row = rows.baseAddress! + key.source
                        let element = bound.keys[key.source]
                        var itemID: ItemID?, payload: ItemPayload?
                        if element.isCell, data.contains(element.indexPath) {
                            let item = data[element.indexPath]
                            itemID = item.id
                            payload = item.data
                        } else if element.kind == .body, let body = physics.bodies[element.indexPath.item] {
                            // A body's name stands where a cell's item id does.
                            itemID = ItemID(body.name)
                            payload = body.data
                        }
                        goOn = visitor.visit(row.pointee.view, reuseIdentifier: row.pointee.reuseIdentifier, element: element,
                                             itemID: itemID, data: payload, attributes: row.pointer(to: \.attributes)!, order: order)
                    } else {
                        let d = leaving.baseAddress! + (key.source - rows.count)
                        goOn = visitor.visit(d.pointee.view, reuseIdentifier: d.pointee.reuseIdentifier, element: d.pointee.element,
                                             itemID: d.pointee.itemID, data: d.pointee.data, attributes: d.pointer(to: \.attributes)!,
                                             order: order)
                    }
                    if !goOn { return }
                }
            }
        }
    }

    /// How many views are on screen now (bound, plus disappearing ones still animating).
    public var boundViewCount: Int { bound.count + disappearing.count }

    /// The content offset on screen now: the model offset, or where its animation has got to.
    public var presentationContentOffset: Point {
        scrollMotion.offset(model: scroll.contentOffset, time: time, progress: interactiveTransition?.progress)
    }

    /// The on-screen content offset's velocity in points per second (zero at rest).
    public var scrollVelocity: Point { scrollMotion.velocity(at: time) }

    /// The presentation attributes of an element on screen now, or nil when it has no view.
    public func presentationAttributes(for element: ElementID) -> LayoutAttributes? { bound[element]?.attributes }

    /// The layout's (model) attributes of an element, where it rests.
    public func attributes(for element: ElementID) -> LayoutAttributes? { targetAttributes(for: element) }

    /// The layout's (model) attributes of every element in `rect`.
    public func attributes(in rect: Rect) -> [LayoutAttributes] { shownAttributes(in: rect) }

    // MARK: Layout and binding

    mutating func relayout(_ invalidation: LayoutInvalidation, clampOffset: Bool = false) {
        layout.prepare(context, invalidation: invalidation)
        scroll.contentSize = layout.contentSize
        syncReferenceBounds()
        if clampOffset {
            let clamped = scroll.clamped(scroll.contentOffset)
            if clamped != scroll.contentOffset {
                scroll.contentOffset = clamped
                retargetScroll()
                if layout.shouldInvalidate(forBoundsChange: onScreenBounds) {
                    layout.prepare(context, invalidation: .boundsChange)
                }
            }
        }
        updateVisibleViews()
        recentreWrappedContent()
    }

    /// What the layout sees: the bounds on screen (a layout that depends on the offset lays out
    /// against what is shown, never against a target still being scrolled to), the model
    /// offset, the velocity and the time. While a layout change carries the offset, the layout
    /// lays out at the offset it lands on, as UIKit asks the new layout once for its final
    /// attributes: every view goes from where it was to where it ends, in step with the offset
    /// (re-asked at the offset shown, a carousel's targets ran ahead of the offset's and, across
    /// a wrapping carousel's thousands of turns, left the view empty mid-change).
    var context: LayoutContext {
        LayoutContext(data: data, boundsSize: scroll.boundsSize, contentOffset: layoutContentOffset,
                      contentInset: scroll.contentInset, modelContentOffset: scroll.contentOffset,
                      velocity: scrollVelocity, time: time, isDragging: scrollMotion.physics.dragging)
    }

    /// The offset the layout lays out at (`context`).
    private var layoutContentOffset: Point {
        if let carried = scrollMotion.animation, animations[carried.transaction]?.kind == .layout { return scroll.contentOffset }
        return presentationContentOffset
    }

    /// The visible rectangle on screen now.
    var onScreenBounds: Rect { Rect(origin: presentationContentOffset, size: scroll.boundsSize) }

    /// Stage 4 of the tick: prepares the layout for the bounds on screen when it asks to be
    /// (UIKit's shouldInvalidateLayout(forBoundsChange:)).
    mutating func prepareForOnScreenBounds() {
        if layout.shouldInvalidate(forBoundsChange: onScreenBounds) {
            layout.prepare(context, invalidation: .boundsChange)
            scroll.contentSize = layout.contentSize
        }
    }

    private mutating func boundsDidChange(from old: Rect) {
        if onScreenBounds.size != old.size || layout.shouldInvalidate(forBoundsChange: onScreenBounds) {
            layout.prepare(context, invalidation: .boundsChange)
            scroll.contentSize = layout.contentSize
        }
        updateVisibleViews()
    }

    /// Binds the elements in the visible rect plus the margin (the model rect and, while the
    /// offset animates, the presentation rect), unbinding the rest first so their views can be
    /// reused at once. Animating views stay bound until they land: their path counts, not only
    /// their ends. An animating view's target follows the layout.
    mutating func updateVisibleViews() {
        let rects = bindingRects
        var wanted = shownAttributes(in: rects.model)
        if let presented = rects.presented {
            var seen = Set(wanted.map(\.element))
            for a in shownAttributes(in: presented) where seen.insert(a.element).inserted { wanted.append(a) }
        }
        generation &+= 1
        var appearing: [Int] = []
        for (order, attributes) in wanted.enumerated() {
            if let index = bound.index(forKey: attributes.element) {
                bound[row: index].order = order
                bound[row: index].generation = generation
                if bound[row: index].animation != nil {
                    bound[row: index].animation!.to = attributes
                } else {
                    bound[row: index].attributes = attributes
                }
            } else {
                appearing.append(order)
            }
        }
        if bound.count > wanted.count - appearing.count {
            for (element, b) in boundInOrder where b.generation != generation && b.animation == nil {
                reusePool.enqueue(b.view, reuseIdentifier: b.reuseIdentifier)
                bound[element] = nil
            }
        }
        for order in appearing {
            let attributes = wanted[order]
            let reuseIdentifier = self.reuseIdentifier(for: attributes.element)
            let (view, _) = reusePool.dequeue(reuseIdentifier)
            bound[attributes.element] = BoundView(view: view, reuseIdentifier: reuseIdentifier,
                                                  attributes: attributes, order: order, generation: generation)
        }
    }

    /// Where views are bound: the visible rect and the prefetch margin around it, at the model
    /// offset and (while an animated scroll is on screen elsewhere) at the presented one.
    private var bindingRects: (model: Rect, presented: Rect?) {
        let model = scroll.visibleBounds.expanded(dx: prefetchMargin, dy: prefetchMargin)
        let presented = presentationContentOffset
        guard presented != scroll.contentOffset else { return (model, nil) }
        return (model, Rect(origin: presented, size: scroll.boundsSize).expanded(dx: prefetchMargin, dy: prefetchMargin))
    }

    /// Binds a view to one element that appeared without changing anything else (a body added),
    /// exactly as `updateVisibleViews` would, last in drawing order among its z-index: in time
    /// independent of how many elements the session has. Nothing when it is not shown.
    mutating func bindIfShown(_ attributes: LayoutAttributes) {
        let rects = bindingRects
        guard bound.index(forKey: attributes.element) == nil,
              attributes.visualBounds.intersects(rects.model) || rects.presented.map(attributes.visualBounds.intersects) == true
        else { return }
        var order = 0
        for index in bound.indices { order = max(order, bound[row: index].order + 1) }
        let reuseIdentifier = self.reuseIdentifier(for: attributes.element)
        let (view, _) = reusePool.dequeue(reuseIdentifier)
        bound[attributes.element] = BoundView(view: view, reuseIdentifier: reuseIdentifier, attributes: attributes,
                                              order: order, generation: generation)
    }

    /// The bound views in drawing order. Anything that feeds the pool iterates this, never the
    /// dictionary, whose order changes from process to process: the same commands must give
    /// the same view ids everywhere.
    var boundInOrder: [(key: ElementID, value: BoundView)] {
        bound.sorted { $0.value.order != $1.value.order ? $0.value.order < $1.value.order : $0.key < $1.key }
    }

    /// Lands every animation at once (reporting them interrupted) and returns every view to its pool.
    mutating func unbindAll() {
        land(interruptAnimations(keepingScroll: true))
        for (_, b) in boundInOrder { reusePool.enqueue(b.view, reuseIdentifier: b.reuseIdentifier) }
        bound.removeAll(keepingCapacity: true)
    }

    /// Cells use their item's identifier; supplementary and decoration views their kind (UIKit
    /// registers those per kind).
    func reuseIdentifier(for element: ElementID) -> String {
        switch element.kind {
        case .cell:
            return data.contains(element.indexPath) ? data[element.indexPath].reuseIdentifier : Item.defaultReuseIdentifier
        case .supplementary(let kind), .decoration(let kind):
            return kind.rawValue
        case .body:
            return physics.bodies[element.indexPath.item]?.reuseIdentifier ?? FreeBody.defaultReuseIdentifier
        }
    }
}
