import TrellisGeometry

/// Binding: which views the collection view shows and with what attributes, taking views from
/// and returning them to the reuse pool. It happens in one place: commands and the tick's
/// stages only say the views are to be bound again (`setNeedsBinding`), and `bindIfNeeded`
/// binds, once at the end of a command and once in the tick (`TickStage.binding`), so however
/// many things a command changed, the pool sees one pass.
extension CollectionView {
    /// What the binding step has to do.
    enum BindingWork: Sendable {
        case none
        /// One element appeared and nothing else changed (a body added): it alone is bound, so
        /// adding the ten-thousandth body costs what adding the first did.
        case appeared(ElementID)
        /// A whole pass over what is shown.
        case all
    }

    /// True while something changed that binding has not followed yet.
    var needsBinding: Bool {
        if case .none = pendingBinding { return false }
        return true
    }

    /// The views are to be bound again (the layout, the offset, the data, the prefetch margin
    /// or the dynamic elements changed).
    mutating func setNeedsBinding() { pendingBinding = .all }

    /// `element` appeared and nothing else changed; with other work pending, a whole pass.
    mutating func setNeedsBinding(appeared element: ElementID) {
        if case .none = pendingBinding { pendingBinding = .appeared(element) } else { pendingBinding = .all }
    }

    /// The binding step: binds the views when something asked for it. The one caller of
    /// `bindVisibleViews` and `bindIfShown`.
    mutating func bindIfNeeded() {
        let work = pendingBinding
        pendingBinding = .none
        switch work {
        case .none: return
        case .appeared(let element): if let attributes = targetAttributes(for: element) { bindIfShown(attributes) }
        case .all: bindVisibleViews()
        }
    }

    /// The tick's binding stage: the views are bound again when the offset moved, an animation
    /// landed, the simulation moved something or the layout moves by itself; then endless
    /// content is re-centred (which binds again when it moved).
    mutating func bind(after tick: TickInProgress) {
        if tick.scrolled || tick.landed || tick.simulated || tick.layoutMoves { setNeedsBinding() }
        bindIfNeeded()
        recentreWrappedContent()
        bindIfNeeded()
    }

    /// Binds the elements in the visible rect plus the margin (the model rect and, while the
    /// offset animates, the presentation rect), unbinding the rest first so their views can be
    /// reused at once. Animating views stay bound until they land: their path counts, not only
    /// their ends. An animating view's target follows the layout.
    private mutating func bindVisibleViews() {
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
            // Only the views leaving are put in drawing order (the pool's order must not follow
            // the dictionary's): sorting a copy of every bound view was a fifth of a scroll step.
            var leaving: [(element: ElementID, order: Int)] = []
            for index in bound.indices where bound[row: index].generation != generation && bound[row: index].animation == nil {
                leaving.append((bound.keys[index], bound[row: index].order))
            }
            leaving.sort { $0.order != $1.order ? $0.order < $1.order : $0.element < $1.element }
            for (element, _) in leaving {
                guard let b = bound[element] else { continue }
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
    /// exactly as the binding step would, last in drawing order among its z-index: in time
    /// independent of how many elements the session has. Nothing when it is not shown.
    private mutating func bindIfShown(_ attributes: LayoutAttributes) {
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

    /// Where an element goes now: the simulation's place while it is dynamic, else the layout's.
    func targetAttributes(for element: ElementID) -> LayoutAttributes? {
        if element.kind == .body || !dynamics.cells.isEmpty, let a = dynamicAttributes(for: element) { return a }
        return element.kind == .body ? nil : layout.attributes(for: element)
    }

    /// What is shown in `rect`: the layout's elements, less the dynamic cells, plus the dynamic
    /// cells and the bodies whose drawn bounds meet it.
    func shownAttributes(in rect: Rect) -> [LayoutAttributes] {
        var result = layout.attributes(in: rect)
        guard !dynamics.cells.isEmpty || !dynamics.bodies.isEmpty else { return result }
        if !dynamics.cells.isEmpty {
            result.removeAll { $0.element.isCell && dynamics.cells[$0.element.indexPath] != nil }
            for indexPath in dynamics.cells.keys.sorted() {
                if let a = dynamicAttributes(for: .cell(indexPath)), a.visualBounds.intersects(rect) { result.append(a) }
            }
        }
        for number in dynamics.bodyOrder {
            if let a = dynamicAttributes(for: .body(number)), a.visualBounds.intersects(rect) { result.append(a) }
        }
        return result
    }
}
