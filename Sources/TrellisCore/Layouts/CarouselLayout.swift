#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// iCarousel (Nick Lockwood, v1.8.3) as a layout: its eleven types and a custom transform
/// (`CarouselStyle`, `CarouselTransform`), its options, fade, backface culling, depth sort,
/// visible window and item-boundary snapping, driven by the collection view's scrolling.
///
/// Geometry. Items of all sections form one sequence (`ItemSequence`). One item is `pitch =
/// itemWidth / offsetMultiplier` content points, so a drag moves offsetMultiplier items per
/// itemWidth of finger as iCarousel's does; flings and programmatic scrolls use the same
/// mapping (iCarousel applies offsetMultiplier to drags only). The scroll offset in items is
/// `s = contentOffset / pitch` along the axis (x, or y when `vertical`), read from the offset
/// ON SCREEN. Item g has its slot centred at `boundsLength/2 + g·pitch` (with wrapping, in the
/// copy of the turn nearest the offset), its frame is its size centred on the slot, and its
/// transform is the style's for its offset `o = g − s` (wrapped into (−n/2, n/2] when
/// wrapping), then moved in the screen plane from the slot to the view's centre, about which
/// iCarousel draws every item: `T = C · translation(viewCentre − slotCentre)`.
///
/// Choices where iCarousel has no counterpart, written down:
/// - Hidden: iCarousel's backface rule (m33 ≤ 0 without showBackfaces) and ours, any corner
///   behind the eye (w ≤ 0), which Core Animation would draw inside out.
/// - `attributes(in:)` holds iCarousel's loaded items (the visible window, alpha ≠ 0) that are
///   not hidden and whose projected corners meet the rect, in drawing order; `attributes(for:)`
///   answers for any item, with zIndex −1 outside the window.
/// - zIndex: the window's items ranked by iCarousel's compareViewDepth (depth z = m13 + m23 +
///   m33 + m43 ascending; equal depths: farther from the current item first), then by position.
/// - Wrapping content: `turns = max(3, ceil(4,000,000 / (n·pitch)))` copies of one turn,
///   `turns·n·pitch + boundsLength` long; `wrapPeriod` is one turn, n·pitch.
/// - Snapping: iCarousel's stopAtItemBoundary on the proposed offset in items (ceil for a
///   positive velocity, floor for a negative one, round at rest, each with iCarousel's 1e−6
///   float margin), clamped to the items without wrapping.
/// - CoverFlow2's toggle is iCarousel's: while a finger drags, an item that becomes current
///   turns to face the viewer over 0.2–0.4 s of engine time (`CoverFlowToggle`, the layout asks
///   for ticks meanwhile); otherwise it follows the offset, which looks like CoverFlow. The
///   toggle's animation is not kept across a server restart (a restored session follows the
///   offset until the next change of item).
/// - itemWidth is at least 0.01 pt (a smaller first item is measured as 0.01).
/// - Custom transforms ignore `vertical` (as iCarousel's custom type) but scroll along its axis.
/// - Placeholders (iCarousel's extra views beyond the ends) do not exist here.
public struct CarouselLayout: RegisteredLayout {
    public var style: CarouselStyle
    /// The custom style's transform.
    public var customTransform: CarouselCustomTransform
    /// The frame of items without their own size.
    public var itemSize: Size
    /// iCarousel's carouselItemWidth; nil: the first item's width (height when vertical).
    public var itemWidth: Double?
    public var vertical: Bool
    /// Nil: the style's default.
    public var wrap: Bool?
    public var perspective: Double
    public var viewpointOffset: Point
    /// iCarousel's options; nil: the style's default.
    public var spacing: Double?, arc: Double?, radius: Double?, angle: Double?, tilt: Double?
    public var count: Double?, visibleItems: Double?, offsetMultiplier: Double?
    public var showBackfaces: Bool?
    public var fadeMin: Double?, fadeMax: Double?, fadeRange: Double?, fadeMinAlpha: Double?

    // Prepared state.
    private var data = CollectionData()
    private var sequence = ItemSequence()
    private var boundsSize = Size.zero
    private var contentOffset = Point.zero
    private var firstItemSize: Size?
    private var resolved = Resolved()
    /// The visible window in drawing order, and each one's global position.
    private var window: [LayoutAttributes] = []
    private var windowPositions: [Int] = []
    private var currentPosition: Int?
    /// CoverFlow2's toggle, animated while a finger drags.
    private var toggle = CoverFlowToggle()
    private var time = 0.0

