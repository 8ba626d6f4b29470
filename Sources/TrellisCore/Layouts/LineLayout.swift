/// Apple's LineLayout sample (WWDC 2012, a UICollectionViewFlowLayout subclass): one horizontal
/// line of 200×200 items, 50 pt apart, 200 pt insets above and below; every item whose centre is
/// within `activeDistance` of the view's centre grows, up to 1 + `zoomFactor` on the centre, and
/// draws above the rest (z-index 1); a fling comes to rest with the item nearest the centre
/// centred. The sample's constants are the keys' defaults.
///
/// Built on `FlowLayout` (a horizontal flow), which does all the geometry; this adds only the zoom
/// and the snapping. The sample zoomed only in its rect query; we apply the same zoom in
/// `attributes(for:)` too, so transitions and updates (which ask per item) agree with what
/// scrolling shows. As in the sample an item exactly `activeDistance` away is not zoomed
/// (zoom 1 there anyway, only its z-index differs), and `minimumInteritemSpacing` stays at
/// UIKit's 10 (the sample never set it; one row fits between the insets).
public struct LineLayout: RegisteredLayout {
    /// Half-width of the zone where items zoom (the sample's ACTIVE_DISTANCE).
    public var activeDistance: Double
    /// How much the centred item grows (the sample's ZOOM_FACTOR).
    public var zoomFactor: Double

    private var flow: FlowLayout
    private var boundsSize = Size.zero
    private var visibleCentreX = 0.0
    private var itemCount = 0
    private var isPrepared = false

    public init(itemSize: Size = Size(200, 200), sectionInset: EdgeInsets = EdgeInsets(top: 200, left: 0, bottom: 200, right: 0),
                minimumLineSpacing: Double = 50, activeDistance: Double = 200, zoomFactor: Double = 0.3) {
        flow = FlowLayout(metrics: FlowLayoutMetrics(itemSize: itemSize, minimumLineSpacing: minimumLineSpacing,
                                                     sectionInset: sectionInset, scrollDirection: .horizontal))
        self.activeDistance = activeDistance
        self.zoomFactor = zoomFactor
    }

    public init() { self.init(itemSize: Size(200, 200)) }

    /// The flow's itemSize (the sample's ITEM_SIZE, 200).
    public var itemSize: Size {
        get { flow.metrics.itemSize }
        set { flow.metrics.itemSize = newValue }
    }

    /// The flow's sectionInset (the sample's top and bottom 200).
    public var sectionInset: EdgeInsets {
        get { flow.metrics.sectionInset }
        set { flow.metrics.sectionInset = newValue }
    }

    /// The flow's minimumLineSpacing: between items along the line (the sample's 50).
    public var minimumLineSpacing: Double {
        get { flow.metrics.minimumLineSpacing }
        set { flow.metrics.minimumLineSpacing = newValue }
    }

    public static var typeName: String { "line" }

    public static var parameters: [LayoutParameter<LineLayout>] {
        [
            .size("itemSize", \.itemSize, positive: true, "Every item's size unless it has its own (the sample's ITEM_SIZE: 200×200)."),
            .insets("sectionInset", \.sectionInset, "Around each section's items, [top, left, bottom, right] (the sample's [200, 0, 200, 0])."),
            .number("minimumLineSpacing", \.minimumLineSpacing, 0...layoutLengthLimit, "Between items along the line (the sample's 50)."),
            .number("activeDistance", \.activeDistance, 0.001...layoutLengthLimit,
                    "Items whose centre is nearer the view's centre than this zoom, 0.001…1e6 (the sample's ACTIVE_DISTANCE: 200)."),
            .number("zoomFactor", \.zoomFactor, 0...10, "The centred item's scale is 1 + this, 0…10 (the sample's ZOOM_FACTOR: 0.3)."),
        ]
    }

    // MARK: Preparing

    /// The flow's own prepare: O(1) for a bounds change of the same size, so scrolling stays cheap.
    public mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        flow.prepare(context, invalidation: invalidation)
        boundsSize = context.boundsSize
        visibleCentreX = context.contentOffset.x + context.boundsSize.width / 2
        // The data changes only with `everything` or sections; a bounds change leaves the count.
        if invalidation.everything || !invalidation.sections.isEmpty || !isPrepared {
            itemCount = context.data.totalItemCount
            isPrepared = true
        }
    }

    public var contentSize: Size { flow.contentSize }

    /// Every scroll moves the zoom.
    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { true }

    // MARK: Queries

    public func attributes(in rect: Rect) -> [LayoutAttributes] { attributes(in: rect, after: nil, limit: .max) }

    /// The flow layout's page, zoomed: the zoom changes no frame, so the flow's early stop holds.
    public func attributes(in rect: Rect, after: ElementID?, limit: Int) -> [LayoutAttributes] {
        var result = flow.attributes(in: rect, after: after, limit: limit)
        for i in result.indices where result[i].element.isCell { zoom(&result[i]) }
        return result
    }

    public func attributes(for element: ElementID) -> LayoutAttributes? {
        guard var a = flow.attributes(for: element) else { return nil }
        if a.element.isCell { zoom(&a) }
        return a
    }

    /// The sample's zoom: scale 1 + zoomFactor·(1 − |d|/activeDistance) and z-index 1 while
    /// |d| < activeDistance, d being the view's centre x minus the item's.
    @inline(__always)
    private func zoom(_ a: inout LayoutAttributes) {
        let distance = visibleCentreX - a.frame.midX
        guard Swift.abs(distance) < activeDistance else { return }
        let zoom = 1 + zoomFactor * CentreFalloff.nearness(distance, within: activeDistance)
        a.transform = .scale(x: zoom, y: zoom, z: 1)
        a.zIndex = 1
    }

    /// The sample's snapping: of the items in the proposed visible rect, the one whose centre x
    /// is nearest the proposed centre is centred (the first of equals); the velocity is not
    /// used. Nothing there: the proposal stands.
    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        let centre = proposed.x + boundsSize.width / 2
        var adjustment: Double?
        for a in flow.attributes(in: Rect(x: proposed.x, y: 0, width: boundsSize.width, height: boundsSize.height)) where a.element.isCell {
            let difference = a.frame.midX - centre
            if adjustment == nil || Swift.abs(difference) < Swift.abs(adjustment!) { adjustment = difference }
        }
        guard let adjustment else { return proposed }
        return Point(x: proposed.x + adjustment, y: proposed.y)
    }

    /// The item whose centre is nearest the view's centre (x, then y; the first of equals), as
    /// of the last prepare: searched in the visible rect, widened until it holds an item.
    public var currentItem: IndexPath? {
        guard itemCount > 0 else { return nil }
        let content = flow.contentSize
        var half = Swift.max(boundsSize.width / 2, 1)
        while true {
            // Across the line the whole content, insets of either sign included.
            let rect = Rect(x: visibleCentreX - half, y: -4 * layoutLengthLimit, width: 2 * half, height: 8 * layoutLengthLimit + content.height)
            var best: (IndexPath, Double, Double)?
            for a in flow.attributes(in: rect) where a.element.isCell {
                let dx = Swift.abs(a.frame.midX - visibleCentreX), dy = Swift.abs(a.frame.midY - boundsSize.height / 2)
                if best == nil || dx < best!.1 || (dx == best!.1 && dy < best!.2) { best = (a.indexPath, dx, dy) }
            }
            if let best { return best.0 }
            // Past both ends of the content: nothing more to find.
            if visibleCentreX - half <= 0 && visibleCentreX + half >= content.width { return nil }
            half *= 2
        }
    }
}
