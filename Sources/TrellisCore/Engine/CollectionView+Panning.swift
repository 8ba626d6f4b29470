import TrellisGeometry
import TrellisDynamics

/// UIScrollView's user scrolling: a pan drives the offset (1:1 inside the content, rubber-banded
/// past an edge), a release decelerates, bounces, pages or settles on the layout's target, a
/// touch catches the motion. The released motion is stage 2 of the tick, stepped by the same
/// fixed steps as the physics stage.
extension CollectionView {
    /// The scrolling settings (UIScrollView's bounces, paging, deceleration rate…).
    public var scrollConfiguration: ScrollConfiguration { scrollMotion.physics.configuration }
    /// The user's scrolling as it stands: dragging, tracking, each axis's released motion.
    public var scrollPhysics: ScrollPhysics { scrollMotion.physics }

    /// Changes the scrolling settings. Turning scrolling off ends a drag as cancelled; a
    /// running deceleration keeps its rate.
    public mutating func configureScrolling(_ configuration: ScrollConfiguration) {
        scrollMotion.physics.configuration = configuration
        if !configuration.scrollEnabled, scrollMotion.physics.dragging { release(velocity: .zero, cancelled: true) }
    }

    /// A touch down stops a deceleration or bounce where it is on screen (UIKit's catch); a touch
    /// up with no drag after it lets an offset stopped past an edge bounce back.
    public mutating func touch(down: Bool) {
        if down {
            scrollMotion.physics.tracking = true
            scrollMotion.physics.x = nil
            scrollMotion.physics.y = nil
        } else {
            scrollMotion.physics.tracking = false
            if !scrollMotion.physics.dragging { release(velocity: .zero, cancelled: true, reportDragEnd: false) }
        }
    }

    /// UIPanGestureRecognizer's callbacks: `translation` is cumulative since `began`, in the
    /// view (finger down is +y, so the offset decreases); `velocity` (points per second, in the
    /// view) counts on `ended`; `location` is where the finger touched down, in the view (the
    /// view's centre when not given), read on `began` (a springy layout stretches about it).
    public mutating func pan(_ phase: PanPhase, translation: Point, velocity: Point = .zero,
                             location: Point? = nil) throws(EngineError) {
        guard scrollConfiguration.scrollEnabled else { throw .scrollingDisabled }
        if scrollMotion.animation?.interactive == true { throw .transitionInProgress }
        switch phase {
        case .began:
            stopOffsetAnimation()
            scrollMotion.physics.x = nil
            scrollMotion.physics.y = nil
            let offset = scroll.contentOffset
            let lo = scroll.minimumContentOffset, hi = scroll.maximumContentOffset
            let origin = Point(x: RubberBand.unband(offset.x, lo: lo.x, hi: hi.x, dimension: scroll.boundsSize.width),
                               y: RubberBand.unband(offset.y, lo: lo.y, hi: hi.y, dimension: scroll.boundsSize.height))
            scrollMotion.physics.drag = ScrollPhysics.Drag(origin: origin, startOffset: offset, lastOffset: offset, lastTime: time)
            let down = location ?? Point(x: scroll.boundsSize.width / 2, y: scroll.boundsSize.height / 2)
            scrollMotion.physics.drag?.touchDown = down
            scrollMotion.physics.fingerInView = down
            scrollMotion.physics.dragVelocity = .zero
            scrollMotion.physics.tracking = true
            pendingEvents.append(.scrollWillBeginDragging(contentOffset: offset))
            if translation != .zero { follow(translation) }
        case .changed:
            guard scrollMotion.physics.dragging else { throw .panNotBegun }
            follow(translation)
        case .ended, .cancelled:
            guard scrollMotion.physics.dragging else { throw .panNotBegun }
            follow(translation)
            release(velocity: phase == .ended ? Point(x: -velocity.x, y: -velocity.y) : .zero, cancelled: phase == .cancelled)
        }
    }

