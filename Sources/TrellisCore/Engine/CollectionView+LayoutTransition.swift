/// An interactive layout transition: the layout it started from (installed again on cancel),
/// the offset there, and the progress the client last set.
struct InteractiveTransitionState: Sendable {
    var transaction: Int
    var oldLayout: any Layout
    var oldOffset: Point
    var progress: Double
}

extension CollectionView {
    /// setCollectionViewLayout(_:animated:): every element goes from where it is on screen to
    /// the new layout's attributes; elements only in the new layout come from the old layout's
    /// attributes (or the new layout's initial attributes when the old one has none); elements
    /// only in the old layout leave through the old layout's final attributes. The content offset
    /// keeps the item at the centre of the view at the centre (PST's rule; UIKit's is not
    /// published), through the new layout's `targetContentOffset(forProposed:)`, clamped.
    /// Returns the transition's id (its `transitionCompleted` event carries it).
    @discardableResult
    public mutating func setLayout(_ newLayout: any Layout, animation timing: AnimationTiming) -> Int {
        if let interactive = interactiveTransition {
            // A new layout mid-interaction: the interaction ends as cancelled at its current state.
            animations[interactive.transaction]?.cancelled = true
            interactiveTransition = nil
        }
        // A fling stops where it is: the transition keeps the view's centre from there; the
        // old layout's springs let go (their items start from where they are drawn).
        haltScrollDeceleration()
        tearDownLayoutSprings()
        let leaving = interruptAnimations()
        let transaction = beginTransaction(.layout)
        continueDisappearing(leaving, timing: timing, transaction: transaction)
        transition(to: newLayout, timing: timing, interactive: false, transaction: transaction)
        finishIfIdle(transaction)
        bindIfNeeded()
        return transaction
    }

    /// startInteractiveTransition(to:): binds everything either layout shows and holds it at
    /// progress 0 until `updateInteractiveTransition(progress:)`, `finishInteractiveTransition`
    /// or `cancelInteractiveTransition`.
    @discardableResult
    public mutating func beginInteractiveTransition(to newLayout: any Layout) throws(EngineError) -> Int {
        guard interactiveTransition == nil else { throw .transitionInProgress }
        cancelDrag()
        // The transition starts from the views bound now (a cancelled drag may have re-centred
        // endless content).
        bindIfNeeded()
        haltScrollDeceleration()
        tearDownLayoutSprings()
        land(interruptAnimations())
        let transaction = beginTransaction(.layout, interactive: true)
        let oldLayout = layout, oldOffset = scroll.contentOffset
        transition(to: newLayout, timing: AnimationTiming(duration: 1, curve: .linear), interactive: true, transaction: transaction)
        interactiveTransition = InteractiveTransitionState(transaction: transaction, oldLayout: oldLayout,
                                                           oldOffset: oldOffset, progress: 0)
        return transaction
    }

    /// Sets the interactive transition's progress: 0 is the old layout, 1 the new one; any
    /// order, any number of times. Values outside 0…1 extrapolate (UIKit stores them unclamped).
    public mutating func updateInteractiveTransition(progress: Double) throws(EngineError) {
        guard interactiveTransition != nil else { throw .noTransitionInProgress }
        interactiveTransition!.progress = progress
        for index in bound.indices { bound[row: index].follow(progress: progress) }
        for index in disappearing.indices { disappearing[index].follow(progress: progress) }
    }

    /// finishInteractiveTransition: animates the rest of the way to the new layout.
    public mutating func finishInteractiveTransition(animation timing: AnimationTiming = .default) throws(EngineError) {
        guard let state = interactiveTransition else { throw .noTransitionInProgress }
        land(state, on: layout, offset: scroll.contentOffset, timing: timing, cancelled: false)
        bindIfNeeded()
    }

    /// cancelInteractiveTransition: animates back to the old layout, which stays installed.
    public mutating func cancelInteractiveTransition(animation timing: AnimationTiming = .default) throws(EngineError) {
        guard let state = interactiveTransition else { throw .noTransitionInProgress }
        land(state, on: state.oldLayout, offset: state.oldOffset, timing: timing, cancelled: true)
        bindIfNeeded()
    }

