/// UIKit's UICollectionViewFlowLayout, headless: greedy justified rows, stacked sections with headers and footers.
///
/// Configure it through `metrics` or directly (`layout.itemSize = …`), as on UIKit's class.
/// Geometry is kept per section, relative to the section's start, so invalidating a few sections
/// re-lays out only those and shifts the rest; scrolling never re-lays out anything.
@dynamicMemberLookup
public struct FlowLayout: Layout {
    /// Changing any value re-lays out everything at the next `prepare`.
    public var metrics: FlowLayoutMetrics {
        didSet { metricsChanged = true }
    }

    /// The z-index of headers and footers when they pin: UIKit shows pinned ones above cells, with an
    /// unconfirmed value. Every header (footer) gets it while its pin option is on, pinned at the
    /// moment or not, so scrolling never flips an element's z-index.
    public static let pinnedZIndex = 1024
    /// Section backgrounds sit behind the cells.
    public static let backgroundZIndex = -1

    private var space = FlowSpace(.vertical)
    private var sections: [FlowSectionGeometry] = []
    private var placements: [FlowSectionPlacement] = []
    /// Flow space: the bounds' length across the scroll axis, which every row depends on.
    private var width = 0.0
    private var totalLength = 0.0
    /// Flow space: the visible span along the scroll axis inside the content insets, for pinning.
    private var visibleStart = 0.0
    private var visibleEnd = 0.0
    /// The options queries use, as of the last prepare.
    private var pinsHeaders = false
    private var pinsFooters = false
    private var hasBackgrounds = false
    private var isPrepared = false
    private var metricsChanged = false
    /// How many section layouts have been computed, for tests of incremental invalidation.
    private(set) var sectionLayoutCount = 0

    public init(metrics: FlowLayoutMetrics = FlowLayoutMetrics()) {
        self.metrics = metrics
    }

