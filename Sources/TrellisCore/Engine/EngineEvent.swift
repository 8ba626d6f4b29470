import TrellisGeometry

/// Something the engine reports to its clients besides the scene.
public enum EngineEvent: Hashable, Sendable {
    /// One step of UIKit's tap flow (the delegate callbacks, in order).
    case selection(SelectionEvent)
    /// The set of selected items changed; the new selection in selection order.
    case selectionChanged(selected: [ItemID])
    /// A batch update's animations ended: `finished` is false when a later command interrupted
    /// them (performBatchUpdates' completion).
    case updateCompleted(update: Int, finished: Bool)
    /// A layout change ended: `finished` false when interrupted; `installed` false when an
    /// interactive transition was cancelled and the old layout stays.
    case transitionCompleted(transition: Int, finished: Bool, installed: Bool)
    /// An animated scroll ended.
    case scrollCompleted(scroll: Int, finished: Bool)
    /// The dynamic animator came to rest and paused (UIDynamicAnimatorDelegate's didPause).
    case dynamicsPaused
    /// A contact of a collision behaviour began or ended (UICollisionBehaviorDelegate).
    case dynamicsCollision(DynamicsCollision)
    /// A behaviour was stopped: a step would have made an item's state non-finite (ours).
    case dynamicsStopped(behavior: Int, reason: String)
    /// A pan began to drag the content (scrollViewWillBeginDragging), from `contentOffset`.
    case scrollWillBeginDragging(contentOffset: Point)
    /// The finger lifted: the offset's velocity (pt/s) and where the motion will rest
    /// (scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)).
    case scrollWillEndDragging(velocity: Point, targetContentOffset: Point)
    /// The drag ended; `decelerate` is true when released motion follows (scrollViewDidEndDragging).
    case scrollDidEndDragging(decelerate: Bool)
    /// Released motion came to rest (scrollViewDidEndDecelerating).
    case scrollDidEndDecelerating(contentOffset: Point)
    /// The offset on screen moved by the user's scrolling: at most once per tick or pan sample.
    case scrollDidScroll(contentOffset: Point)
    /// The same callbacks for an orthogonal section's own scroll.
    case bandScroll(BandScrollEvent)
}
