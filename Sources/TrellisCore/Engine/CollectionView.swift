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
    /// The motion pipeline's stages with state of their own (`TickStage` tells the order).
    var scrollMotion = ScrollMotion()
    var dynamics = DynamicsStage()
    var animations = TimedAnimations()
    /// The interactive layout transition in progress, if any.
    var interactiveTransition: InteractiveTransitionState?
    /// A tick whose dynamics steps are not all taken yet (`advance(to:dynamicsWhile:overrun:)`).
    var tickInProgress: TickInProgress?
    /// Dynamics steps dropped, in all: by a bounded advance (`DynamicsOverrun.drop`) and past the
    /// catch-up limit (`dynamicsCatchUpLimit`) while the animator ran.
    public internal(set) var dynamicsStepsDropped = 0
    /// The simulated seconds those steps stood for (steps differ in length between step rates).
    public internal(set) var dynamicsTimeDropped = 0.0
    /// The binding pass's count, to find the views the last pass did not want.
    var generation = 0
    /// What a command or a stage changed that binding must follow; `bindIfNeeded` binds
    /// (CollectionView+Binding.swift).
    var pendingBinding = BindingWork.none
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
        bindIfNeeded()
    }

    // MARK: Inputs

    /// reloadData: new data, every visible view returned to its pool and bound again, selection
    /// cleared (as UXKit's reconstruction does), the offset pulled back if the content shrank.
    public mutating func reloadData(_ newData: CollectionData) {
        let wrapped = wrappedPlace.map { (id: data.id(at: $0.item), displacement: $0.displacement) }
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
            // Bound where the reload left the offset first, then at the wrapped item's place:
            // the pool hands out views in the order they are asked for, so one pass at the end
            // would give other views their ids.
            bindIfNeeded()
            scroll.contentOffset = centring + wrapped.displacement
            retargetScroll()
            prepareForOnScreenBounds()
            setNeedsBinding()
        }
        if joinReinsertedItems() { setNeedsBinding() }
        bindIfNeeded()
    }

    /// Replaces the data keeping bound views and the selection of items that still exist: the
    /// step batch updates and snapshots end with (selection follows item identifiers).
    /// `departed`, when known, holds every identifier the new data lost (a batch knows them from
    /// its operations), so the selection is checked against those instead of every item.
    mutating func setData(_ newData: CollectionData, invalidation: LayoutInvalidation, rebind: Bool = true,
                          departed: Set<ItemID>? = nil) {
        tearDownLayoutSprings()
        data = newData
        dynamicsDataDidChange()
        if let departed, !selectedItems.isEmpty {
            if selectedItems.contains(where: departed.contains) {
                selectedItems.removeAll { departed.contains($0) }
                pendingEvents.append(.selectionChanged(selected: selectedItems))
            }
        } else if !selectedItems.isEmpty {
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
            if joinReinsertedItems() { setNeedsBinding() }
        } else {
            layout.prepare(context, invalidation: invalidation)
            scroll.contentSize = layout.contentSize
            syncOrthogonalOffsets()
            joinReinsertedItems()
        }
    }

    /// Sets the content offset as UIScrollView's setContentOffset does: exactly, unclamped.
    public mutating func setContentOffset(_ offset: Point) {
        stopOffsetAnimation()
        haltScrollDeceleration()
        let old = scroll.visibleBounds
        scroll.contentOffset = offset
        boundsDidChange(from: old)
        recentreWrappedContent()
        bindIfNeeded()
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
        bindIfNeeded()
    }

    /// Changes UIScrollView's contentInset.
    public mutating func setContentInset(_ inset: EdgeInsets) {
        scroll.contentInset = inset
        relayout(.boundsChange, clampOffset: true)
        bindIfNeeded()
    }

    /// Replaces the layout without animation; the offset goes through the new layout's
    /// `targetContentOffset(forProposed:)` and is kept inside the content.
    public mutating func setLayout(_ newLayout: any Layout) {
        tearDownLayoutSprings()
        layout = newLayout
        relayout(.all)
        // Bound at the old offset first, as the new layout is installed, then where the offset
        // goes: the pool hands out views in the order they are asked for.
        bindIfNeeded()
        setContentOffset(scroll.clamped(layout.targetContentOffset(forProposed: scroll.contentOffset)))
    }

    /// Moves the engine's clock (seconds) and everything that moves with it: the one way time
    /// enters the engine. Time never goes backwards. One tick: every stage of the motion
    /// pipeline, in `TickStage`'s order.
    public mutating func advance(to time: Double) {
        advance(to: time, dynamicsWhile: { true }, overrun: .drop)
    }

    /// `advance(to:)` with its dynamics bounded by the caller: after each dynamics step `more` is
    /// asked whether to take another (the server asks its clock; the engine has none, and the
    /// steps it takes are the same whatever the answers, only when they are taken differs). At
    /// least one step is taken if any is due. The steps `more` refuses are dropped (`.drop`:
    /// dynamics falls behind real time, as a live clock must, and `dynamicsStepsDropped` counts
    /// them) or kept for `continueAdvance` (`.defer`: a manual clock's long advance, split
    /// across the server's loop turns; the tick then ends only when the last step is taken, and
    /// nothing else may be asked of the engine meanwhile). True when the tick ended.
    @discardableResult
    public mutating func advance(to time: Double, dynamicsWhile more: () -> Bool, overrun: DynamicsOverrun) -> Bool {
        precondition(tickInProgress == nil, "an advance is still in progress: continueAdvance it first")
        guard time > self.time else { return true }
        self.time = time
        return runTick(TickInProgress(layoutMoves: layout.needsTicks, overrun: overrun), while: more)
    }

    /// Takes more of a deferred tick's dynamics steps (`advance(to:dynamicsWhile:overrun:)` with
    /// `.defer`), and ends the tick once the last is taken: true then.
    @discardableResult
    public mutating func continueAdvance(dynamicsWhile more: () -> Bool) -> Bool {
        guard let tick = tickInProgress else { return true }
        tickInProgress = nil
        return runTick(tick, while: more)
    }

    /// True while a deferred tick still has dynamics steps to take.
    public var isAdvancing: Bool { tickInProgress != nil }

    /// The session needs frames: some stage of the pipeline moves something by time alone. The
    /// frame clock, persistence and `stats` ask only this.
    public var needsTicks: Bool { dynamics.needsTicks || needsTicksBesidesDynamics }

    /// Some stage other than dynamics moves something by time alone (a restored live session lands
    /// these; its dynamics goes on live).
    public var needsTicksBesidesDynamics: Bool { scrollMotion.needsTicks || animations.needsTicks || layout.needsTicks }

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
                     boundsSize: scroll.boundsSize, views: builder.views, orthogonalOffsets: shownOrthogonalOffsets)
    }

    /// Hands `visitor` the views of `scene`, back to front, without building them.
    public func visitScene<Visitor: SceneVisitor>(_ visitor: inout Visitor) {
        assert(!needsBinding, "a command ended without binding (bindIfNeeded)")
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
                            (itemID, payload) = data.idAndPayload(at: element.indexPath)
                        } else if let number = element.bodyNumber, let body = dynamics.bodies[number] {
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

    /// A page of `attributes(in:)`: after `after`, at most `limit`. The layout stops early; while
    /// the dynamics place elements (they replace the layout's for their cells and add bodies)
    /// the page is cut from the whole result.
    public func attributes(in rect: Rect, after: ElementID?, limit: Int) -> [LayoutAttributes] {
        guard dynamics.cells.isEmpty && dynamics.bodies.isEmpty else {
            return LayoutAttributes.page(of: shownAttributes(in: rect), after: after, limit: limit)
        }
        return layout.attributes(in: rect, after: after, limit: limit)
    }

    // MARK: Layout and binding

    mutating func relayout(_ invalidation: LayoutInvalidation, clampOffset: Bool = false) {
        layout.prepare(context, invalidation: invalidation)
        scroll.contentSize = layout.contentSize
        syncOrthogonalOffsets()
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
        setNeedsBinding()
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
                      velocity: scrollVelocity, time: time, isDragging: scrollMotion.deceleration.dragging)
    }

    /// The offset the layout lays out at (`context`).
    private var layoutContentOffset: Point {
        if let carried = scrollMotion.animation, animations[carried.transaction]?.kind == .layout { return scroll.contentOffset }
        return presentationContentOffset
    }

    /// Cells use their item's identifier; supplementary and decoration views their kind (UIKit
    /// registers those per kind).
    func reuseIdentifier(for element: ElementID) -> String {
        switch element.kind {
        case .cell:
            return data.contains(element.indexPath) ? data.reuseIdentifier(at: element.indexPath) : Item.defaultReuseIdentifier
        case .supplementary(let kind), .decoration(let kind):
            return kind.rawValue
        case .body:
            return element.bodyNumber.flatMap { dynamics.bodies[$0]?.reuseIdentifier } ?? FreeBody.defaultReuseIdentifier
        }
    }
}
