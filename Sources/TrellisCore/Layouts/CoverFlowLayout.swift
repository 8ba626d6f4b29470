#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The classic cover flow, horizontal: the cover on the view's centre faces the viewer, the others
/// turn toward it about the y axis, stand back and overlap toward the sides, nearer ones on top;
/// scrolling comes to rest with a cover centred. All sections' covers share one row.
///
/// Not to be confused with `CarouselLayout`'s styles `.coverFlow`/`.coverFlow2` (iCarousel's types,
/// iCarousel's transform): this is the layout type `coverFlow`, with its own angle, gap and depth.
///
/// Slots (the shared convention): cover g (ItemSequence order) has its slot at x = W/2 + g·pitch,
/// y = H/2, pitch = itemSize.width·spacing (0.25: neighbours overlap), so offset g·pitch centres
/// it; its frame is its own size on the slot. The look is the transform, about the frame's centre.
///
/// The formula (iCarousel's coverFlow shape, re-expressed on slots; the sources say nothing of a
/// standalone cover flow): with dx = slot x − visible centre x, d = dx / pitch and
/// c = clamp(d, −1, 1), a cover is turned by −c·angle about y, then moved by c·gap·itemWidth
/// sideways (so the centred cover is not hidden by its neighbours) and pushed back by
/// |c|·depth·itemWidth, all seen through perspective m34 from an eye in front of the VIEW'S CENTRE,
/// as iCarousel's containers are: T = R_y(−c·angle) · translate(dx + c·gap·w, 0, −|c|·depth·w) ·
/// perspective · translate(−dx, 0, 0) (the last factor moves the projected picture back onto the
/// slot's frame). The eye at the centre, not on each cover, is what makes side covers overlap: a
/// cover seen edge-on from its own centre would be a sliver. Past one slot from the centre every
/// cover has the same pose, so the side stacks are evenly spaced (pitch / (1 + depth·w·|m34|) apart).
///
/// The angle defaults to 70° (7π/18), not iCarousel's 81° (tilt 0.9 × 90°): with the default size
/// and perspective a side cover then projects about 96 pt wide instead of 66, so roughly half of
/// each side cover's picture shows between its neighbours, as in Apple's Cover Flow; gap (0.45)
/// and depth (0.5) are iCarousel's (0.5·tilt and 0.5 item widths).
///
/// Depth order: z-index −round(|d|·1000) (thousandths of a slot), so the cover nearest the centre
/// is on top; attributes(in:) returns covers back to front. A cover with a corner at or behind
/// the eye (w ≤ 0, possible only with extreme sizes and perspectives) is hidden. Inserted covers
/// fade in from 0.8× at their place; deleted ones fade out shrinking to 0.8×.
public struct CoverFlowLayout: RegisteredLayout {
    /// Every cover's size unless the item has its own; its width sets the pitch, gap and depth.
    public var itemSize: Size
    /// Distance between slots in item widths (iCarousel's coverFlow spacing 0.25).
    public var spacing: Double
    /// How far side covers turn, radians.
    public var angle: Double
    /// m34 of the view's perspective (iCarousel's −1/500); 0 is none.
    public var perspective: Double
    /// How far side covers move outward, in item widths (iCarousel: 0.5·tilt = 0.45).
    public var gap: Double
    /// How far side covers stand back, in item widths (iCarousel: 0.5).
    public var depth: Double

    private var sequence = ItemSequence()
    private var data = CollectionData()
    private var hasSizedItems = false
    /// The largest half-width of any cover (the default's or an item's own), for rect queries.
    private var largestHalfWidth = 0.0
    private var boundsSize = Size.zero
    private var contentOffset = Point.zero
    private var isPrepared = false

    public init(itemSize: Size = Size(200, 200), spacing: Double = 0.25, angle: Double = 7 * Double.pi / 18,
                perspective: Double = -1.0 / 500, gap: Double = 0.45, depth: Double = 0.5) {
        self.itemSize = itemSize
        self.spacing = spacing
        self.angle = angle
        self.perspective = perspective
        self.gap = gap
        self.depth = depth
    }

    public init() { self.init(itemSize: Size(200, 200)) }

    public static var typeName: String { "coverFlow" }