    /// The progress of the interactive transition in progress, if any.
    public var interactiveTransitionProgress: Double? { interactiveTransition?.progress }

    /// Ends an interaction: from what is on screen now to `target`, in the interaction's transaction.
    private mutating func land(_ state: InteractiveTransitionState, on target: any Layout, offset: Point,
                               timing: AnimationTiming, cancelled: Bool) {
        let presentedOffset = presentationContentOffset
        interactiveTransition = nil
        // Freeze every interactive animation at its current presentation, then start timed ones.
        bound.clearAnimations()
        let leaving = disappearing
        disappearing.removeAll()
        scrollMotion.animation = nil
        scroll.contentOffset = presentedOffset
        animations[state.transaction] = AnimationTransaction(id: state.transaction, kind: .layout, remaining: 0,
                                                            cancelled: cancelled)
        // Views that were leaving come back as bound views (they may stay in the target layout).
        for d in leaving where bound[d.element] == nil {
            bound[d.element] = BoundView(view: d.view, reuseIdentifier: d.reuseIdentifier, attributes: d.attributes,
                                         order: d.order, generation: 0)
        }
        for d in leaving where bound[d.element]?.view != d.view {
            reusePool.enqueue(d.view, reuseIdentifier: d.reuseIdentifier)
        }
        layout = target
        relayoutForTransition()
        animateEverything(to: offset, from: { _ in nil }, leavingLayout: target, timing: timing, interactive: false,
                          transaction: state.transaction)
        finishIfIdle(state.transaction)
    }

    /// Installs `newLayout` and starts the animations of a transition.
    private mutating func transition(to newLayout: any Layout, timing: AnimationTiming, interactive: Bool, transaction: Int) {
        var oldLayout = layout
        var incoming = newLayout
        incoming.prepareForTransition(from: oldLayout)
        oldLayout.prepareForTransition(to: incoming)
        let anchor = anchorElement()
        layout = incoming
        relayoutForTransition()
        var proposed = scroll.contentOffset
        if let anchor, let after = layout.attributes(for: anchor) {
            proposed = Point(x: after.center.x - scroll.boundsSize.width / 2, y: after.center.y - scroll.boundsSize.height / 2)
        }
        let target = scroll.clamped(layout.targetContentOffset(forProposed: proposed))
        layOutAtTarget(target)
        animateEverything(to: target, from: { oldLayout.attributes(for: $0) }, leavingLayout: oldLayout,
                          timing: timing, interactive: interactive, transaction: transaction)
        layout.finalizeTransition()
    }

    /// A layout that lays out against the offset (a carousel) is asked again at the offset the
    /// change lands on, so every view's target is its place there (UIKit asks the new layout
    /// once, for its final attributes); its offset on screen stays where it was meanwhile.
    private mutating func layOutAtTarget(_ target: Point) {
        let shown = scroll.contentOffset
        guard target != shown, layout.shouldInvalidate(forBoundsChange: Rect(origin: target, size: scroll.boundsSize)) else { return }
        scroll.contentOffset = target
        layout.prepare(context, invalidation: .boundsChange)
        scroll.contentSize = layout.contentSize
        scroll.contentOffset = shown
    }

    private mutating func relayoutForTransition() {
        layout.prepare(context, invalidation: .all)
        scroll.contentSize = layout.contentSize
        syncOrthogonalOffsets()
    }

    /// The element a transition keeps in place: the cell under the centre of the view, else the
    /// bound cell nearest to it.
    private func anchorElement() -> ElementID? {
        let offset = presentationContentOffset
        let centre = Point(x: offset.x + scroll.boundsSize.width / 2, y: offset.y + scroll.boundsSize.height / 2)
        var best: (ElementID, Double)?
        for (element, b) in bound where element.isCell && !b.attributes.isHidden {
            if b.attributes.contains(centre) { return element }
            let dx = b.attributes.center.x - centre.x, dy = b.attributes.center.y - centre.y
            let distance = dx * dx + dy * dy
            if best == nil || distance < best!.1 || (distance == best!.1 && element < best!.0) { best = (element, distance) }
        }
        return best?.0
    }

