import TrellisGeometry
import TrellisDynamics

/// UIScrollView's user scrolling: a pan drives the offset (1:1 inside the content, rubber-banded
/// past an edge), a release decelerates, bounces, pages or settles on the layout's target, a touch
/// catches the motion. The released motion is the tick's scroll-motion stage, stepped by the same
/// fixed steps as the dynamics stage.
extension CollectionView {
    /// The scrolling settings (UIScrollView's bounces, paging, deceleration rate…).
    public var scrollConfiguration: ScrollConfiguration { scrollMotion.deceleration.configuration }
    /// The user's scrolling as it stands: dragging, tracking, each axis's released motion.
    public var scrollDeceleration: ScrollDeceleration { scrollMotion.deceleration }

    /// Changes the scrolling settings. Turning scrolling off ends a drag as cancelled; a
    /// running deceleration keeps its rate.
    public mutating func configureScrolling(_ configuration: ScrollConfiguration) {
        scrollMotion.deceleration.configuration = configuration
        if !configuration.scrollEnabled, scrollMotion.deceleration.dragging { release(velocity: .zero, cancelled: true) }
        bindIfNeeded()
    }

    /// A touch down stops a deceleration or bounce where it is on screen (UIKit's catch); a touch
    /// up with no drag after it lets an offset stopped past an edge bounce back. A touch down at
    /// `location` (in the view) inside an orthogonal band catches that band too: the touch
    /// reaches the embedded scroller and the collection view around it alike.
    public mutating func touch(down: Bool, at location: Point? = nil) {
        if down {
            scrollMotion.deceleration.tracking = true
            scrollMotion.deceleration.x = nil
            scrollMotion.deceleration.y = nil
            if let location { catchOrthogonal(at: location) }
        } else {
            scrollMotion.deceleration.tracking = false
            if !scrollMotion.deceleration.dragging { release(velocity: .zero, cancelled: true, reportDragEnd: false) }
            releaseHeldOrthogonal()
        }
        bindIfNeeded()
    }

    /// UIPanGestureRecognizer's callbacks: `translation` is cumulative since `began`, in the
    /// view (finger down is +y, so the offset decreases); `velocity` (points per second, in the
    /// view) counts on `ended`; `location` is where the finger touched down, in the view (the
    /// view's centre when not given), read on `began` (a springy layout stretches about it).
    public mutating func pan(_ phase: PanPhase, translation: Point, velocity: Point = .zero,
                             location: Point? = nil) throws(EngineError) {
        guard scrollConfiguration.scrollEnabled else { throw .scrollingDisabled }
        defer { bindIfNeeded() }
        // During an interactive layout transition the content does not scroll (ours): a pan
        // cannot begin or move it, whether or not the transition moves the offset; a pan's end
        // is always accepted (a finger lift cannot be refused), and there is no drag to end,
        // since beginning the transition cancelled it.
        if interactiveTransition != nil {
            switch phase {
            case .began, .changed: throw .transitionInProgress
            case .ended, .cancelled:
                cancelDrag()
                return
            }
        }
        // A band held by a touch is let go: a pan inside it catches it again from where it is.
        if phase == .began { releaseHeldOrthogonal() }
        // A pan that began inside an orthogonal band moves that band (CollectionView+OrthogonalScrolling).
        if scrollMotion.deceleration.orthogonal.drag != nil {
            switch phase {
            case .began: releaseOrthogonal(velocity: 0, cancelled: true)
            case .changed: followOrthogonal(translation); return
            case .ended, .cancelled:
                followOrthogonal(translation)
                let band = scrollMotion.deceleration.orthogonal.drag.flatMap { scrollMotion.deceleration.orthogonal.sections[$0.section] }
                    .flatMap { layout.orthogonalBand(section: $0.index) }
                let across = band.map { $0.scrollsHorizontally ? velocity.x : velocity.y } ?? 0
                releaseOrthogonal(velocity: phase == .ended ? -across : 0, cancelled: phase == .cancelled)
                return
            }
        }
        if phase == .began, let location, beginOrthogonalDrag(at: location, translation: translation) {
            scrollMotion.deceleration.x = nil
            scrollMotion.deceleration.y = nil
            return
        }
        switch phase {
        case .began:
            stopOffsetAnimation()
            scrollMotion.deceleration.x = nil
            scrollMotion.deceleration.y = nil
            let offset = scroll.contentOffset
            let lo = scroll.minimumContentOffset, hi = scroll.maximumContentOffset
            let origin = Point(x: RubberBand.unband(offset.x, lo: lo.x, hi: hi.x, dimension: scroll.boundsSize.width),
                               y: RubberBand.unband(offset.y, lo: lo.y, hi: hi.y, dimension: scroll.boundsSize.height))
            scrollMotion.deceleration.drag = ScrollDeceleration.Drag(origin: origin, startOffset: offset, lastOffset: offset, lastTime: time)
            let down = location ?? Point(x: scroll.boundsSize.width / 2, y: scroll.boundsSize.height / 2)
            scrollMotion.deceleration.drag?.touchDown = down
            scrollMotion.deceleration.fingerInView = down
            scrollMotion.deceleration.dragVelocity = .zero
            scrollMotion.deceleration.tracking = true
            pendingEvents.append(.scrollWillBeginDragging(contentOffset: offset))
            if translation != .zero { follow(translation) }
        case .changed:
            guard scrollMotion.deceleration.dragging else { throw .panNotBegun }
            follow(translation)
        case .ended, .cancelled:
            guard scrollMotion.deceleration.dragging else { throw .panNotBegun }
            follow(translation)
            release(velocity: phase == .ended ? Point(x: -velocity.x, y: -velocity.y) : .zero, cancelled: phase == .cancelled)
        }
    }

