extension CollectionView {
    /// UIScrollView's `setContentOffset(_:animated:)`: the model offset is the target at once and
    /// the presentation offset moves there on `timing`, binding what passes through the visible
    /// rect on the way. A scroll animation already running stops where it is on screen (its
    /// transaction ends with finished = false) and the new one starts from there, as a second
    /// animated scroll does on iOS. Without a duration it is the plain `setContentOffset`.
    /// Returns the scroll's transaction id (its `scrollCompleted` event), nil when not animated.
    @discardableResult
    public mutating func setContentOffset(_ offset: Point, timing: AnimationTiming) throws(EngineError) -> Int? {
        if scrollMotion.animation?.interactive == true { throw .transitionInProgress }
        // An animated scroll interrupts a fling where it is on screen, as UIKit's does.
        haltScrollDeceleration()
        guard timing.duration > 0 || timing.delay > 0 else {
            stopOffsetAnimation()
            setContentOffset(offset)
            return nil
        }
        let transaction = beginTransaction(.scroll)
        let running = scrollMotion.animation?.transaction
        // animateOffset starts from the running animation's presentation offset, so the running
        // transaction is settled after it, not before.
        animateOffset(to: offset, timing: timing, transaction: transaction)
        if let running { releaseOffset(from: running) }
        // Nothing moved on screen yet: the layout already lays out for these bounds.
        setNeedsBinding()
        finishIfIdle(transaction)
        bindIfNeeded()
        return transaction
    }

    /// UICollectionView's `scrollToItem(at:at:animated:)`: UIKit's positions, clamped to the
    /// content, animated like `setContentOffset(_:timing:)`.
    @discardableResult
    public mutating func scrollToItem(at indexPath: IndexPath, position: ScrollPosition,
                                      timing: AnimationTiming) throws(EngineError) -> Int? {
        try setContentOffset(try offsetShowingItem(at: indexPath, position: position), timing: timing)
    }

    /// Ends a running offset animation where it is on screen (a plain offset change replaces it).
    mutating func stopOffsetAnimation() {
        guard let animation = scrollMotion.animation, !animation.interactive else { return }
        scroll.contentOffset = presentationContentOffset
        scrollMotion.animation = nil
        releaseOffset(from: animation.transaction)
    }

    /// The offset animation no longer counts in `transaction`; ends it as interrupted when it
    /// was its last animation.
    private mutating func releaseOffset(from transaction: Int) {
        if let event = animations.release(transaction) { pendingEvents.append(event) }
    }

    /// The model offset moved under a running scroll (the content changed under it: an update,
    /// a reload or a resize clamped it): the scroll turns toward the new rest from where it is on
    /// screen, on its timing again, in the same transaction.
    mutating func retargetScroll() {
        guard let running = scrollMotion.animation, !running.interactive, running.to != scroll.contentOffset else { return }
        let onScreen = presentationContentOffset
        scrollMotion.animation = OffsetAnimation(from: onScreen, to: scroll.contentOffset, startTime: time,
                                                 timing: running.timing, transaction: running.transaction)
    }
}