    /// Animates every bound view to the installed layout (or away through `leavingLayout`'s
    /// final attributes when the layout has no such element), binds what the layout shows at
    /// the old and the new offset, and animates the offset.
    private mutating func animateEverything(to targetOffset: Point, from startAttributes: (ElementID) -> LayoutAttributes?,
                                            leavingLayout: any Layout, timing: AnimationTiming, interactive: Bool,
                                            transaction: Int) {
        let oldOffset = presentationContentOffset
        for (element, b) in boundInOrder {
            if let target = targetAttributes(for: element) {
                animateBound(element, from: b.attributes, to: target, timing: timing, transaction: transaction)
                if interactive { bound[element]?.animation?.interactive = true }
            } else {
                bound[element] = nil
                let end = leavingLayout.finalAttributes(forDisappearing: element, from: b.attributes)
                    ?? { var a = b.attributes; a.alpha = 0; return a }()
                startDisappearing(b, element: element, to: end, timing: timing, interactive: interactive, transaction: transaction)
            }
        }
        // What the new layout shows at the old offset and at the target offset.
        let margin = prefetchMargin
        var seen = Set(bound.keys)
        var appearing: [LayoutAttributes] = []
        for origin in [oldOffset, targetOffset] {
            let rect = Rect(origin: origin, size: scroll.boundsSize).expanded(dx: margin, dy: margin)
            for a in shownAttributes(in: rect) where seen.insert(a.element).inserted { appearing.append(a) }
        }
        for (index, target) in appearing.enumerated() {
            let start = startAttributes(target.element) ?? layout.initialAttributes(forAppearing: target.element)
                ?? { var a = target; a.alpha = 0; return a }()
            let reuseIdentifier = self.reuseIdentifier(for: target.element)
            let view = reusePool.dequeue(reuseIdentifier).view
            bound[target.element] = BoundView(view: view, reuseIdentifier: reuseIdentifier, attributes: start,
                                              order: bound.count + index, generation: 0)
            animateBound(target.element, from: start, to: target, timing: timing, transaction: transaction)
            if interactive { bound[target.element]?.animation?.interactive = true }
        }
        scroll.contentOffset = oldOffset
        animateOffset(to: targetOffset, timing: timing, transaction: transaction)
        if interactive { scrollMotion.animation?.interactive = true }
        if !interactive && timing.duration == 0 {
            // At once: the offset is the target's now, and a layout that lays out against the
            // offset (a carousel) was prepared at the old one; asked again, the scene is what a
            // session made with this layout at this offset shows (an animated change gets
            // there through its ticks).
            prepareForOnScreenBounds()
            setNeedsBinding()
        }
    }

    /// Moves a view out of the bound set into the disappearing list, animating to `end`.
    /// `item` is what the view showed (for a cell; looked up in the current data when nil).
    mutating func startDisappearing(_ b: BoundView, element: ElementID, to end: LayoutAttributes, item: Item? = nil,
                                    timing: AnimationTiming, interactive: Bool = false, transaction: Int) {
        guard timing.duration > 0 else {
            reusePool.enqueue(b.view, reuseIdentifier: b.reuseIdentifier)
            return
        }
        var itemID = item?.id, payload = item?.data
        if item == nil, element.isCell, data.contains(element.indexPath) {
            (itemID, payload) = data.idAndPayload(at: element.indexPath)
        }
        var animation = ViewAnimation(from: b.attributes, to: end, startTime: time, timing: timing, transaction: transaction)
        animation.interactive = interactive
        disappearing.append(DisappearingView(view: b.view, reuseIdentifier: b.reuseIdentifier, element: element,
                                             itemID: itemID, data: payload, attributes: b.attributes, order: b.order,
                                             animation: animation))
        animations.add(to: transaction)
    }
}

extension ViewAnimation {
    /// Puts `attributes` at `progress` when an interactive transition drives this animation
    /// (`mutating` to work in place, as `move(_:time:progress:)`).
    @inline(__always)
    mutating func follow(_ attributes: inout LayoutAttributes, progress: Double) {
        guard interactive else { return }
        attributes.interpolate(from: from, to: to, progress: progress)
    }
}