    /// The configuration's values as if they were the layout's own, as on UICollectionViewFlowLayout.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<FlowLayoutMetrics, Value>) -> Value {
        get { metrics[keyPath: keyPath] }
        set { metrics[keyPath: keyPath] = newValue }
    }

    /// Across the scroll axis the bounds' size; along it the sections' sum.
    public var contentSize: Size { space.map(Size(width: width, height: totalLength)) }

    // MARK: Preparing

    public mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        let newSpace = FlowSpace(metrics.scrollDirection)
        let bounds = newSpace.map(context.boundsSize)
        let data = context.data
        let everything = !isPrepared || metricsChanged || invalidation.everything || newSpace != space
            || bounds.width != width || data.numberOfSections != sections.count
        space = newSpace
        width = bounds.width
        let offset = space.map(context.contentOffset), inset = space.map(context.contentInset)
        visibleStart = offset.y + inset.top
        visibleEnd = offset.y + bounds.height - inset.bottom
        if everything {
            pinsHeaders = metrics.sectionHeadersPinToVisibleBounds
            pinsFooters = metrics.sectionFootersPinToVisibleBounds
            hasBackgrounds = metrics.sectionBackgroundDecoration
            let count = data.numberOfSections
            if sections.count > count { sections.removeLast(sections.count - count) }
            if sections.count < count {
                sections.append(contentsOf: repeatElement(FlowSectionGeometry(), count: count - sections.count))
            }
            for s in 0..<count { layOutSection(s, data.sections[s]) }
            placeSections()
            isPrepared = true
            metricsChanged = false
        } else if !invalidation.sections.isEmpty {
            for s in invalidation.sections where s >= 0 && s < sections.count { layOutSection(s, data.sections[s]) }
            placeSections()
        }
        // Otherwise only the visible span changed: pinned elements follow it at query time.
    }

    private mutating func layOutSection(_ s: Int, _ section: Section) {
        sections[s].layOut(section, spec: metrics.spec(forSection: s, in: space), width: width,
                           itemSize: metrics.itemSize, space: space)
        sectionLayoutCount += 1
    }

    /// The sections' starts (a prefix sum of their lengths) and the bounds they are binary-searched by.
    private mutating func placeSections() {
        placements.removeAll(keepingCapacity: true)
        placements.reserveCapacity(sections.count)
        var start = 0.0, greatestEnd = -Double.infinity
        for g in sections {
            greatestEnd = Swift.max(greatestEnd, start + g.extentMax)
            placements.append(FlowSectionPlacement(start: start, searchStart: start + g.extentMin, searchEnd: greatestEnd))
            start += g.length
        }
        totalLength = start
        FlowSectionPlacement.carrySearchStartsBack(&placements)
    }

    /// Pinning follows the visible bounds, so every scroll needs a (cheap) prepare; so does a new
    /// length across the scroll axis, which changes every row.
    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool {
        metrics.sectionHeadersPinToVisibleBounds || metrics.sectionFootersPinToVisibleBounds
            || FlowSpace(metrics.scrollDirection).map(newBounds.size).width != width
    }

    // MARK: Queries

    // The screen's query, asked every frame: kept apart from the paged one below, whose checks
    // of the page's end cost this one 15 % (flow.query.1M 0.49 → 0.57 µs).
    public func attributes(in rect: Rect) -> [LayoutAttributes] {
        guard !placements.isEmpty else { return [] }
        let (lo, hi, left, right, low) = searchWindow(rect)
        var result: [LayoutAttributes] = []
        result.reserveCapacity(64)
        var s = low
        while s < placements.count, placements[s].searchStart < hi {
            let g = sections[s], start = placements[s].start
            if hasBackgrounds, let a = backgroundAttributes(s, g, start), a.frame.intersects(rect) { result.append(a) }
            if let a = headerAttributes(s, g, start), a.frame.intersects(rect) { result.append(a) }
            let space = self.space
            g.forEachCandidate(lo: lo - start, hi: hi - start, left: left, right: right) { item, local in
                let frame = space.map(Rect(x: local.origin.x, y: start + local.origin.y,
                                           width: local.size.width, height: local.size.height))
                if frame.intersects(rect) {
                    result.append(LayoutAttributes(element: ElementID(kind: .cell, indexPath: IndexPath(s, item)), frame: frame))
                }
            }
            if let a = footerAttributes(s, g, start), a.frame.intersects(rect) { result.append(a) }
            s += 1
        }
        return result
    }

    /// Stops at `limit` elements, and starts after `after` without visiting what comes before
    /// it: sections before its section are skipped by the binary search, rows before its item
    /// by another, so a page of a rect over a million items costs the page, not the rect.
    public func attributes(in rect: Rect, after: ElementID?, limit: Int) -> [LayoutAttributes] {
        guard !placements.isEmpty, limit > 0 else { return [] }
        let (lo, hi, left, right, first) = searchWindow(rect)
        var low = first
        // Where `after` leaves off in a section's order: background, header, cells, footer.
        var resume = FlowResumePoint.start
        if let after {
            // An element before the rect's first section leaves the whole rect to go.
            let (section, point) = FlowResumePoint.after(after)
            if section >= low { low = section; resume = point }
        }
        var result: [LayoutAttributes] = []
        result.reserveCapacity(Swift.min(limit, 64))
        var s = low
        while s < placements.count, placements[s].searchStart < hi {
            let g = sections[s], start = placements[s].start
            if resume.rawValue <= FlowResumePoint.start.rawValue, hasBackgrounds, let a = backgroundAttributes(s, g, start), a.frame.intersects(rect) {
                result.append(a)
                if result.count == limit { return result }
            }
            if resume.rawValue <= FlowResumePoint.header.rawValue, let a = headerAttributes(s, g, start), a.frame.intersects(rect) {
                result.append(a)
                if result.count == limit { return result }
            }
            if resume.rawValue <= FlowResumePoint.cells.rawValue {
                let space = self.space
                let more = g.forEachCandidate(from: resume == .cells ? resumeItem(after) : 0,
                                              lo: lo - start, hi: hi - start, left: left, right: right) { item, local in
                    let frame = space.map(Rect(x: local.origin.x, y: start + local.origin.y,
                                               width: local.size.width, height: local.size.height))
                    if frame.intersects(rect) {
                        result.append(LayoutAttributes(element: ElementID(kind: .cell, indexPath: IndexPath(s, item)), frame: frame))
                        if result.count == limit { return false }
                    }
                    return true
                }
                if !more { return result }
            }
            if let a = footerAttributes(s, g, start), a.frame.intersects(rect) {
                result.append(a)
                if result.count == limit { return result }
            }
            resume = .start
            s += 1
        }
        return result
    }

    /// Where a rect query searches, along the scroll axis (`lo`, `hi`) and across it (`left`,
    /// `right`), and the first section it may meet. With a little slack: frames add offsets in
    /// another order than the search bounds, so each element is then tested exactly.
    @inline(__always)
    private func searchWindow(_ rect: Rect) -> (lo: Double, hi: Double, left: Double, right: Double, firstSection: Int) {
        let q = space.map(rect)
        let slackY = (Swift.abs(q.minY) + Swift.abs(q.maxY) + 1) * 1e-9
        let slackX = (Swift.abs(q.minX) + Swift.abs(q.maxX) + 1) * 1e-9
        let lo = q.minY - slackY, hi = q.maxY + slackY
        var low = 0, high = placements.count
        while low < high {
            let mid = (low + high) / 2
            if placements[mid].searchEnd > lo { high = mid } else { low = mid + 1 }
        }
        return (lo, hi, q.minX - slackX, q.maxX + slackX, low)
    }

    /// The first item to visit when resuming at the cells after `after`.
    private func resumeItem(_ after: ElementID?) -> Int {
        guard let after, after.isCell else { return 0 }
        return Swift.max(0, after.indexPath.item + 1)
    }

    public func attributes(for element: ElementID) -> LayoutAttributes? {
        let s = element.indexPath.section, item = element.indexPath.item
        guard s >= 0, s < sections.count else { return nil }
        let g = sections[s], start = placements[s].start
        switch element.kind {
        case .cell:
            guard item >= 0, item < g.itemCount else { return nil }
            return cellAttributes(s, item, g.frame(ofItem: item), start)
        case ElementKind.header where item == 0:
            return headerAttributes(s, g, start)
        case ElementKind.footer where item == 0:
            return footerAttributes(s, g, start)
        case ElementKind.sectionBackground where item == 0:
            return hasBackgrounds ? backgroundAttributes(s, g, start) : nil
        default:
            return nil
        }
    }

    /// Every element in `attributes(in:)` order, for tests (an oracle to check rect queries against).
    func allAttributes() -> [LayoutAttributes] {
        var result: [LayoutAttributes] = []
        for (s, g) in sections.enumerated() {
            let start = placements[s].start
            if hasBackgrounds, let a = backgroundAttributes(s, g, start) { result.append(a) }
            if let a = headerAttributes(s, g, start) { result.append(a) }
            for item in 0..<g.itemCount { result.append(cellAttributes(s, item, g.frame(ofItem: item), start)) }
            if let a = footerAttributes(s, g, start) { result.append(a) }
        }
        return result
    }

    // MARK: Elements

    @inline(__always)
    private func cellAttributes(_ s: Int, _ item: Int, _ local: Rect, _ start: Double) -> LayoutAttributes {
        LayoutAttributes(element: ElementID(kind: .cell, indexPath: IndexPath(s, item)),
                         frame: space.map(Rect(x: local.origin.x, y: start + local.origin.y,
                                               width: local.size.width, height: local.size.height)))
    }

    /// Spans the bounds across the scroll axis. Pinned: held at the visible start (content inset
    /// applied) between its own place and the end of its section's items, where the next section
    /// pushes it off, as UITableView's plain-style headers.
    private func headerAttributes(_ s: Int, _ g: FlowSectionGeometry, _ start: Double) -> LayoutAttributes? {
        guard g.headerLength > 0 else { return nil }
        var y = start
        if pinsHeaders { y = Swift.max(start, Swift.min(visibleStart, start + g.itemAreaEnd - g.headerLength)) }
        return LayoutAttributes(element: .header(s), frame: space.map(Rect(x: 0, y: y, width: width, height: g.headerLength)),
                                zIndex: pinsHeaders ? Self.pinnedZIndex : 0)
    }

    /// Spans the bounds across the scroll axis. Pinned: held at the visible end between the end of its
    /// section's header and its own place (the header's rule mirrored).
    private func footerAttributes(_ s: Int, _ g: FlowSectionGeometry, _ start: Double) -> LayoutAttributes? {
        guard g.footerLength > 0 else { return nil }
        var y = start + g.itemAreaEnd
        if pinsFooters { y = Swift.min(y, Swift.max(visibleEnd - g.footerLength, start + g.headerLength)) }
        return LayoutAttributes(element: .footer(s), frame: space.map(Rect(x: 0, y: y, width: width, height: g.footerLength)),
                                zIndex: pinsFooters ? Self.pinnedZIndex : 0)
    }

    /// The item area between header and footer, insets included, across the whole bounds; none when
    /// that area has no length along the scroll axis (as a zero-height header is none).
    private func backgroundAttributes(_ s: Int, _ g: FlowSectionGeometry, _ start: Double) -> LayoutAttributes? {
        let length = g.itemAreaEnd - g.headerLength
        guard length > 0 else { return nil }
        return LayoutAttributes(element: .sectionBackground(s),
                                frame: space.map(Rect(x: 0, y: start + g.headerLength, width: width, height: length)),
                                zIndex: Self.backgroundZIndex)
    }
}

