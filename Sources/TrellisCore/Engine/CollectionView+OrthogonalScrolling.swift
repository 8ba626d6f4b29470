import TrellisGeometry

/// Orthogonal sections scrolling on their own (a compositional layout's embedded scrollers):
/// a pan that begins inside a band moves that band's offset with the main scroll's physics (1:1
/// inside, rubber band past an end, a fling that decelerates, bounces and rests by the band's
/// rule); `setOrthogonalOffset` scrolls one from a command. Offsets are kept by section
/// identifier and handed to the layout by index, which reads them at query time: moving one
/// costs a binding pass, never a `prepare`.
extension CollectionView {
    /// The orthogonal sections' scrolling as it stands (offsets, motion, a drag).
    public var orthogonalScrolling: OrthogonalScrolling { scrollMotion.deceleration.orthogonal }

    /// Section `section`'s offset across on screen; nil when it does not scroll on its own.
    public func orthogonalOffset(section: Int) -> Double? {
        guard section >= 0, section < data.numberOfSections, layout.orthogonalBand(section: section) != nil else { return nil }
        return scrollMotion.deceleration.orthogonal.offset(of: data.sections[section].id)
    }

    /// The scrolled orthogonal sections' offsets on screen, by section index.
    public var shownOrthogonalOffsets: [Int: Double] {
        var offsets: [Int: Double] = [:]
        for entry in scrollMotion.deceleration.orthogonal.sections.values { offsets[entry.index] = entry.offset }
        return offsets
    }

    /// Every orthogonal section's band, in section order (the scene's `orthogonal` list).
    public var orthogonalBands: [OrthogonalBand] {
        var bands: [OrthogonalBand] = []
        for s in 0..<data.numberOfSections { if let band = layout.orthogonalBand(section: s) { bands.append(band) } }
        return bands
    }

    /// Scrolls orthogonal section `section` to `offset` across, clamped to its range (ours: the
    /// embedded scroller is private, and an offset past an end would only bounce back). At once,
    /// or `animated`: a deceleration onto the offset at the band's rate, as a released scroll
    /// settles (no duration or curve). A drag in that band is cancelled.
    public mutating func setOrthogonalOffset(_ offset: Double, section: Int, animated: Bool) throws(EngineError) {
        guard section >= 0, section < data.numberOfSections else { throw .sectionOutOfRange(section, sections: data.numberOfSections) }
        guard let band = layout.orthogonalBand(section: section) else { throw .sectionNotOrthogonal(section) }
        let id = data.sections[section].id
        if scrollMotion.deceleration.orthogonal.drag?.section == id { scrollMotion.deceleration.orthogonal.drag = nil }
        let target = band.clamped(offset)
        var entry = scrollMotion.deceleration.orthogonal.sections[id] ?? OrthogonalScrolling.Section(offset: 0, index: section)
        entry.index = section
        if animated, entry.offset != target {
            entry.motion = AxisMotion.settling(from: entry.offset, to: target, rate: band.rest.decelerationRate)
        } else {
            entry.motion = nil
            entry.offset = target
        }
        scrollMotion.deceleration.orthogonal.sections[id] = entry
        layout.setOrthogonalOffset(entry.offset, section: section)
        setNeedsBinding()
        bindIfNeeded()
    }

    /// After anything that may have moved, added or removed sections or changed the bands (an
    /// update, a reload, a new layout or size): each entry finds its section's index again by
    /// identifier, an offset at rest is clamped to its band's new range, entries of sections
    /// gone or no longer orthogonal are dropped, and the layout gets every offset.
    mutating func syncOrthogonalOffsets() {
        var orthogonal = scrollMotion.deceleration.orthogonal
        guard !orthogonal.sections.isEmpty else { return }
        var offsets: [Int: Double] = [:]
        var kept: [SectionID: OrthogonalScrolling.Section] = [:]
        for (s, section) in data.sections.enumerated() {
            guard var entry = orthogonal.sections[section.id] else { continue }
            guard let band = layout.orthogonalBand(section: s) else { continue }
            entry.index = s
            if entry.motion == nil, orthogonal.drag?.section != section.id { entry.offset = band.clamped(entry.offset) }
            kept[section.id] = entry
            offsets[s] = entry.offset
            if kept.count == orthogonal.sections.count { break }
        }
        orthogonal.sections = kept
        if let drag = orthogonal.drag, kept[drag.section] == nil { orthogonal.drag = nil }
        if let held = orthogonal.held, kept[held] == nil { orthogonal.held = nil }
        scrollMotion.deceleration.orthogonal = orthogonal
        layout.setOrthogonalOffsets(offsets)
    }

