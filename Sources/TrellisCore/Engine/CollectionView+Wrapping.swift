/// Endless content (a wrapping carousel): the layout's content is many copies of one turn
/// (`Layout.wrapPeriod`), and while nothing moves the offset is moved back to the middle copy
/// by whole turns, which changes nothing on screen, so scrolling never meets an edge. Choice:
/// only at rest, so no animation, drag, deceleration or transition ever sees the offset jump;
/// and only once the offset has left the middle half of its range, so ordinary scrolling
/// never moves it at all (a new session starts at the first copy and is moved at once).
extension CollectionView {
    /// Nothing moves and nothing is held: no animation of any kind, no finger down, no
    /// transition, no dynamic element (their positions are in content coordinates).
    var isAtRest: Bool {
        !needsTicks && animations.isEmpty && interactiveTransition == nil && scrollMotion.animation == nil
            && !scrollMotion.deceleration.dragging && !scrollMotion.deceleration.tracking && !scrollMotion.deceleration.decelerating
            && disappearing.isEmpty && dynamics.elements.isEmpty && dynamics.bodies.isEmpty
    }

    /// Moves the offset by whole turns of a wrapping layout toward the middle of its range when
    /// it has left the middle half and nothing moves. Returns true when it moved.
    @discardableResult
    mutating func recentreWrappedContent() -> Bool {
        let period = layout.wrapPeriod
        guard period.x > 0 || period.y > 0, isAtRest else { return false }
        let lo = scroll.minimumContentOffset, hi = scroll.maximumContentOffset
        func turns(_ x: Double, _ p: Double, _ lo: Double, _ hi: Double) -> Double {
            guard p > 0, p.isFinite else { return 0 }
            let mid = (lo + hi) / 2
            guard abs(x - mid) > (hi - lo) / 4 else { return 0 }
            return ((x - mid) / p).rounded()
        }
        let offset = scroll.contentOffset
        let kx = turns(offset.x, period.x, lo.x, hi.x), ky = turns(offset.y, period.y, lo.y, hi.y)
        guard kx != 0 || ky != 0 else { return false }
        // Bound at the offset before the move first: the pool hands out views in the order
        // they are asked for, and the views must be those a pass there gave.
        bindIfNeeded()
        scroll.contentOffset = Point(x: offset.x - kx * period.x, y: offset.y - ky * period.y)
        layout.prepare(context, invalidation: .boundsChange)
        scroll.contentSize = layout.contentSize
        setNeedsBinding()
        return true
    }

    /// Where a wrapping layout's current item is, for keeping it on screen through a data
    /// change: when the content repeats, what an offset shows depends on how many items a turn
    /// holds, so a change of count would otherwise show another item (ours; iCarousel keeps
    /// its current item). The item and the offset relative to the one that centres it.
    var wrappedPlace: (item: IndexPath, displacement: Point)? {
        guard layout.wrapPeriod != .zero, let item = layout.currentItem, let centring = offsetCentring(item) else { return nil }
        return (item, scroll.contentOffset - centring)
    }

    /// The offset that centres `indexPath`'s frame in the bounds (for slot layouts: its slot).
    func offsetCentring(_ indexPath: IndexPath) -> Point? {
        guard let a = layout.attributes(for: .cell(indexPath)) else { return nil }
        return Point(x: a.center.x - scroll.boundsSize.width / 2, y: a.center.y - scroll.boundsSize.height / 2)
    }
}
