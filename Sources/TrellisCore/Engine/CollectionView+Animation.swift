extension CollectionView {
    /// Starts a transaction and returns its id.
    mutating func beginTransaction(_ kind: AnimationTransaction.Kind, interactive: Bool = false) -> Int {
        animations.begin(kind, interactive: interactive)
    }

    /// Animates a bound view from its presentation attributes to `target` in `transaction`;
    /// without a duration it lands at once.
    mutating func animateBound(_ element: ElementID, from: LayoutAttributes, to target: LayoutAttributes,
                               timing: AnimationTiming, transaction: Int) {
        guard var b = bound[element] else { return }
        if timing.duration > 0 && from != target {
            b.animation = ViewAnimation(from: from, to: target, startTime: time, timing: timing, transaction: transaction)
            b.attributes = from
            animations.add(to: transaction)
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
            scrollMotion.animation = OffsetAnimation(from: from, to: target, startTime: time, timing: timing, transaction: transaction)
            animations.add(to: transaction)
        } else {
            scrollMotion.animation = nil
        }
    }

    /// Ends every running transaction as interrupted (finished = false). Views keep their
    /// presentation attributes; the caller starts new animations from them, so nothing jumps.
    /// Views on their way out are returned (still on screen) for the caller to carry on with
    /// `continueDisappearing`, or land and go back to the pool when the caller ignores them.
    /// With `keepingScroll`, an animated scroll goes on (as a UIScrollView's does through
    /// reloadData and performBatchUpdates); otherwise it stops where it is on screen.
    @discardableResult
    mutating func interruptAnimations(keepingScroll: Bool = false) -> [DisappearingView] {
        guard !animations.isEmpty else { return [] }
        var kept: Int?
        if let running = scrollMotion.animation {
            if keepingScroll, !running.interactive, animations[running.transaction]?.kind == .scroll {
                kept = running.transaction
            } else {
                // The scroll stops where it is on screen, as a touch stops a moving scroll view.
                scroll.contentOffset = presentationContentOffset
                scrollMotion.animation = nil
            }
        }
        pendingEvents += animations.interruptAll(except: kept)
        bound.clearAnimations()
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
            animations.add(to: transaction)
        }
    }

    /// Reports a transaction's end; a transaction with nothing to animate ends at once.
    mutating func finishIfIdle(_ transaction: Int) {
        if let event = animations.endIfIdle(transaction) {
            pendingEvents.append(event)
            // A change that landed at once (unanimated) leaves endless content at rest too.
            recentreWrappedContent()
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