    /// The offset for the finger at `translation`: 1:1 inside the content, rubber-banded (or
    /// clamped without bouncing) past an edge, per axis; an axis that may not move stays.
    private mutating func follow(_ translation: Point) {
        guard var drag = scrollMotion.physics.drag else { return }
        scrollMotion.physics.fingerInView = drag.touchDown + translation
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
            scrollMotion.physics.dragVelocity = Point(x: (offset.x - drag.lastOffset.x) / dt, y: (offset.y - drag.lastOffset.y) / dt)
            drag.lastOffset = offset
            drag.lastTime = time
        }
        scrollMotion.physics.drag = drag
        moveOffset(to: offset)
    }

    /// The finger lifts (or the pan is cancelled, or the user let go of a caught offset) with
    /// the offset moving at `velocity` (content-offset direction, pt/s): each movable axis
    /// decelerates, bounces back from past an edge, or settles on a page or the layout's target.
    private mutating func release(velocity: Point, cancelled: Bool, reportDragEnd: Bool = true) {
        let wasDragging = scrollMotion.physics.dragging
        let startOffset = scrollMotion.physics.drag?.startOffset ?? scroll.contentOffset
        scrollMotion.physics.drag = nil
        scrollMotion.physics.tracking = false
        scrollMotion.physics.dragVelocity = .zero
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
        scrollMotion.physics.x = axes.x ? motion(offset.x, v.x, lo.x, hi.x, target.x) : nil
        scrollMotion.physics.y = axes.y ? motion(offset.y, v.y, lo.y, hi.y, target.y) : nil
        if wasDragging && reportDragEnd {
            if !cancelled { pendingEvents.append(.scrollWillEndDragging(velocity: v, targetContentOffset: target)) }
            pendingEvents.append(.scrollDidEndDragging(decelerate: scrollMotion.physics.decelerating))
        }
        recentreWrappedContent()
    }

    /// Stage 2's released motion for `steps` fixed steps of the physics stage. Returns true
    /// when the offset on screen moved.
    mutating func stepScrollPhysics(steps: Int) -> Bool {
        guard steps > 0, scrollMotion.physics.decelerating else { return false }
        let h = DynamicAnimator.step
        let bounces = scrollConfiguration.bounces
        var offset = scroll.contentOffset
        let lo = scroll.minimumContentOffset, hi = scroll.maximumContentOffset
        for _ in 0..<steps {
            if var axis = scrollMotion.physics.x {
                let (x, ended) = axis.step(offset.x, lo: lo.x, hi: hi.x, bounces: bounces, h: h)
                offset.x = x
                scrollMotion.physics.x = ended ? nil : axis
            }
            if var axis = scrollMotion.physics.y {
                let (y, ended) = axis.step(offset.y, lo: lo.y, hi: hi.y, bounces: bounces, h: h)
                offset.y = y
                scrollMotion.physics.y = ended ? nil : axis
            }
            if !scrollMotion.physics.decelerating { break }
        }
        let moved = offset != scroll.contentOffset
        if moved {
            scroll.contentOffset = offset
            pendingEvents.append(.scrollDidScroll(contentOffset: offset))
        }
        if !scrollMotion.physics.decelerating { pendingEvents.append(.scrollDidEndDecelerating(contentOffset: offset)) }
        return moved
    }

    /// A command moved the offset (a drag): the layout sees the new bounds, springs follow,
    /// views are bound.
    private mutating func moveOffset(to offset: Point) {
        guard offset != scroll.contentOffset else { return }
        let old = scroll.contentOffset
        scroll.contentOffset = offset
        prepareForOnScreenBounds()
        layoutSpringsFollowScroll(from: old)
        updateVisibleViews()
        pendingEvents.append(.scrollDidScroll(contentOffset: offset))
    }

    /// Puts back the user's scrolling from a snapshot (settings, a drag or fling in flight) on an
    /// engine rebuilt at the same offset and time.
    public mutating func resumeScrolling(_ saved: ScrollPhysics) {
        scrollMotion.physics = saved
    }

    /// An interactive transition takes the offset over: a drag in progress ends as cancelled,
    /// the offset left where it is. Pans are refused until the transition lands, so nothing
    /// else could ever end it and the session would stay dragging with no finger down.
    mutating func endDragForTransition() {
        guard scrollMotion.physics.dragging else { return }
        scrollMotion.physics.drag = nil
        scrollMotion.physics.tracking = false
        scrollMotion.physics.dragVelocity = .zero
        pendingEvents.append(.scrollDidEndDragging(decelerate: false))
    }

    /// An animated or direct scroll takes over from a released motion, from where it is.
    mutating func haltScrollPhysics() {
        scrollMotion.physics.x = nil
        scrollMotion.physics.y = nil
    }
}