    /// The tick's released orthogonal scrolls for `steps` fixed 60 Hz steps. True when an
    /// offset on screen moved (the views are then bound again).
    mutating func stepOrthogonalScrolling(steps: Int) -> Bool {
        guard steps > 0, scrollMotion.deceleration.orthogonal.needsTicks else { return false }
        let h = DynamicsStage.scrollStep
        let bounces = scrollConfiguration.bounces
        var moved = false
        for (id, var entry) in scrollMotion.deceleration.orthogonal.sections {
            guard var motion = entry.motion else { continue }
            guard let band = layout.orthogonalBand(section: entry.index) else {
                entry.motion = nil
                scrollMotion.deceleration.orthogonal.sections[id] = entry
                continue
            }
            var x = entry.offset
            for _ in 0..<steps {
                let (next, ended) = motion.step(x, lo: band.minimumOffset, hi: band.maximumOffset, bounces: bounces, h: h, dimension: band.length)
                x = next
                if ended { entry.motion = nil; break }
                entry.motion = motion
            }
            if x != entry.offset {
                entry.offset = x
                layout.setOrthogonalOffset(x, section: entry.index)
                moved = true
                pendingEvents.append(.bandScroll(BandScrollEvent(section: entry.index, id: id, kind: .didScroll(offset: x))))
            }
            if entry.motion == nil {
                pendingEvents.append(.bandScroll(BandScrollEvent(section: entry.index, id: id, kind: .didEndDecelerating(offset: x))))
            }
            scrollMotion.deceleration.orthogonal.sections[id] = entry
        }
        return moved
    }

    // MARK: Pans inside a band

    /// A pan begins at `location` (in the view): when it lies inside an orthogonal band, that
    /// band's drag begins (its motion caught) and true is returned; the main scroll is left alone.
    /// A first movement more along the main axis than across goes to the main scroll
    /// (UIKit's nested scrollers lock to a direction; ours decides on `began`'s translation).
    mutating func beginOrthogonalDrag(at location: Point, translation: Point) -> Bool {
        let visible = presentationContentOffset
        let point = Point(x: location.x + visible.x, y: location.y + visible.y)
        guard let s = layout.orthogonalSection(at: point), s < data.numberOfSections, let band = layout.orthogonalBand(section: s) else { return false }
        let across = Swift.abs(band.scrollsHorizontally ? translation.x : translation.y)
        let along = Swift.abs(band.scrollsHorizontally ? translation.y : translation.x)
        guard along <= across else { return false }
        let id = data.sections[s].id
        var entry = scrollMotion.deceleration.orthogonal.sections[id] ?? OrthogonalScrolling.Section(offset: 0, index: s)
        entry.motion = nil
        entry.index = s
        scrollMotion.deceleration.orthogonal.sections[id] = entry
        if scrollMotion.deceleration.orthogonal.held == id { scrollMotion.deceleration.orthogonal.held = nil }
        pendingEvents.append(.bandScroll(BandScrollEvent(section: s, id: id, kind: .willBeginDragging(offset: entry.offset))))
        let origin = RubberBand.unband(entry.offset, lo: band.minimumOffset, hi: band.maximumOffset, dimension: band.length)
        scrollMotion.deceleration.orthogonal.drag = OrthogonalScrolling.Drag(section: id, origin: origin, startOffset: entry.offset,
                                                                             lastOffset: entry.offset, lastTime: time)
        scrollMotion.deceleration.tracking = true
        if translation != .zero { followOrthogonal(translation) }
        return true
    }

    /// The band's offset for the finger at `translation` (cumulative, in the view): 1:1 inside,
    /// rubber-banded (clamped without bouncing) past an end.
    mutating func followOrthogonal(_ translation: Point) {
        guard var drag = scrollMotion.deceleration.orthogonal.drag, var entry = scrollMotion.deceleration.orthogonal.sections[drag.section],
              let band = layout.orthogonalBand(section: entry.index) else { return }
        let raw = drag.origin - (band.scrollsHorizontally ? translation.x : translation.y)
        let offset = scrollConfiguration.bounces ? RubberBand.band(raw, lo: band.minimumOffset, hi: band.maximumOffset, dimension: band.length)
            : band.clamped(raw)
        if time > drag.lastTime {
            drag.velocity = (offset - drag.lastOffset) / (time - drag.lastTime)
            drag.lastOffset = offset
            drag.lastTime = time
        }
        scrollMotion.deceleration.orthogonal.drag = drag
        guard offset != entry.offset else { return }
        entry.offset = offset
        scrollMotion.deceleration.orthogonal.sections[drag.section] = entry
        layout.setOrthogonalOffset(offset, section: entry.index)
        setNeedsBinding()
        pendingEvents.append(.bandScroll(BandScrollEvent(section: entry.index, id: drag.section, kind: .didScroll(offset: offset))))
    }

