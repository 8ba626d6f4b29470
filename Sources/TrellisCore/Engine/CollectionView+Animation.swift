extension CollectionView {
    /// Starts a transaction and returns its id.
    mutating func beginTransaction(_ kind: AnimationTransaction.Kind) -> Int {
        let id = nextTransactionID
        nextTransactionID += 1
        transactions[id] = AnimationTransaction(id: id, kind: kind, remaining: 0)
        return id
    }

    /// Animates a bound view from its presentation attributes to `target` in `transaction`;
    /// without a duration it lands at once.
    mutating func animateBound(_ element: ElementID, from: LayoutAttributes, to target: LayoutAttributes,
                               timing: AnimationTiming, transaction: Int) {
        guard var b = bound[element] else { return }
        if timing.duration > 0 && from != target {
            b.animation = ViewAnimation(from: from, to: target, startTime: time, timing: timing, transaction: transaction)
            b.attributes = from
            transactions[transaction]?.remaining += 1
        } else {
            b.animation = nil
            b.attributes = target
        }
        bound[element] = b
    }

    /// Animates the content offset to `target` (the model offset is set at once, as UIKit does
    /// inside an animation block).
    mutating func animateOffset(to target: Point, timing: AnimationTiming, transaction: Int) {
        let from = presentationContentOffset
        scroll.contentOffset = target
        if timing.duration > 0 && from != target {
            offsetAnimation = OffsetAnimation(from: from, to: target, startTime: time, timing: timing, transaction: transaction)
            transactions[transaction]?.remaining += 1
        } else {
            offsetAnimation = nil
        }
    }

    /// Ends every running transaction as interrupted (finished = false). Views keep their
    /// presentation attributes; the caller starts new animations from them, so nothing jumps.
    /// Views on their way out are returned (still on screen) for the caller to carry on with
    /// `continueDisappearing`, or land and go back to the pool when the caller ignores them.
    @discardableResult
    mutating func interruptAnimations() -> [DisappearingView] {
        guard !transactions.isEmpty else { return [] }
        for id in transactions.keys.sorted() { complete(id, finished: false) }
        transactions.removeAll()
        bound.clearAnimations()
        if offsetAnimation != nil {
            // The scroll stops where it is on screen, as a touch stops a moving scroll view.
            scroll.contentOffset = presentationContentOffset
            offsetAnimation = nil
        }
        let leaving = disappearing
        disappearing.removeAll()
        return leaving
    }

    /// Lands views that were on their way out (back to their pool).
    mutating func land(_ leaving: [DisappearingView]) {
        for d in leaving { reusePool.enqueue(d.view, reuseIdentifier: d.reuseIdentifier) }
    }

    /// Carries on the exit of views an interruption caught half way: from where they are to
    /// where they were going, on the new timing, in the new transaction.
    mutating func continueDisappearing(_ leaving: [DisappearingView], timing: AnimationTiming, transaction: Int) {
        guard timing.duration > 0 else { return land(leaving) }
        for var d in leaving {
            d.animation = ViewAnimation(from: d.attributes, to: d.animation.to, startTime: time, timing: timing,
                                        transaction: transaction)
            disappearing.append(d)
            transactions[transaction]?.remaining += 1
        }
    }

    /// Moves every animation to the current time; lands the ones that ended and reports each
    /// transaction whose last animation landed.
    mutating func stepAnimations() {
        guard !transactions.isEmpty else { return }
        var landed: [Int] = []
        var progress = ProgressCache(time: time)
        // Each view is changed in place through `step`: a copy of a BoundView carries two whole
        // attribute sets in its animation.
        for index in bound.indices {
            if let transaction = bound[row: index].step(time: time, progress: &progress) {
                landed.append(transaction)
            }
        }
        var stillDisappearing: [DisappearingView] = []
        for var d in disappearing {
            // As bound views move (an interactive animation stays put).
            if let transaction = d.animation.move(&d.attributes, time: time, progress: &progress) {
                reusePool.enqueue(d.view, reuseIdentifier: d.reuseIdentifier)
                landed.append(transaction)
            } else {
                stillDisappearing.append(d)
            }
        }
        disappearing = stillDisappearing
        var offsetMoved = false
        if let animation = offsetAnimation, !animation.interactive {
            offsetMoved = true
            if time >= animation.endTime {
                offsetAnimation = nil
                landed.append(animation.transaction)
            }
        }
        for id in landed { transactions[id]?.remaining -= 1 }
        for id in transactions.keys.sorted() where transactions[id]!.remaining <= 0 {
            complete(id, finished: true)
            transactions[id] = nil
        }
        if !landed.isEmpty || offsetMoved {
            if offsetMoved && layout.shouldInvalidate(forBoundsChange: Rect(origin: presentationContentOffset, size: scroll.boundsSize)) {
                layout.prepare(context, invalidation: .boundsChange)
            }
            updateVisibleViews()
        }
    }

    /// Reports a transaction's end; a transaction with nothing to animate ends at once.
    mutating func finishIfIdle(_ transaction: Int) {
        guard let t = transactions[transaction], t.remaining <= 0 else { return }
        complete(transaction, finished: true)
        transactions[transaction] = nil
    }

    /// Ends `id` as interrupted (finished = false) and forgets it.
    mutating func endInterrupted(_ id: Int) {
        complete(id, finished: false)
        transactions[id] = nil
    }

    private mutating func complete(_ id: Int, finished: Bool) {
        guard let t = transactions[id] else { return }
        switch t.kind {
        case .update: pendingEvents.append(.updateCompleted(update: id, finished: finished))
        case .layout: pendingEvents.append(.transitionCompleted(transition: id, finished: finished, installed: !t.cancelled))
        case .scroll: pendingEvents.append(.scrollCompleted(scroll: id, finished: finished))
        }
    }
}

