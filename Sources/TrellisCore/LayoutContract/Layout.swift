/// The narrow protocol every layout implements (flow, circle, carousels, compositional, dynamics):
/// the engine never asks which layout it has. Mirrors UICollectionViewLayout; each method's
/// UIKit counterpart is named on it.
///
/// Layouts are values. The engine calls `prepare` after every invalidation and before any
/// query; queries are then answered from what `prepare` computed.
public protocol Layout: Sendable {
    /// The layout's type name as the protocol writes it ("flow", "circle", …).
    var typeName: String { get }

    /// prepareLayout: compute geometry for `context`; `invalidation` says what changed since the
    /// last call so that only that is recomputed where possible.
    mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation)

    /// collectionViewContentSize: the size of all the content, not only the visible part.
    var contentSize: Size { get }

    /// layoutAttributesForElements(in:): every element (cells, supplementary, decoration) whose
    /// frame intersects `rect`, in drawing order for equal z-index.
    func attributes(in rect: Rect) -> [LayoutAttributes]

    /// A page of `attributes(in:)` (ours; a client's rect may cover a million items): the
    /// elements that come after `after` in that order (all of them when nil), at most `limit`.
    /// Layouts whose rect results can grow with the item count stop as soon as they have
    /// `limit`; the default cuts `attributes(in:)` after the fact, for layouts whose results are
    /// bounded by their own design (a window of slots, the visible covers), and gives nothing
    /// after an element that is not among them.
    func attributes(in rect: Rect, after: ElementID?, limit: Int) -> [LayoutAttributes]

    /// layoutAttributesForItem(at:) / …SupplementaryView / …DecorationView.
    func attributes(for element: ElementID) -> LayoutAttributes?

    /// initialLayoutAttributesForAppearingItem(at:) and kin: where an appearing element starts.
    /// The default is its final place at alpha 0.
    func initialAttributes(forAppearing element: ElementID) -> LayoutAttributes?

    /// finalLayoutAttributesForDisappearingItem(at:) and kin: where a disappearing element ends
    /// (`element` is its index path before the update). The default is its old place at alpha 0.
    func finalAttributes(forDisappearing element: ElementID, from attributes: LayoutAttributes) -> LayoutAttributes?

    /// shouldInvalidateLayout(forBoundsChange:): whether a new visible rect needs a `prepare`
    /// with `LayoutInvalidation.boundsChange` (a size change always does).
    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool

    /// targetContentOffset(forProposedContentOffset:withScrollingVelocity:): where scrolling
    /// comes to rest, for snapping layouts. Velocity in points per second. Default: `proposed`.
    func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point

    /// targetContentOffset(forProposedContentOffset:): the offset after an animated update or a
    /// layout transition. Default: `proposed`.
    func targetContentOffset(forProposed proposed: Point) -> Point

    /// The content repeats every so many points along an axis (0: it does not), as a wrapping
    /// carousel's does: the engine may move the offset by whole periods while nothing moves,
    /// which changes nothing on screen. Default: zero (no wrapping).
    var wrapPeriod: Point { get }

    /// The item the layout calls current (iCarousel's currentItemIndex; the item centred by a
    /// snapping layout), as of the last `prepare`; nil for layouts without one (the default).
    var currentItem: IndexPath? { get }

    /// Springs the layout hangs its items on (the springy flow layout); nil: the layout places
    /// its items itself (the default).
    var springs: LayoutSprings? { get }

    /// The layout moves by time alone and wants to be prepared again at the next tick (an
    /// animation of its own driven by `LayoutContext.time`, as CoverFlow2's toggle). Default: false.
    var needsTicks: Bool { get }

    /// prepareForTransition(from:) on the incoming layout, before a layout transition.
    mutating func prepareForTransition(from oldLayout: any Layout)
    /// prepareForTransition(to:) on the outgoing layout, before a layout transition.
    mutating func prepareForTransition(to newLayout: any Layout)
    /// finalizeLayoutTransition: the transition ended (finished or cancelled).
    mutating func finalizeTransition()

    /// The band section `section` scrolls across in, when it scrolls on its own (a
    /// compositional orthogonal section); nil otherwise (the default).
    func orthogonalBand(section: Int) -> OrthogonalBand?
    /// The orthogonal section whose band holds `point` (content coordinates), if any (default nil).
    func orthogonalSection(at point: Point) -> Int?
    /// Every section's offset across (by section index, 0 when absent): read at query time, so
    /// setting them needs no `prepare`. Default: ignored.
    mutating func setOrthogonalOffsets(_ offsets: [Int: Double])
    /// One section's offset across (`setOrthogonalOffsets` for one section, per frame).
    mutating func setOrthogonalOffset(_ offset: Double, section: Int)
}

extension Layout {
    public func initialAttributes(forAppearing element: ElementID) -> LayoutAttributes? {
        guard var a = attributes(for: element) else { return nil }
        a.alpha = 0
        return a
    }

    public func finalAttributes(forDisappearing element: ElementID, from attributes: LayoutAttributes) -> LayoutAttributes? {
        var a = attributes
        a.alpha = 0
        return a
    }

    public func attributes(in rect: Rect, after: ElementID?, limit: Int) -> [LayoutAttributes] {
        LayoutAttributes.page(of: attributes(in: rect), after: after, limit: limit)
    }

    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { false }
    public func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point { proposed }
    public func targetContentOffset(forProposed proposed: Point) -> Point { proposed }
    public var wrapPeriod: Point { .zero }
    public var currentItem: IndexPath? { nil }
    public var needsTicks: Bool { false }
    public var springs: LayoutSprings? { nil }
    public mutating func prepareForTransition(from oldLayout: any Layout) {}
    public mutating func prepareForTransition(to newLayout: any Layout) {}
    public mutating func finalizeTransition() {}
    public func orthogonalBand(section: Int) -> OrthogonalBand? { nil }
    public func orthogonalSection(at point: Point) -> Int? { nil }
    public mutating func setOrthogonalOffsets(_ offsets: [Int: Double]) {}
    public mutating func setOrthogonalOffset(_ offset: Double, section: Int) {}
}