    /// The options as this prepare resolved them against the style's defaults and the view.
    private struct Resolved {
        var count = 0
        var wraps = false
        var pitch = 1.0
        var length = 0.0
        var scroll = 0.0
        var visible = 0
        var fadeMin = -Double.infinity, fadeMax = Double.infinity, fadeRange = 1.0, fadeMinAlpha = 0.0
        var showBackfaces = true
        var transform = CarouselTransform(style: .linear, vertical: false, itemWidth: 1, spacing: 1, tilt: 0, arc: 2 * .pi,
                                          count: 1, radius: nil, angle: nil, perspective: 0, viewpointOffset: .zero)
    }

    public init() {
        style = .linear
        customTransform = .taskSwitcher
        itemSize = Size(200, 200)
        vertical = false
        perspective = -1.0 / 500
        viewpointOffset = .zero
    }

    public init(style: CarouselStyle, itemSize: Size = Size(200, 200), vertical: Bool = false) {
        self.init()
        self.style = style
        self.itemSize = itemSize
        self.vertical = vertical
    }

    public static var typeName: String { "carousel" }

    /// The smallest itemWidth, spacing and arc: every formula stays finite above them.
    static let minimumItemWidth = 0.01

    public static var parameters: [LayoutParameter<CarouselLayout>] {
        [
            .choice("style", \.style, "iCarousel's type (default linear, iCarousel's type default); custom uses `transform`."),
            .choice("transform", \.customTransform,
                    "The custom style's transform: taskSwitcher (iOS 9's, from public iCarousel demos; default) or flip3D (iCarousel's demos)."),
            .size("itemSize", \.itemSize, positive: true, "Frames of items without their own size (default 200×200)."),
            .number("itemWidth", \.itemWidth, minimumItemWidth...layoutLengthLimit,
                    "iCarousel's carouselItemWidth, 0.01…1e6; unset: the first item's width (height when vertical), as iCarousel."),
            .bool("vertical", \.vertical, "Scroll and lay out along y (default false, iCarousel's)."),
            .bool("wrap", \.wrap, "Wrap around; unset: the style's default (on for rotary, cylinder, wheel and inverted forms)."),
            .number("perspective", \.perspective, -0.01...0, "m34 of every item, −0.01…0 (default −1/500, iCarousel's code)."),
            .point("viewpointOffset", \.viewpointOffset, "The eye's offset from the view's centre (default [0, 0], iCarousel's)."),
            .number("spacing", \.spacing, 0.01...100, "Item spacing in itemWidths, 0.01…100; unset: 0.25 for the cover flows, 1 otherwise (iCarousel)."),
            .number("arc", \.arc, 0.001...(2 * Double.pi), "The circular styles' arc in radians, 0.001…2π; unset: 2π (iCarousel)."),
            .number("radius", \.radius, -layoutLengthLimit...layoutLengthLimit,
                    "The circular styles' radius, −1e6…1e6; unset: iCarousel's from itemWidth, spacing, arc and count."),
            .number("angle", \.angle, -2 * Double.pi...2 * Double.pi,
                    "Radians, −2π…2π: rotary/cylinder every item's whole angle, wheel the step; unset: offset/count·arc, arc/count (iCarousel)."),
            .number("tilt", \.tilt, -10...10, "Cover flow and time machine tilt, −10…10; unset: 0.9 cover flows, 0.3 time machines (iCarousel)."),
            .number("count", \.count, 1...1000,
                    "The circular styles' places on the circle, 1…1000 (truncated); unset: min(n, trunc(min(30, max(12, ceil(W/(spacing·itemWidth))·π)))), iCarousel."),
            .number("visibleItems", \.visibleItems, 0...100,
                    "Items in the visible window, 0…100 (truncated, at most n); unset: iCarousel's per-style count, at most 30."),
            .number("offsetMultiplier", \.offsetMultiplier, 0.01...100,
                    "Items moved per itemWidth scrolled, 0.01…100; unset: 2 for the cover flows, 1 otherwise (iCarousel)."),
            .bool("showBackfaces", \.showBackfaces, "Draw items facing away; unset: off for invertedCylinder only (iCarousel)."),
            .number("fadeMin", \.fadeMin, -1000...1000, "Offset below which items fade, −1000…1000; unset: 0 for invertedTimeMachine, else none (iCarousel)."),
            .number("fadeMax", \.fadeMax, -1000...1000, "Offset above which items fade, −1000…1000; unset: 0 for timeMachine, else none (iCarousel)."),
            .number("fadeRange", \.fadeRange, 0.001...1000, "Items over which alpha falls to fadeMinAlpha, 0.001…1000; unset: 1 (iCarousel)."),
            .number("fadeMinAlpha", \.fadeMinAlpha, 0...1, "The faded alpha, 0…1; unset: 0 (iCarousel)."),
        ]
    }