extension CollectionView.BoundView {
    /// Moves the view's animation to `time`; returns its transaction when it landed.
    @inline(__always)
    mutating func step(time: Double, progress: inout ProgressCache) -> Int? {
        // Optional chaining flattens: nil when there is no animation or it has not landed.
        guard let transaction = animation?.move(&attributes, time: time, progress: &progress) else { return nil }
        animation = nil
        return transaction
    }

    /// Puts the view at `progress` when an interactive transition drives its animation.
    @inline(__always)
    mutating func follow(progress: Double) {
        animation?.follow(&attributes, progress: progress)
    }
}

extension CollectionView.DisappearingView {
    /// Puts the view at `progress` when an interactive transition drives its animation.
    mutating func follow(progress: Double) {
        animation.follow(&attributes, progress: progress)
    }
}

extension ViewAnimation {
    /// Puts `attributes` where the animation is at `time`; returns the transaction when it has
    /// landed. `mutating` though it changes nothing: called through `b.animation?.` on a
    /// variable, it then works in place, where reading `b.animation!` copied the whole
    /// animation (two attribute sets) for every view of every frame.
    @inline(__always)
    mutating func move(_ attributes: inout LayoutAttributes, time: Double, progress: inout ProgressCache) -> Int? {
        if interactive { return nil }
        if time >= endTime {
            attributes = to
            return transaction
        }
        attributes.interpolate(from: from, to: to, progress: progress.value(startTime: startTime, timing: timing))
        return nil
    }
}

/// The timing curve's value at one time, remembered for the last start time and timing: the
/// views of one transaction share both, and solving the curve per view cost more than moving it.
struct ProgressCache {
    let time: Double
    private var startTime = Double.nan
    private var timing = AnimationTiming.immediate
    private var last = 0.0

    init(time: Double) { self.time = time }

    mutating func value(startTime: Double, timing: AnimationTiming) -> Double {
        if startTime != self.startTime || timing != self.timing {
            self.startTime = startTime
            self.timing = timing
            last = timing.progress(elapsed: time - startTime)
        }
        return last
    }
}