    /// The offset for the finger at `translation`: 1:1 inside the content, rubber-banded (or
    /// clamped without bouncing) past an edge, per axis; an axis that may not move stays.
    private mutating func follow(_ translation: Point) {
        guard var drag = scrollMotion.deceleration.drag else { return }
        scrollMotion.deceleration.fingerInView = drag.touchDown + translation
        let axes = scrollConfiguration.movableAxes(scroll)
        let bounces = scrollConfiguration.bounces
        let lo = scroll.minimumContentOffset, hi = scroll.maximumContentOffset
        let raw = Point(x: drag.origin.x - translation.x, y: drag.origin.y - translation.y)
        func place(_ raw: Double, _ current: Double, _ movable: Bool, _ lo: Double, _ hi: Double, _ d: Double) -> Double {
            guard movable else { return current }
            return bounces ? RubberBand.band(raw, lo: lo, hi: hi, dimension: d) : min(max(raw, lo), hi)
        }
        let current = scroll.contentOffset
        let offset = Point(x: place(raw.x, current.x, axes.x, lo.x, hi.x, scroll.boundsSize.width),
                           y: place(raw.y, current.y, axes.y, lo.y, hi.y, scroll.boundsSize.height))
        if time > drag.lastTime {
            let dt = time - drag.lastTime
            scrollMotion.deceleration.dragVelocity = Point(x: (offset.x - drag.lastOffset.x) / dt, y: (offset.y - drag.lastOffset.y) / dt)
            drag.lastOffset = offset
            drag.lastTime = time
        }
        scrollMotion.deceleration.drag = drag
        moveOffset(to: offset)
    }

