import TrellisGeometry

/// The tick's layout stage (`TickStage.layoutForOnScreenBounds`): a layout that depends on the
/// offset (pinned headers, Line zoom, carousels) is prepared from what is on screen, never from
/// a target an animation is still heading to. Commands that move the offset ask it too.
extension CollectionView {
    /// The visible rectangle on screen now.
    var onScreenBounds: Rect { Rect(origin: presentationContentOffset, size: scroll.boundsSize) }

    /// The stage's step: the layout is prepared again when the offset on screen moved or the
    /// layout animates by itself.
    mutating func layOutForOnScreenBounds(_ tick: TickInProgress) {
        if tick.scrolled || tick.layoutMoves { prepareForOnScreenBounds() }
    }

    /// Prepares the layout for the bounds on screen when it asks to be (UIKit's
    /// shouldInvalidateLayout(forBoundsChange:)).
    mutating func prepareForOnScreenBounds() {
        if layout.shouldInvalidate(forBoundsChange: onScreenBounds) {
            layout.prepare(context, invalidation: .boundsChange)
            scroll.contentSize = layout.contentSize
        }
    }

    /// The offset was set (the bounds were `old`): the layout sees the new bounds (a new size
    /// always), and the views are to be bound again.
    mutating func boundsDidChange(from old: Rect) {
        if onScreenBounds.size != old.size || layout.shouldInvalidate(forBoundsChange: onScreenBounds) {
            layout.prepare(context, invalidation: .boundsChange)
            scroll.contentSize = layout.contentSize
        }
        setNeedsBinding()
    }
}