    public static var parameters: [LayoutParameter<CoverFlowLayout>] {
        [
            .size("itemSize", \.itemSize, positive: true, "Every cover's size unless it has its own (ours: 200×200, the LineLayout sample's)."),
            .number("spacing", \.spacing, 0.01...10, "Distance between covers in item widths, 0.01…10 (iCarousel's coverFlow: 0.25)."),
            .number("angle", \.angle, 0...(Double.pi / 2), "How far side covers turn about y, radians 0…π/2 (ours: 7π/18 = 70°; iCarousel 81°)."),
            .number("perspective", \.perspective, -0.01...0, "m34 of the view's perspective, −0.01…0 (iCarousel: −1/500)."),
            .number("gap", \.gap, 0...10, "How far side covers move outward, in item widths, 0…10 (iCarousel: 0.45)."),
            .number("depth", \.depth, 0...10, "How far side covers stand back, in item widths, 0…10 (iCarousel: 0.5)."),
        ]
    }

    // MARK: Preparing

    /// A bounds change only records the bounds: O(1).
    public mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        boundsSize = context.boundsSize
        contentOffset = context.contentOffset
        guard invalidation.everything || !invalidation.sections.isEmpty || !isPrepared
                || sequence.sectionStarts.count != context.data.numberOfSections else { return }
        isPrepared = true
        data = context.data
        sequence.update(data)
        hasSizedItems = false
        var widest = itemSize.width
        for section in data.sections where !section.hasUniformItems {
            hasSizedItems = true
            for item in section.items { if let size = item.size { widest = Swift.max(widest, size.width) } }
        }
        largestHalfWidth = widest / 2
    }

    /// The slots' span plus a view's width, the view's height.
    public var contentSize: Size {
        Size(width: Double(Swift.max(sequence.count - 1, 0)) * pitch + boundsSize.width, height: boundsSize.height)
    }

    /// Every scroll turns the covers.
    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { true }

    /// Between slots (floored at 1e-9 pt so no division by zero).
    public var pitch: Double { Swift.max(itemSize.width * spacing, 1e-9) }

    // MARK: Queries

    public func attributes(for element: ElementID) -> LayoutAttributes? {
        guard element.isCell, let g = sequence.position(of: element.indexPath) else { return nil }
        return cover(g, element.indexPath)
    }

    /// The covers whose projected picture meets `rect`, back to front. Candidates: the covers
    /// within a slot of the centre, and on each side the range whose flat pose can reach the rect
    /// (solved from the pose's projected corners); each is then tested exactly.
    public func attributes(in rect: Rect) -> [LayoutAttributes] {
        let n = sequence.count
        guard n > 0 else { return [] }
        let s = contentOffset.x / pitch
        var ranges: [ClosedRange<Double>] = [(s - 1).rounded(.down)...(s + 1).rounded(.up)]
        let centreX = contentOffset.x + boundsSize.width / 2
        for side in [-1.0, 1.0] {
            guard let dxRange = flatSlotRange(side: side, left: rect.minX - centreX, right: rect.maxX - centreX) else { continue }
            // dx = g·pitch − offset.x; the side's own covers are those a slot or more away.
            var lo = (dxRange.lowerBound + contentOffset.x) / pitch, hi = (dxRange.upperBound + contentOffset.x) / pitch
            if side < 0 { hi = Swift.min(hi, s - 1) } else { lo = Swift.max(lo, s + 1) }
            guard lo <= hi else { continue }
            ranges.append((lo - 1).rounded(.down)...(hi + 1).rounded(.up))
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var result: [LayoutAttributes] = []
        var next = 0
        for r in ranges {
            let first = Swift.max(next, Int(Swift.min(Swift.max(r.lowerBound, 0), Double(n))))
            let last = Swift.min(n - 1, Int(Swift.min(Swift.max(r.upperBound, -1), Double(n))))
            guard first <= last else { continue }
            for g in first...last {
                let a = cover(g, sequence.indexPath(at: g))
                if !a.isHidden, a.visualBounds.intersects(rect) { result.append(a) }
            }
            next = last + 1
        }
        // Back to front; equal depth keeps slot order (a stable sort).
        return result.enumerated().sorted { ($0.element.zIndex, $0.offset) < ($1.element.zIndex, $1.offset) }.map(\.element)
    }

    /// For the flat pose on `side` (c = ±1): the slot offsets dx (from the visible centre) at
    /// which the widest cover's projected x extent meets `left…right` (also from the centre);
    /// nil when that pose is behind the eye (every such cover is hidden).
    private func flatSlotRange(side c: Double, left: Double, right: Double) -> ClosedRange<Double>? {
        let q = pose(c: c, dx: 0)
        var lo = Double.infinity, hi = -Double.infinity
        for x in [-largestHalfWidth, largestHalfWidth] {
            // The corner's x and w before the divide (rotation about y: y does not enter them).
            let px = x * q.m11 + q.m41, w = x * q.m14 + q.m44
            guard w > Self.nearestW else { return nil }
            // (px + dx) / w ≥ left for some corner, and ≤ right for some corner.
            lo = Swift.min(lo, left * w - px)
            hi = Swift.max(hi, right * w - px)
        }
        return lo <= hi ? lo...hi : nil
    }

    /// Corners nearer the eye than this (in w) count as behind it.
    private static let nearestW = 1e-9

    /// T = R_y(−c·angle) · translate(dx + c·gap·w, 0, −|c|·depth·w) · perspective · translate(−dx, 0, 0).
    private func pose(c: Double, dx: Double) -> Transform3D {
        let unit = itemSize.width
        var eye = Transform3D.identity
        eye.m34 = perspective
        return Transform3D.rotation(angle: -c * angle, x: 0, y: 1, z: 0)
            .concatenating(.translation(x: dx + c * gap * unit, y: 0, z: -Swift.abs(c) * depth * unit))
            .concatenating(eye)
            .concatenating(.translation(x: -dx, y: 0))
    }

    private func cover(_ g: Int, _ indexPath: IndexPath) -> LayoutAttributes {
        let size = (hasSizedItems ? data.size(at: indexPath) : nil) ?? itemSize
        let slotX = boundsSize.width / 2 + Double(g) * pitch
        let dx = slotX - (contentOffset.x + boundsSize.width / 2)
        let d = dx / pitch
        let c = Swift.min(1, Swift.max(-1, d))
        let t = pose(c: c, dx: dx)
        var hidden = false
        for x in [-size.width / 2, size.width / 2] {
            for y in [-size.height / 2, size.height / 2] where x * t.m14 + y * t.m24 + t.m44 <= Self.nearestW { hidden = true }
        }
        return LayoutAttributes(element: .cell(indexPath),
                                frame: Rect(x: slotX - size.width / 2, y: boundsSize.height / 2 - size.height / 2,
                                            width: size.width, height: size.height),
                                transform: t, zIndex: -Int((Swift.min(Swift.abs(d), 1e9) * 1000).rounded()), isHidden: hidden)
    }

    /// Fades in from 0.8× at its place.
    public func initialAttributes(forAppearing element: ElementID) -> LayoutAttributes? {
        guard var a = attributes(for: element) else { return nil }
        a.transform = Transform3D.scale(x: 0.8, y: 0.8).concatenating(a.transform)
        a.alpha = 0
        return a
    }

    /// Fades out shrinking to 0.8× where it was.
    public func finalAttributes(forDisappearing element: ElementID, from attributes: LayoutAttributes) -> LayoutAttributes? {
        var a = attributes
        a.transform = Transform3D.scale(x: 0.8, y: 0.8).concatenating(a.transform)
        a.alpha = 0
        return a
    }

    // MARK: Snapping

    /// The slot nearest `x`, clamped to the first and last cover.
    private func nearestSlot(_ x: Double) -> Int? {
        guard sequence.count > 0 else { return nil }
        let k = (x / pitch).rounded()
        return Int(Swift.min(Swift.max(k.isNaN ? 0 : k, 0), Double(sequence.count - 1)))
    }

    /// Rests on the slot nearest the projected rest (the proposal); the velocity has brought it there.
    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        targetContentOffset(forProposed: proposed)
    }

    /// The nearest slot, so updates and transitions end with a cover centred.
    public func targetContentOffset(forProposed proposed: Point) -> Point {
        guard let k = nearestSlot(proposed.x) else { return proposed }
        return Point(x: Double(k) * pitch, y: proposed.y)
    }

    /// The cover on (nearest) the centre, as of the last prepare.
    public var currentItem: IndexPath? {
        nearestSlot(contentOffset.x).map { sequence.indexPath(at: $0) }
    }
}