    /// The finger lifts (or the pan is cancelled, or the user let go of a caught offset) with
    /// the offset moving at `velocity` (content-offset direction, pt/s): each movable axis
    /// decelerates, bounces back from past an edge, or settles on a page or the layout's target.
    private mutating func release(velocity: Point, cancelled: Bool, reportDragEnd: Bool = true) {
        let wasDragging = scrollMotion.deceleration.dragging
        let startOffset = scrollMotion.deceleration.drag?.startOffset ?? scroll.contentOffset
        scrollMotion.deceleration.drag = nil
        scrollMotion.deceleration.tracking = false
        scrollMotion.deceleration.dragVelocity = .zero
        let config = scrollConfiguration
        let axes = config.movableAxes(scroll)
        let v = Point(x: axes.x ? velocity.x : 0, y: axes.y ? velocity.y : 0)
        let offset = scroll.contentOffset
        let lo = scroll.minimumContentOffset, hi = scroll.maximumContentOffset
        let rate = config.decelerationRate
        // Where each axis would rest: the decay's projection, clamped; a page; the layout's word.
        var target = Point(x: min(max(AxisMotion.projectedRest(offset.x, velocity: v.x, rate: rate), lo.x), hi.x),
                           y: min(max(AxisMotion.projectedRest(offset.y, velocity: v.y, rate: rate), lo.y), hi.y))
        var settle = false
        if config.pagingEnabled {
            target = Point(x: axes.x ? Paging.target(offset: offset.x, velocity: v.x, pageSize: scroll.boundsSize.width,
                                                     startOffset: startOffset.x, lo: lo.x, hi: hi.x) : offset.x,
                           y: axes.y ? Paging.target(offset: offset.y, velocity: v.y, pageSize: scroll.boundsSize.height,
                                                     startOffset: startOffset.y, lo: lo.y, hi: hi.y) : offset.y)
            settle = true
        } else {
            let proposed = target
            let snapped = scroll.clamped(layout.targetContentOffset(forProposed: proposed, velocity: v))
            if snapped != proposed { target = snapped; settle = true }
        }
        if !axes.x { target.x = offset.x }
        if !axes.y { target.y = offset.y }
        func motion(_ x: Double, _ v: Double, _ lo: Double, _ hi: Double, _ target: Double) -> AxisMotion? {
            if x < lo || x > hi {
                // Past an edge: back to it (without bouncing a drag could not get here).
                return AxisMotion(phase: .bouncing, velocity: v, anchor: x < lo ? lo : hi, rate: rate)
            }
            if settle {
                guard x != target else { return nil }
                // A page turns at least at UIKit's fast rate, so it takes under a second.
                return AxisMotion.settling(from: x, to: target, rate: config.pagingEnabled ? min(rate, ScrollConfiguration.fastDecelerationRate) : rate)
            }
            return abs(v) < AxisMotion.restSpeed ? nil : AxisMotion(phase: .decelerating, velocity: v, rate: rate)
        }
        scrollMotion.deceleration.x = axes.x ? motion(offset.x, v.x, lo.x, hi.x, target.x) : nil
        scrollMotion.deceleration.y = axes.y ? motion(offset.y, v.y, lo.y, hi.y, target.y) : nil
        if wasDragging && reportDragEnd {
            if !cancelled { pendingEvents.append(.scrollWillEndDragging(velocity: v, targetContentOffset: target)) }
            pendingEvents.append(.scrollDidEndDragging(decelerate: scrollMotion.deceleration.decelerating))
        }
        recentreWrappedContent()
    }

    /// A command moved the offset (a drag): the layout sees the new bounds, springs follow,
    /// views are bound.
    private mutating func moveOffset(to offset: Point) {
        guard offset != scroll.contentOffset else { return }
        let old = scroll.contentOffset
        scroll.contentOffset = offset
        prepareForOnScreenBounds()
        layoutSpringsFollowScroll(from: old)
        setNeedsBinding()
        pendingEvents.append(.scrollDidScroll(contentOffset: offset))
    }

    /// Puts back the user's scrolling from a snapshot (settings, a drag or fling in flight) on an
    /// engine rebuilt at the same offset and time.
    public mutating func resumeScrolling(_ saved: ScrollDeceleration) {
        scrollMotion.deceleration = saved
        // Orthogonal offsets come back by section identifier, clamped to the bands as they are.
        if !saved.orthogonal.sections.isEmpty {
            syncOrthogonalOffsets()
            setNeedsBinding()
            bindIfNeeded()
        }
    }

    /// An animated or direct scroll takes over from a released motion, from where it is.
    /// Ends a drag in progress as cancelled (an interactive transition begins): no fling.
    mutating func cancelDrag() {
        if scrollMotion.deceleration.orthogonal.drag != nil { releaseOrthogonal(velocity: 0, cancelled: true) }
        guard scrollMotion.deceleration.dragging else { return }
        release(velocity: .zero, cancelled: true)
    }

    mutating func haltScrollDeceleration() {
        scrollMotion.deceleration.x = nil
        scrollMotion.deceleration.y = nil
    }
}
