extension CollectionView {
    /// performBatchUpdates: validates the batch exactly as UIKit does (refusing it whole, with
    /// nothing changed), installs the new data, and animates like UIKit: surviving elements go
    /// from where they are on screen to their new attributes; inserted ones come from the
    /// layout's initial attributes; deleted ones go to its final attributes and leave when
    /// their animation ends; reloaded items cross-fade (a delete plus an insert). Elements that
    /// were off screen and come on screen start from their old layout attributes, so they
    /// animate along their path. Selection follows item identifiers; deleted items drop out.
    @discardableResult
    public mutating func performBatchUpdates(_ batch: BatchUpdate, animation timing: AnimationTiming = .default)
        throws(UpdateError) -> (update: Int, result: UpdateResult) {
        let result = try batch.apply(to: data)
        return (install(result, timing: timing, dataGiven: batch.dataAfter != nil), result)
    }

    /// Applies a full snapshot: the batch is computed by the snapshot diff, then performed like
    /// any batch.
    @discardableResult
    public mutating func applySnapshot(_ snapshot: CollectionData, animation timing: AnimationTiming = .default)
        throws(UpdateError) -> (update: Int, batch: BatchUpdate, result: UpdateResult) {
        let batch = SnapshotDiff.batch(from: data, to: snapshot)
        let result = try batch.apply(to: data)
        return (install(result, timing: timing, dataGiven: false), batch, result)
    }

    /// Applies a snapshot whose diff was worked out beforehand (`SnapshotPlan`), as
    /// `applySnapshot` would; a plan made from data other than the engine's is worked out again.
    @discardableResult
    public mutating func applySnapshot(_ plan: SnapshotPlan, animation timing: AnimationTiming = .default)
        throws(UpdateError) -> (update: Int, batch: BatchUpdate, result: UpdateResult) {
        guard plan.base == data else { return try applySnapshot(plan.snapshot, animation: timing) }
        return (install(plan.result, timing: timing, dataGiven: false), plan.batch, plan.result)
    }

    /// The identifiers of items before the update that the data after it lacks, from the update's
    /// sets (O(changes), not O(items)): items deleted, or in a deleted or reloaded section, less
    /// those that arrive again. Nil when the client gave the data after the update (`dataGiven`),
    /// which may drop anything, or when nothing is selected (the only reader is the selection).
    private func departedIdentifiers(_ result: UpdateResult, dataGiven: Bool) -> Set<ItemID>? {
        guard !dataGiven, !selectedItems.isEmpty else { return nil }
        var leaving = Set<ItemID>()
        for path in result.deleted { leaving.insert(data.id(at: path)) }
        for s in result.deletedSections { for item in data.sections[s].items { leaving.insert(item.id) } }
        for change in result.reloadedSections { for item in data.sections[change.before].items { leaving.insert(item.id) } }
        guard !leaving.isEmpty else { return leaving }
        let new = result.data
        for path in result.inserted { leaving.remove(new[path].id) }
        for s in result.insertedSections { for item in new.sections[s].items { leaving.remove(item.id) } }
        for change in result.reloadedSections { for item in new.sections[change.after].items { leaving.remove(item.id) } }
        return leaving
    }

    private mutating func install(_ result: UpdateResult, timing: AnimationTiming, dataGiven: Bool) -> Int {
        let departed = departedIdentifiers(result, dataGiven: dataGiven)
        let leaving = interruptAnimations(keepingScroll: true)
        let transaction = beginTransaction(.update)
        continueDisappearing(leaving, timing: timing, transaction: transaction)
        let oldLayout = layout, oldData = data
        let reloadedOld = Set(result.reloaded.map(\.before))
        let reloadedSectionsOld = Set(result.reloadedSections.map(\.before))

        let wrapped = wrappedPlace
        setData(result.data, invalidation: result.sectionCountChanged ? .all : .sections(result.changedSections),
                rebind: false, departed: departed)
        var proposed = layout.targetContentOffset(forProposed: scroll.contentOffset)
        if let wrapped, let item = result.newIndexPath(for: wrapped.item), let centring = offsetCentring(item) {
            proposed = centring + wrapped.displacement
        }
        scroll.contentOffset = scroll.clamped(proposed)
        retargetScroll()
        prepareForOnScreenBounds()

        /// Where an old element lives after the update (nil: it was deleted or reloaded).
        func newElement(_ old: ElementID) -> ElementID? {
            switch old.kind {
            case .cell:
                if reloadedOld.contains(old.indexPath) { return nil }
                return result.newIndexPath(for: old.indexPath).map { .cell($0) }
            case .supplementary, .decoration:
                let s = old.indexPath.section
                guard !reloadedSectionsOld.contains(s), let n = result.newSection(for: s) else { return nil }
                return ElementID(kind: old.kind, indexPath: IndexPath(n, old.indexPath.item))
            case .body:
                return old
            }
        }

        /// Where a new element was before the update (nil: it is new).
        func oldElement(_ new: ElementID) -> ElementID? {
            switch new.kind {
            case .cell:
                guard let old = result.oldIndexPath(for: new.indexPath), !reloadedOld.contains(old) else { return nil }
                return .cell(old)
            case .supplementary, .decoration:
                guard let old = result.oldSection(for: new.indexPath.section),
                      !reloadedSectionsOld.contains(old) else { return nil }
                return ElementID(kind: new.kind, indexPath: IndexPath(old, new.indexPath.item))
            case .body:
                return new
            }
        }

        let previous = boundInOrder
        bound.removeAll(keepingCapacity: true)
        var order = 0
        for (element, b) in previous {
            if let moved = newElement(element), let target = targetAttributes(for: moved) {
                var kept = b
                kept.order = order
                bound[moved] = kept
                animateBound(moved, from: b.attributes, to: target, timing: timing, transaction: transaction)
            } else {
                let end = layout.finalAttributes(forDisappearing: element, from: b.attributes)
                    ?? { var a = b.attributes; a.alpha = 0; return a }()
                let item = element.isCell && oldData.contains(element.indexPath) ? oldData[element.indexPath] : nil
                startDisappearing(b, element: element, to: end, item: item, timing: timing, transaction: transaction)
            }
            order += 1
        }
        // What the new layout shows where the offset rests and, while a scroll goes on, on screen.
        var appearing = shownAttributes(in: scroll.visibleBounds.expanded(dx: prefetchMargin, dy: prefetchMargin))
        if onScreenBounds != scroll.visibleBounds {
            appearing += shownAttributes(in: onScreenBounds.expanded(dx: prefetchMargin, dy: prefetchMargin))
        }
        for target in appearing where bound[target.element] == nil {
            let start: LayoutAttributes
            if let old = oldElement(target.element), let before = oldLayout.attributes(for: old) {
                start = before
            } else {
                start = layout.initialAttributes(forAppearing: target.element) ?? { var a = target; a.alpha = 0; return a }()
            }
            let reuseIdentifier = self.reuseIdentifier(for: target.element)
            let view = reusePool.dequeue(reuseIdentifier).view
            bound[target.element] = BoundView(view: view, reuseIdentifier: reuseIdentifier, attributes: start,
                                              order: order, generation: 0)
            order += 1
            animateBound(target.element, from: start, to: target, timing: timing, transaction: transaction)
        }
        finishIfIdle(transaction)
        if timing.duration == 0 { setNeedsBinding() }
        // The end of the command (performBatchUpdates, applySnapshot).
        bindIfNeeded()
        return transaction
    }
}
