/// UICollectionViewCompositionalLayout, headless: sections of repeated groups of items, from a
/// `CompositionalDescription`. Each description is solved once per container size (a group
/// template), so preparing costs a few operations per section, not per item; queries find
/// sections by binary search and groups by arithmetic.
///
/// A horizontal layout is solved transposed (flow space: the scroll axis is y) and mapped back.
public struct CompositionalLayout: Layout {
    /// The layout's description; changing it lays everything out again.
    public var layoutDescription: CompositionalDescription { didSet { changed = true } }
    /// A list preset used instead of `layoutDescription.sections` and its rule when set.
    public var list: CompositionalListConfiguration? { didSet { changed = true } }
    /// How far each orthogonal section is scrolled across, by section index (0 when absent):
    /// read at query time, so moving it needs no `prepare`.
    public var orthogonalOffsets: [Int: Double] = [:]

    private var space = FlowSpace(.vertical)
    /// The descriptions in flow space, and each solved for the current container.
    private var solved: [CompositionalSection] = []
    private var rule = CompositionalSectionRule.byIndex
    private var templates: [CompositionalSectionTemplate] = []
    private var sections: [CompositionalSectionGeometry] = []
    private var placements: [FlowSectionPlacement] = []
    /// Flow space: the container (bounds) size, the total length and the visible start for pinning.
    private var container = Size.zero
    private var totalLength = 0.0
    private var visibleStart = 0.0
    private var hasPinned = false
    private var changed = true

    public init(_ description: CompositionalDescription = CompositionalDescription(sections: []), list: CompositionalListConfiguration? = nil) {
        layoutDescription = description
        self.list = list
    }

    /// The description in use: the list preset's sections when set (a plain list when there
    /// are no sections either), with the layout's configuration.
    public var effectiveDescription: CompositionalDescription {
        if list == nil, !layoutDescription.sections.isEmpty { return layoutDescription }
        var d = (list ?? CompositionalListConfiguration(appearance: .plain)).description
        d.configuration = layoutDescription.configuration
        if list != nil || layoutDescription.rule != .byIndex { d.rule = layoutDescription.rule }
        return d
    }

    public var contentSize: Size { space.map(Size(width: container.width, height: totalLength)) }

    // MARK: Preparing