    /// The finger lifts with the band's offset moving at `velocity` (pt/s, offset direction):
    /// back from past an end, or on to the band's resting offset (a free deceleration for a
    /// continuous band). `cancelled`: no willEndDragging (as the main scroll's cancelled pan).
    mutating func releaseOrthogonal(velocity: Double, cancelled: Bool = false) {
        guard let drag = scrollMotion.deceleration.orthogonal.drag else { return }
        scrollMotion.deceleration.orthogonal.drag = nil
        scrollMotion.deceleration.tracking = false
        guard var entry = scrollMotion.deceleration.orthogonal.sections[drag.section],
              let band = layout.orthogonalBand(section: entry.index) else { return }
        let target: Double
        (entry.motion, target) = Self.restingMotion(from: entry.offset, velocity: velocity, start: drag.startOffset, band: band)
        scrollMotion.deceleration.orthogonal.sections[drag.section] = entry
        if !cancelled {
            pendingEvents.append(.bandScroll(BandScrollEvent(section: entry.index, id: drag.section,
                                                             kind: .willEndDragging(velocity: velocity, targetOffset: target))))
        }
        pendingEvents.append(.bandScroll(BandScrollEvent(section: entry.index, id: drag.section, kind: .didEndDragging(decelerate: entry.motion != nil))))
    }

    /// The motion of a band let go at `x` moving at `velocity` after a drag that began at
    /// `start`, and where it will rest: back from past an end, on to the band's resting offset,
    /// or a free deceleration (nil when it is already at rest).
    static func restingMotion(from x: Double, velocity: Double, start: Double, band: OrthogonalBand) -> (AxisMotion?, Double) {
        let rate = band.rest.decelerationRate
        if x < band.minimumOffset || x > band.maximumOffset {
            let anchor = x < band.minimumOffset ? band.minimumOffset : band.maximumOffset
            return (AxisMotion(phase: .bouncing, velocity: velocity, anchor: anchor, rate: rate), anchor)
        }
        if band.rest.pitch > 0 {
            let target = band.restingOffset(from: x, velocity: velocity, start: start)
            return (target == x ? nil : AxisMotion.settling(from: x, to: target, rate: rate), target)
        }
        if Swift.abs(velocity) < AxisMotion.restSpeed { return (nil, x) }
        return (AxisMotion(phase: .decelerating, velocity: velocity, rate: rate), band.clamped(AxisMotion.projectedRest(x, velocity: velocity, rate: rate)))
    }

    // MARK: A touch that rests on a band

    /// A finger touches down at `location` (in the view): a band under it that moves stops where
    /// it is on screen (the embedded scroller's catch) and is held until the finger lifts or a
    /// pan begins.
    mutating func catchOrthogonal(at location: Point) {
        let visible = presentationContentOffset
        let point = Point(x: location.x + visible.x, y: location.y + visible.y)
        guard let s = layout.orthogonalSection(at: point), s < data.numberOfSections, layout.orthogonalBand(section: s) != nil else { return }
        let id = data.sections[s].id
        guard var entry = scrollMotion.deceleration.orthogonal.sections[id] else { return }   // never scrolled: at rest at 0
        entry.motion = nil
        scrollMotion.deceleration.orthogonal.sections[id] = entry
        scrollMotion.deceleration.orthogonal.held = id
    }

    /// The finger on a held band lifts (or a pan begins elsewhere): a band stopped past an end
    /// bounces back, one between resting offsets settles on the nearest, as a release at rest.
    mutating func releaseHeldOrthogonal() {
        guard let id = scrollMotion.deceleration.orthogonal.held else { return }
        scrollMotion.deceleration.orthogonal.held = nil
        guard scrollMotion.deceleration.orthogonal.drag?.section != id, var entry = scrollMotion.deceleration.orthogonal.sections[id],
              entry.motion == nil, let band = layout.orthogonalBand(section: entry.index) else { return }
        entry.motion = Self.restingMotion(from: entry.offset, velocity: 0, start: entry.offset, band: band).0
        scrollMotion.deceleration.orthogonal.sections[id] = entry
    }
}