/// Where a section starts along the scroll axis, and the monotonic bounds sections are binary-searched by.
struct FlowSectionPlacement: Hashable, Sendable {
    var start: Double
    /// The least element start of this section and every later one.
    var searchStart: Double
    /// The greatest element end of this section and every earlier one.
    var searchEnd: Double

    /// Turns each placement's own least element start into the least of it and every later
    /// section's (a backward pass once all sections are placed).
    static func carrySearchStartsBack(_ placements: inout [FlowSectionPlacement]) {
        var leastStart = Double.infinity
        for s in placements.indices.reversed() {
            leastStart = Swift.min(leastStart, placements[s].searchStart)
            placements[s].searchStart = leastStart
        }
    }
}

// MARK: Protocol parameters (LayoutRegistry)

extension FlowLayout: RegisteredLayout {
    public static var typeName: String { "flow" }

    public init() { self.init(metrics: FlowLayoutMetrics()) }

    /// UICollectionViewFlowLayout's properties and defaults (the section keys are its delegate's
    /// per-section answers); `sectionBackground` is ours.
    public static var parameters: [LayoutParameter<FlowLayout>] {
        [
            .size("itemSize", \.metrics.itemSize, positive: true, "Every item's size unless it has its own (UIKit: 50×50)."),
            .number("minimumLineSpacing", \.metrics.minimumLineSpacing, 0...layoutLengthLimit, "Between rows (UIKit: 10)."),
            .number("minimumInteritemSpacing", \.metrics.minimumInteritemSpacing, 0...layoutLengthLimit, "Between items of a row (UIKit: 10)."),
            .insets("sectionInset", \.metrics.sectionInset, "Around each section's items, [top, left, bottom, right] (UIKit: zero)."),
            .size("headerSize", \.metrics.headerReferenceSize, positive: false, "Header reference size; 0 along the scroll axis means none (UIKit: zero)."),
            .size("footerSize", \.metrics.footerReferenceSize, positive: false, "Footer reference size; 0 along the scroll axis means none (UIKit: zero)."),
            .choice("scrollDirection", \.metrics.scrollDirection, "vertical (UIKit's default) or horizontal."),
            .bool("pinHeaders", \.metrics.sectionHeadersPinToVisibleBounds, "sectionHeadersPinToVisibleBounds (UIKit: false)."),
            .bool("pinFooters", \.metrics.sectionFootersPinToVisibleBounds, "sectionFootersPinToVisibleBounds (UIKit: false)."),
            .bool("sectionBackground", \.metrics.sectionBackgroundDecoration, "A decoration view behind each section (ours: false)."),
            .perSection("sections", \.metrics.sectionOverrides, empty: FlowSectionOverrides(), [
                .insets("sectionInset", \.inset, "insetForSectionAt."),
                .number("minimumLineSpacing", \.minimumLineSpacing, 0...layoutLengthLimit, "minimumLineSpacingForSectionAt."),
                .number("minimumInteritemSpacing", \.minimumInteritemSpacing, 0...layoutLengthLimit, "minimumInteritemSpacingForSectionAt."),
                .size("headerSize", \.headerReferenceSize, positive: false, "referenceSizeForHeaderInSection."),
                .size("footerSize", \.footerReferenceSize, positive: false, "referenceSizeForFooterInSection."),
            ], "Per-section values by section index, as the flow layout delegate answers them."),
        ]
    }
}