    public mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        let newContainer = FlowSpace(layoutDescription.configuration.scrollDirection).map(context.boundsSize)
        let everything = changed || newContainer != container || invalidation.everything || !invalidation.sections.isEmpty
            || context.data.numberOfSections != sections.count
        if changed {
            let d = effectiveDescription
            space = FlowSpace(d.configuration.scrollDirection)
            solved = space.isHorizontal ? d.sections.map(\.transposed) : d.sections
            rule = d.rule
        }
        if changed || newContainer != container {
            container = newContainer
            let viewWidth = context.boundsSize.width
            templates = solved.map { CompositionalSectionTemplate($0, container: container, viewWidth: viewWidth) }
            hasPinned = templates.contains { $0.hasPinned }
        }
        changed = false
        visibleStart = space.map(context.contentOffset).y + space.map(context.contentInset).top
        if everything { layOutSections(context.data) }
    }

    /// Every section's counts and lengths, then their starts: a few operations per section.
    private mutating func layOutSections(_ data: CollectionData) {
        sections.removeAll(keepingCapacity: true)
        placements.removeAll(keepingCapacity: true)
        guard !templates.isEmpty else { totalLength = 0; return }
        sections.reserveCapacity(data.numberOfSections)
        placements.reserveCapacity(data.numberOfSections)
        let spacing = layoutDescription.configuration.interSectionSpacing
        var start = 0.0, greatestEnd = -Double.infinity
        for (s, section) in data.sections.enumerated() {
            if s > 0 { start += spacing }
            let t = rule.pick(section: s, id: section.id.rawValue, in: solved)
            let template = templates[t]
            let items = section.count
            let groups = template.group.leafCount > 0 ? (items + template.group.leafCount - 1) / template.group.leafCount : 0
            let contentStart = template.headerLength
            let contentEnd = contentStart + template.contentLength(groups: groups)
            let length = contentEnd + template.footerLength
            var lo = 0.0, hi = length
            let groupsStart = contentStart + template.topInset
            if groups > 0 {
                lo = Swift.min(lo, groupsStart + template.group.bounds.minY)
                let last = template.isOrthogonal ? 0 : Double(groups - 1) * template.pitch
                hi = Swift.max(hi, groupsStart + last + template.group.bounds.maxY)
            }
            for b in template.boundary {
                let f = boundaryFrame(b, contentStart: contentStart, contentEnd: contentEnd, pinnedAt: nil)
                lo = Swift.min(lo, f.minY); hi = Swift.max(hi, f.maxY)
            }
            sections.append(CompositionalSectionGeometry(template: t, itemCount: items, groupCount: groups, contentStart: contentStart,
                                                         contentEnd: contentEnd, length: length, extentMin: lo, extentMax: hi))
            greatestEnd = Swift.max(greatestEnd, start + hi)
            placements.append(FlowSectionPlacement(start: start, searchStart: start + lo, searchEnd: greatestEnd))
            start += length
        }
        totalLength = start
        FlowSectionPlacement.carrySearchStartsBack(&placements)
    }

    /// Pinned headers follow the visible bounds; a new size changes every fraction.
    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool {
        hasPinned || FlowSpace(layoutDescription.configuration.scrollDirection).map(newBounds.size) != container
    }

    // MARK: Queries

    public func attributes(in rect: Rect) -> [LayoutAttributes] {
        var result: [LayoutAttributes] = []
        result.reserveCapacity(64)
        visit(rect, after: nil) { result.append($0); return true }
        return result
    }

    /// Starts right after `after` in the order of `attributes(in:)` without visiting what comes
    /// before it, and stops at `limit`.
    public func attributes(in rect: Rect, after: ElementID?, limit: Int) -> [LayoutAttributes] {
        guard limit > 0 else { return [] }
        var result: [LayoutAttributes] = []
        result.reserveCapacity(Swift.min(limit, 64))
        visit(rect, after: after) { result.append($0); return result.count < limit }
        return result
    }

    /// A section's order: its decorations and boundary items (position b), then group k's
    /// elements in template order (position B + k·E + e).
    private func position(of element: ElementID) -> (section: Int, position: Int)? {
        let s = element.indexPath.section
        guard s >= 0, s < sections.count else { return nil }
        let g = sections[s], t = templates[g.template], b = t.boundary.count
        if element.indexPath.item == 0, element.kind != .cell, let i = t.boundary.firstIndex(where: { $0.kind == element.kind }) {
            return (s, i)
        }
        guard let (k, e) = groupElement(of: element, in: g, t) else { return nil }
        return (s, b + k * t.group.elements.count + e)
    }

    /// The group and template index of a cell or an item's supplementary.
    private func groupElement(of element: ElementID, in g: CompositionalSectionGeometry, _ t: CompositionalSectionTemplate) -> (Int, Int)? {
        let item = element.indexPath.item, n = t.group.leafCount
        guard item >= 0, item < g.itemCount, n > 0 else { return nil }
        let k = item / n, leaf = item % n
        guard let e = t.group.elements.firstIndex(where: { $0.leaf == leaf && $0.kind == element.kind }) else { return nil }
        return (k, e)
    }

    /// Calls `body` with every element intersecting `rect` after `after`, in order, until it returns false.
    private func visit(_ rect: Rect, after: ElementID?, _ body: (LayoutAttributes) -> Bool) {
        guard !placements.isEmpty else { return }
        let q = space.map(rect)
        let slack = (Swift.abs(q.minY) + Swift.abs(q.maxY) + Swift.abs(q.minX) + Swift.abs(q.maxX) + 1) * 1e-9
        let lo = q.minY - slack, hi = q.maxY + slack
        var low = 0, high = placements.count
        while low < high {
            let mid = (low + high) / 2
            if placements[mid].searchEnd > lo { high = mid } else { low = mid + 1 }
        }
        var resumeSection = -1, resumePosition = -1
        if let after {
            guard let (s, p) = position(of: after) else { return }
            if s >= low { low = s; resumeSection = s; resumePosition = p }
        }
        var s = low
        while s < placements.count, placements[s].searchStart < hi {
            let from = s == resumeSection ? resumePosition + 1 : 0
            if !visitSection(s, q, lo - placements[s].start, hi - placements[s].start, slack, from: from, body) { return }
            s += 1
        }
    }

    private func visitSection(_ s: Int, _ q: Rect, _ lo: Double, _ hi: Double, _ slack: Double, from: Int,
                              _ body: (LayoutAttributes) -> Bool) -> Bool {
        let g = sections[s], t = templates[g.template], start = placements[s].start
        let boundaryCount = t.boundary.count
        if from < boundaryCount {
            for i in from..<boundaryCount {
                let a = boundaryAttributes(t.boundary[i], s, g, start)
                if space.map(a.frame).intersects(q), !body(a) { return false }
            }
        }
        guard g.groupCount > 0, t.group.elements.count > 0 else { return true }
        let perGroup = t.group.elements.count
        let resume = Swift.max(0, from - boundaryCount)
        let resumeGroup = resume / perGroup, resumeElement = resume % perGroup
        let pitch = t.pitch
        var first = 0, last = g.groupCount - 1
        let b = t.group.bounds
        if pitch > 0 {
            if t.isOrthogonal {
                let x0 = t.groupOrigin.x - orthogonalOffset(s)
                first = Int(((q.minX - slack - x0 - b.maxX) / pitch).rounded(.down))
                last = Int(((q.maxX + slack - x0 - b.minX) / pitch).rounded(.down))
            } else {
                let y0 = g.contentStart + t.topInset
                first = Int(((lo - y0 - b.maxY) / pitch).rounded(.down))
                last = Int(((hi - y0 - b.minY) / pitch).rounded(.down))
            }
            first = Swift.max(first, 0); last = Swift.min(last, g.groupCount - 1)
        }
        if first < resumeGroup { first = resumeGroup }
        guard first <= last else { return true }
        let n = t.group.leafCount
        for k in first...last {
            let origin = groupOrigin(k, s, g, t, start)
            let remaining = g.itemCount - k * n
            let e0 = k == resumeGroup ? resumeElement : 0
            for e in e0..<perGroup {
                let te = t.group.elements[e]
                guard te.leaf < remaining else { continue }
                let frame = Rect(x: origin.x + te.frame.origin.x, y: origin.y + te.frame.origin.y,
                                 width: te.frame.size.width, height: te.frame.size.height)
                if frame.intersects(q) {
                    var a = LayoutAttributes(element: ElementID(kind: te.kind, indexPath: IndexPath(s, k * n + te.leaf)),
                                             frame: space.map(frame), zIndex: te.zIndex)
                    if let effect = t.effect, te.kind == .cell { applyEffect(effect, &a, flowFrame: frame) }
                    if !body(a) { return false }
                }
            }
        }
        return true
    }

    @inline(__always)
    private func orthogonalOffset(_ s: Int) -> Double { orthogonalOffsets.isEmpty ? 0 : orthogonalOffsets[s] ?? 0 }

    /// Group k's origin in content coordinates (flow space).
    @inline(__always)
    private func groupOrigin(_ k: Int, _ s: Int, _ g: CompositionalSectionGeometry, _ t: CompositionalSectionTemplate, _ start: Double) -> Point {
        let y = start + g.contentStart + t.topInset
        if t.isOrthogonal { return Point(x: t.groupOrigin.x + Double(k) * t.pitch - orthogonalOffset(s), y: y) }
        return Point(x: t.groupOrigin.x, y: y + Double(k) * t.pitch)
    }

    /// A boundary element's section-local frame (flow space); a pinned header held at
    /// `pinnedAt` (section-local visible start) between its own place and the content's end.
    private func boundaryFrame(_ b: CompositionalBoundaryPlacement, contentStart: Double, contentEnd: Double, pinnedAt: Double?) -> Rect {
        var f = b.frame
        switch b.origin {
        case .sectionStart: break
        case .contentEnd: f.origin.y += contentEnd
        case .content(let insets):
            f = Rect(x: 0, y: contentStart, width: container.width, height: contentEnd - contentStart).inset(by: insets)
        }
        if b.pins, let pinnedAt { f.origin.y = Swift.max(f.origin.y, Swift.min(pinnedAt, contentEnd - f.size.height)) }
        return f
    }

    private func boundaryAttributes(_ b: CompositionalBoundaryPlacement, _ s: Int, _ g: CompositionalSectionGeometry, _ start: Double) -> LayoutAttributes {
        var f = boundaryFrame(b, contentStart: g.contentStart, contentEnd: g.contentEnd, pinnedAt: visibleStart - start)
        f.origin.y += start
        return LayoutAttributes(element: ElementID(kind: b.kind, indexPath: IndexPath(s, 0)), frame: space.map(f), zIndex: b.zIndex)
    }

    public func attributes(for element: ElementID) -> LayoutAttributes? {
        let s = element.indexPath.section
        guard s >= 0, s < sections.count else { return nil }
        let g = sections[s], t = templates[g.template], start = placements[s].start
        if element.indexPath.item == 0, element.kind != .cell, let b = t.boundary.first(where: { $0.kind == element.kind }) {
            return boundaryAttributes(b, s, g, start)
        }
        guard let (k, e) = groupElement(of: element, in: g, t) else { return nil }
        let origin = groupOrigin(k, s, g, t, start), te = t.group.elements[e]
        let frame = Rect(x: origin.x + te.frame.origin.x, y: origin.y + te.frame.origin.y, width: te.frame.size.width, height: te.frame.size.height)
        var a = LayoutAttributes(element: element, frame: space.map(frame), zIndex: te.zIndex)
        if let effect = t.effect, te.kind == .cell { applyEffect(effect, &a, flowFrame: frame) }
        return a
    }

    /// The visible-items effect on a cell of an orthogonal band: by the distance of its centre
    /// (as scrolled) from the band's centre across, which stays at the container's middle.
    @inline(__always)
    private func applyEffect(_ effect: CompositionalVisibleItemsEffect, _ a: inout LayoutAttributes, flowFrame: Rect) {
        effect.apply(to: &a, offCentre: flowFrame.midX - container.width / 2, bandLength: container.width)
    }

    // MARK: Orthogonal bands

    public mutating func setOrthogonalOffsets(_ offsets: [Int: Double]) { orthogonalOffsets = offsets }

    public mutating func setOrthogonalOffset(_ offset: Double, section: Int) { orthogonalOffsets[section] = offset }

    /// An orthogonal section's band: the full width of the container across, the group's
    /// length along the scroll axis from the top inset (the reference's IBP geometry); its
    /// content is the leading inset, the groups joined by their spacing and the trailing inset.
    public func orthogonalBand(section s: Int) -> OrthogonalBand? {
        guard s >= 0, s < sections.count else { return nil }
        let g = sections[s], t = templates[g.template]
        guard t.isOrthogonal else { return nil }
        let w = t.group.size.width, n = Double(g.groupCount)
        let bandLength = container.width
        let content = t.groupOrigin.x + (g.groupCount > 0 ? n * w + (n - 1) * t.interGroupSpacing : 0) + t.trailingInset
        let rule = t.behavior.restRule(groupLength: w, pitch: t.pitch, leadingInset: t.groupOrigin.x, bandLength: bandLength)
        var lo = 0.0, hi = Swift.max(0, content - bandLength)
        if t.behavior == .groupPagingCentered, g.groupCount > 0 {
            // Insets that let the first and the last group sit in the middle (UIKit's centring).
            lo = Swift.min(lo, rule.origin)
            hi = Swift.max(hi, rule.origin + (n - 1) * t.pitch)
        }
        let y = placements[s].start + g.contentStart + t.topInset
        return OrthogonalBand(section: s, frame: space.map(Rect(x: 0, y: y, width: bandLength, height: t.group.size.height)),
                              scrollsHorizontally: !space.isHorizontal, minimumOffset: lo, maximumOffset: hi, rest: rule)
    }

    /// The section whose band holds `point`: the last section starting at or before it, when
    /// it is orthogonal and the point lies across its band.
    public func orthogonalSection(at point: Point) -> Int? {
        guard !placements.isEmpty else { return nil }
        let p = space.map(point)
        var low = 0, high = placements.count
        while low < high {
            let mid = (low + high) / 2
            if placements[mid].start <= p.y { low = mid + 1 } else { high = mid }
        }
        let s = low - 1
        guard s >= 0, let band = orthogonalBand(section: s), space.map(band.frame).contains(p) else { return nil }
        return s
    }

    /// Every element in `attributes(in:)` order, for tests (an oracle for rect queries).
    func allAttributes() -> [LayoutAttributes] {
        var result: [LayoutAttributes] = []
        for (s, g) in sections.enumerated() {
            let t = templates[g.template], start = placements[s].start
            for b in t.boundary { result.append(boundaryAttributes(b, s, g, start)) }
            let n = t.group.leafCount
            for k in 0..<g.groupCount {
                for te in t.group.elements where te.leaf < g.itemCount - k * n {
                    result.append(attributes(for: ElementID(kind: te.kind, indexPath: IndexPath(s, k * n + te.leaf)))!)
                }
            }
        }
        return result
    }
}