    // MARK: Prepare

    public mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        if invalidation.everything || !invalidation.sections.isEmpty || sequence.sectionStarts.count != context.data.numberOfSections {
            sequence.update(context.data)
            firstItemSize = sequence.count > 0 ? context.data.size(at: sequence.indexPath(at: 0)) : nil
        }
        data = context.data
        boundsSize = context.boundsSize
        contentOffset = context.contentOffset
        time = context.time
        resolve()
        if style == .coverFlow2 { updateToggle(context) }
        layOutWindow()
    }

    /// CoverFlow2's toggle for this prepare (iCarousel's didScroll and step): a change of the
    /// current item during a drag starts its animation from ±1 toward 0.
    private mutating func updateToggle(_ context: LayoutContext) {
        let n = sequence.count
        let current = n > 0 ? clampedIndex(Int(max(-1e15, min(1e15, resolved.scroll.rounded())))) : nil
        let speed = (vertical ? context.velocity.y : context.velocity.x) / resolved.pitch
        toggle.update(current: current, currentOffset: current.map { offset(of: $0) } ?? 0, dragging: context.isDragging,
                      time: context.time, speed: speed, distance: minScrollDistance)
        resolved.transform.toggle = toggle.value(at: context.time)
    }

    /// iCarousel's minScrollDistance from `a` to `b`: the shorter way round when wrapping (the
    /// direct way on a tie).
    private func minScrollDistance(_ a: Int, _ b: Int) -> Double {
        let direct = Double(b - a)
        guard resolved.wraps else { return direct }
        let n = sequence.count
        var wrapped = Double(min(a, b) + n - max(a, b))
        if a < b { wrapped = -wrapped }
        return abs(direct) <= abs(wrapped) ? direct : wrapped
    }

    /// CoverFlow2's toggle is animating during a drag: prepare again at the next tick.
    public var needsTicks: Bool { style == .coverFlow2 && toggle.isAnimating(at: time) }

    /// The options against the style's defaults and the view: O(1).
    private mutating func resolve() {
        let n = sequence.count
        var r = Resolved()
        let first = firstItemSize ?? itemSize
        let w = max(Self.minimumItemWidth, itemWidth ?? (vertical ? first.height : first.width))
        let sp = spacing ?? style.defaultSpacing
        r.wraps = wrap ?? style.wrapsByDefault
        r.pitch = w / (offsetMultiplier ?? style.defaultOffsetMultiplier)
        r.length = vertical ? boundsSize.height : boundsSize.width
        let arc = self.arc ?? 2 * Double.pi
        if style.isCircular {
            r.count = max(1, count.map { Int($0) } ?? CarouselStyle.circularItemCount(length: r.length, itemWidth: w, spacing: sp, items: n))
        } else {
            r.count = 1
        }
        r.transform = CarouselTransform(style: style, customTransform: customTransform, vertical: vertical, itemWidth: w,
                                        spacing: sp, tilt: tilt ?? style.defaultTilt, arc: arc, count: r.count, radius: radius,
                                        angle: angle, perspective: perspective, viewpointOffset: viewpointOffset)
        let visible = visibleItems.map { Int($0) }
            ?? style.visibleItemCount(length: r.length, viewMinimum: min(boundsSize.width, boundsSize.height), itemWidth: w,
                                      spacing: sp, count: r.count, wheelRadius: r.transform.radius)
        r.visible = max(0, min(visible, n))
        r.fadeMin = fadeMin ?? style.defaultFadeMin
        r.fadeMax = fadeMax ?? style.defaultFadeMax
        r.fadeRange = fadeRange ?? CarouselStyle.defaultFadeRange
        r.fadeMinAlpha = fadeMinAlpha ?? CarouselStyle.defaultFadeMinAlpha
        r.showBackfaces = showBackfaces ?? style.showsBackfacesByDefault
        r.scroll = (vertical ? contentOffset.y : contentOffset.x) / r.pitch
        resolved = r
    }

    /// iCarousel's loadUnloadViews and depthSortViews: the window around the current item,
    /// items with alpha 0 left out, ranked by depth: O(visible).
    private mutating func layOutWindow() {
        window.removeAll(keepingCapacity: true)
        windowPositions.removeAll(keepingCapacity: true)
        let n = sequence.count
        guard n > 0 else { currentPosition = nil; return }
        let current = clampedIndex(Int(max(-1e15, min(1e15, resolved.scroll.rounded()))))
        currentPosition = current
        let visible = resolved.visible
        var start = current - visible / 2
        if !resolved.wraps { start = min(max(start, 0), n - visible) }

        struct Candidate { var position: Int; var offset: Double; var matrix: Transform3D; var depth: Double; var across: Double }
        var candidates: [Candidate] = []
        candidates.reserveCapacity(visible)
        for k in 0..<visible {
            let g = resolved.wraps ? clampedIndex(start + k) : start + k
            let o = offset(of: g)
            guard alpha(at: o) != 0 else { continue }
            let m = resolved.transform.matrix(offset: o)
            candidates.append(Candidate(position: g, offset: o, matrix: m, depth: Self.depth(m), across: along(m)))
        }
        let currentAlong = along(resolved.transform.matrix(offset: offset(of: current)))
        candidates.sort { a, b in
            if a.depth != b.depth { return a.depth < b.depth }
            let da = abs(a.across - currentAlong), db = abs(b.across - currentAlong)
            if da != db { return da > db }
            return a.position < b.position
        }
        for (rank, c) in candidates.enumerated() {
            window.append(makeAttributes(position: c.position, offset: c.offset, matrix: c.matrix, zIndex: rank))
            windowPositions.append(c.position)
        }
    }

    // MARK: Item arithmetic (iCarousel's)

    /// iCarousel's clampedIndex: modulo n when wrapping, else clamped to the items.
    private func clampedIndex(_ i: Int) -> Int {
        let n = sequence.count
        if resolved.wraps { return ((i % n) + n) % n }
        return min(max(i, 0), max(0, n - 1))
    }

    /// The item's offset from the scroll position, wrapped into (−n/2, n/2] when wrapping.
    private func offset(of g: Int) -> Double {
        guard resolved.wraps else { return Double(g) - resolved.scroll }
        let n = Double(sequence.count)
        let s = resolved.scroll - (resolved.scroll / n).rounded(.down) * n
        var o = Double(g) - s
        if o > n / 2 { o -= n } else if o <= -n / 2 { o += n }
        return o
    }

    /// iCarousel's alphaForItemWithOffset.
    private func alpha(at o: Double) -> Double {
        let r = resolved
        let factor = o > r.fadeMax ? o - r.fadeMax : (o < r.fadeMin ? r.fadeMin - o : 0)
        return 1 - min(factor, r.fadeRange) / r.fadeRange * (1 - r.fadeMinAlpha)
    }

    /// compareViewDepth's depth: the z of the point (1, 1, 1).
    private static func depth(_ m: Transform3D) -> Double { m.m13 + m.m23 + m.m33 + m.m43 }

    /// compareViewDepth's tie-breaker: the x (y when vertical) of the point (1, 1, 1).
    private func along(_ m: Transform3D) -> Double {
        vertical ? m.m12 + m.m22 + m.m32 + m.m42 : m.m11 + m.m21 + m.m31 + m.m41
    }

    private func makeAttributes(position g: Int, offset o: Double, matrix c: Transform3D, zIndex: Int) -> LayoutAttributes {
        let ip = sequence.indexPath(at: g)
        let size = data.size(at: ip) ?? itemSize
        // The slot's index counts whole turns when wrapping: s + o is an integer up to rounding.
        let slot = resolved.wraps ? (resolved.scroll + o).rounded() : Double(g)
        let along = resolved.length / 2 + slot * resolved.pitch
        let centre = vertical ? Point(boundsSize.width / 2, along) : Point(along, boundsSize.height / 2)
        let viewCentre = Point(contentOffset.x + boundsSize.width / 2, contentOffset.y + boundsSize.height / 2)
        let t = c.concatenating(.translation(x: viewCentre.x - centre.x, y: viewCentre.y - centre.y))
        let hw = size.width / 2, hh = size.height / 2
        // The least w of the four corners (±hw, ±hh): w = x·m14 + y·m24 + m44 (the translation
        // after C leaves the fourth column alone).
        let behindEye = c.m44 - hw * abs(c.m14) - hh * abs(c.m24) <= 0
        let hidden = !(resolved.showBackfaces || c.m33 > 0) || behindEye
        return LayoutAttributes(element: .cell(ip.section, ip.item),
                                frame: Rect(x: centre.x - hw, y: centre.y - hh, width: size.width, height: size.height),
                                transform: t, alpha: alpha(at: o), zIndex: zIndex, isHidden: hidden)
    }

    // MARK: Layout

    public var contentSize: Size {
        let n = sequence.count
        guard n > 0 else { return boundsSize }
        let along: Double
        if resolved.wraps {
            let turn = Double(n) * resolved.pitch
            along = Self.turns(period: turn) * turn + resolved.length
        } else {
            along = Double(n - 1) * resolved.pitch + resolved.length
        }
        return vertical ? Size(boundsSize.width, along) : Size(along, boundsSize.height)
    }

    /// How many turns wrapping content holds: at least 3 and at least 4,000,000 pt.
    static func turns(period: Double) -> Double { max(3, (4_000_000 / period).rounded(.up)) }

    public var wrapPeriod: Point {
        guard resolved.wraps, sequence.count > 0 else { return .zero }
        let turn = Double(sequence.count) * resolved.pitch
        return vertical ? Point(0, turn) : Point(turn, 0)
    }

    public var currentItem: IndexPath? { currentPosition.map { sequence.indexPath(at: $0) } }

    public func attributes(in rect: Rect) -> [LayoutAttributes] {
        window.filter { !$0.isHidden && $0.visualBounds.intersects(rect) }
    }

    public func attributes(for element: ElementID) -> LayoutAttributes? {
        guard element.isCell, let g = sequence.position(of: element.indexPath) else { return nil }
        if let i = windowPositions.firstIndex(of: g) { return window[i] }
        let o = offset(of: g)
        return makeAttributes(position: g, offset: o, matrix: resolved.transform.matrix(offset: o), zIndex: -1)
    }

    /// Grows out of its carousel place: scale 0.1, transparent.
    public func initialAttributes(forAppearing element: ElementID) -> LayoutAttributes? {
        guard let a = attributes(for: element) else { return nil }
        return Self.shrunk(a)
    }

    /// Shrinks into its carousel place: scale 0.1, transparent.
    public func finalAttributes(forDisappearing element: ElementID, from attributes: LayoutAttributes) -> LayoutAttributes? {
        Self.shrunk(attributes)
    }

    private static func shrunk(_ attributes: LayoutAttributes) -> LayoutAttributes {
        var a = attributes
        a.transform = a.transform.scaled(x: 0.1, y: 0.1)
        a.alpha = 0
        return a
    }

    /// Every item's look depends on the offset.
    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { true }

    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        let v = vertical ? velocity.y : velocity.x
        return snapped(proposed) { p in v > 0 ? (p - 1e-6).rounded(.up) : v < 0 ? (p + 1e-6).rounded(.down) : p.rounded() }
    }

    public func targetContentOffset(forProposed proposed: Point) -> Point {
        snapped(proposed) { $0.rounded() }
    }

    /// `proposed` with its offset in items along the axis replaced by `boundary(items)`,
    /// clamped to the items without wrapping.
    private func snapped(_ proposed: Point, _ boundary: (Double) -> Double) -> Point {
        let n = sequence.count
        guard n > 0 else { return proposed }
        var items = boundary((vertical ? proposed.y : proposed.x) / resolved.pitch)
        if !resolved.wraps { items = min(max(items, 0), Double(n - 1)) }
        let along = items * resolved.pitch
        return vertical ? Point(proposed.x, along) : Point(along, proposed.y)
    }
}
