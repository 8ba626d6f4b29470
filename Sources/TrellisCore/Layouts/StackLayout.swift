/// The stacking layout of Apple's WWDC 2012 collection view samples ("seed 002"): each section's
/// items piled like photos on a table, each card turned a little, the first on top. Pinch to
/// spread is not part of it. A transition to a flow or a circle deals the cards out from the pile.
///
/// Piles: one section's pile is centred on the view; several sections make a vertical column of
/// piles `pileSpacing` apart (pile s at (W/2, H/2 + s·pileSpacing), so offset s·pileSpacing
/// centres it; content W × (H + (sections − 1)·pileSpacing)). Every card keeps its own size.
///
/// A card's turn is FNV-1a (64 bits) of its identifier's UTF-8 bytes, mixed by one SplitMix64
/// step (seeded with it), the top 53 bits as u in [0, 1), angle (2u − 1)·maxAngle about z: in
/// [−maxAngle, maxAngle), the same in every process and through inserts and deletes (never
/// Swift's per-process `hashValue`). The mixing is needed: FNV-1a's top bits barely change
/// between identifiers that differ only in their last characters ("i0" … "i9" all got −0.122).
/// The turn does not depend on the card's place, so a card keeps it when others come and go.
///
/// Only the top `visibleItems` cards of a pile show. The rest have alpha 0, not isHidden: during
/// a layout transition isHidden (and the z-index) jumps to the target's value at once while alpha
/// interpolates, so with isHidden a transition INTO the stack would blink every card but the top
/// few out at its start; with alpha they fade as they fly onto the pile, and fade in as they deal
/// out of it. attributes(in:) returns only the visible cards, back to front; attributes(for:)
/// answers for every card (transitions and updates ask for the others).
///
/// Updates: an inserted card drops onto the pile (from 1.3× its size and alpha 0); a deleted one
/// lifts off (to 1.3× and alpha 0), both at the pile with the card's own turn.
public struct StackLayout: RegisteredLayout {
    /// 150×150: a card a little over a third of a phone's width reads as a photo on a pile, and
    /// its turned corners stay well inside the view.
    public var itemSize: Size
    /// The largest turn of a card either way, radians (ours: π/24 = 7.5°, enough for the corners
    /// of the cards below to show, small enough to stay one pile).
    public var maxAngle: Double
    /// How many cards of a pile show (whole cards: the value is rounded down; ours 3).
    public var visibleItems: Double
    /// Between pile centres when there are several sections; nil: the card's diagonal + 20 pt, so
    /// neighbouring piles never touch whatever their turns.
    public var pileSpacing: Double?

    private var data = CollectionData()
    /// The largest card diagonal's half, for rect queries.
    private var reach = 0.0
    private var boundsSize = Size.zero
    private var contentOffset = Point.zero
    private var isPrepared = false

    public init(itemSize: Size = Size(150, 150), maxAngle: Double = Double.pi / 24, visibleItems: Double = 3,
                pileSpacing: Double? = nil) {
        self.itemSize = itemSize
        self.maxAngle = maxAngle
        self.visibleItems = visibleItems
        self.pileSpacing = pileSpacing
    }

    public init() { self.init(itemSize: Size(150, 150)) }

    public static var typeName: String { "stack" }

    public static var parameters: [LayoutParameter<StackLayout>] {
        [
            .size("itemSize", \.itemSize, positive: true, "Every card's size unless it has its own (ours: 150×150)."),
            .number("maxAngle", \.maxAngle, 0...Double.pi, "Largest turn of a card either way, radians 0…π (ours: π/24 = 7.5°)."),
            .number("visibleItems", \.visibleItems, 1...1000, "How many top cards of a pile show, 1…1000, rounded down (ours: 3)."),
            .number("pileSpacing", \.pileSpacing, 0...layoutLengthLimit,
                    "Between pile centres when there are several sections, 0…1e6; unset: the card's diagonal + 20 (ours)."),
        ]
    }

    // MARK: Preparing

    /// A bounds change only records the bounds: O(1).
    public mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        boundsSize = context.boundsSize
        contentOffset = context.contentOffset
        guard invalidation.everything || !invalidation.sections.isEmpty || !isPrepared
                || data.numberOfSections != context.data.numberOfSections else { return }
        isPrepared = true
        data = context.data
        var largest = Self.halfDiagonal(itemSize)
        for section in data.sections where !section.hasUniformItems {
            for item in section.items { if let size = item.size { largest = Swift.max(largest, Self.halfDiagonal(size)) } }
        }
        reach = largest
    }

    private static func halfDiagonal(_ s: Size) -> Double { (s.width * s.width + s.height * s.height).squareRoot() / 2 }

    /// Between pile centres.
    public var effectivePileSpacing: Double { pileSpacing ?? 2 * Self.halfDiagonal(itemSize) + 20 }

    /// How many cards of a pile show.
    public var visibleCount: Int { Int(Swift.min(Swift.max(visibleItems, 1), 1000).rounded(.down)) }

    public var contentSize: Size {
        Size(width: boundsSize.width,
             height: boundsSize.height + Double(Swift.max(data.numberOfSections - 1, 0)) * effectivePileSpacing)
    }

    /// The current pile follows the offset.
    public func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { true }

    /// Where pile `section` is centred.
    public func pileCentre(_ section: Int) -> Point {
        Point(x: boundsSize.width / 2, y: boundsSize.height / 2 + Double(section) * effectivePileSpacing)
    }

    // MARK: Queries

    public func attributes(for element: ElementID) -> LayoutAttributes? {
        guard element.isCell, data.contains(element.indexPath) else { return nil }
        return card(element.indexPath)
    }

    /// The visible cards of the piles whose turned cards can meet `rect`, pile by pile, each back to front.
    public func attributes(in rect: Rect) -> [LayoutAttributes] {
        let count = data.numberOfSections
        guard count > 0 else { return [] }
        var first = 0, last = count - 1
        let spacing = effectivePileSpacing
        if spacing > 0 {
            let lo = (rect.minY - reach - boundsSize.height / 2) / spacing, hi = (rect.maxY + reach - boundsSize.height / 2) / spacing
            first = Int(Swift.min(Swift.max(lo.rounded(.down), 0), Double(count)))
            last = Int(Swift.min(Swift.max(hi.rounded(.up), -1), Double(count - 1)))
        }
        guard first <= last else { return [] }
        var result: [LayoutAttributes] = []
        for s in first...last {
            let shown = Swift.min(data.sections[s].count, visibleCount)
            for i in stride(from: shown - 1, through: 0, by: -1) {
                let a = card(IndexPath(s, i))
                if a.visualBounds.intersects(rect) { result.append(a) }
            }
        }
        return result
    }

    private func card(_ indexPath: IndexPath) -> LayoutAttributes {
        let size = data.size(at: indexPath) ?? itemSize
        let centre = pileCentre(indexPath.section)
        return LayoutAttributes(element: .cell(indexPath),
                                frame: Rect(x: centre.x - size.width / 2, y: centre.y - size.height / 2, width: size.width, height: size.height),
                                transform: .rotation(angle: turn(of: data.id(at: indexPath)), x: 0, y: 0, z: 1),
                                alpha: indexPath.item < visibleCount ? 1 : 0,
                                zIndex: -indexPath.item)
    }

    /// The card's turn about z: FNV-1a of its identifier, in [−maxAngle, maxAngle).
    public func turn(of id: ItemID) -> Double {
        (2 * Self.unitHash(id) - 1) * maxAngle
    }

    /// FNV-1a (64 bits) of the identifier's UTF-8 bytes.
    static func fnv1a(_ id: ItemID) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.rawValue.utf8 {
            h ^= UInt64(byte)
            h &*= 0x0000_0100_0000_01b3
        }
        return h
    }

    /// The identifier's FNV-1a, spread by a SplitMix64 step, as a number in [0, 1).
    static func unitHash(_ id: ItemID) -> Double {
        var mixer = SplitMix64(seed: fnv1a(id))
        return Double(mixer.next() >> 11) * 0x1p-53
    }

    /// Drops onto the pile: from 1.3× and transparent.
    public func initialAttributes(forAppearing element: ElementID) -> LayoutAttributes? {
        guard var a = attributes(for: element) else { return nil }
        a.transform = Transform3D.scale(x: 1.3, y: 1.3).concatenating(a.transform)
        a.alpha = 0
        return a
    }

    /// Lifts off the pile: to 1.3× and transparent.
    public func finalAttributes(forDisappearing element: ElementID, from attributes: LayoutAttributes) -> LayoutAttributes? {
        var a = attributes
        a.transform = Transform3D.scale(x: 1.3, y: 1.3).concatenating(a.transform)
        a.alpha = 0
        return a
    }

    /// The top card of the non-empty pile nearest the view's centre (the earlier of equals), as
    /// of the last prepare.
    public var currentItem: IndexPath? {
        let count = data.numberOfSections
        guard count > 0 else { return nil }
        let spacing = effectivePileSpacing
        let nearest = spacing > 0 ? (contentOffset.y / spacing).rounded() : 0
        let start = Int(Swift.min(Swift.max(nearest.isNaN ? 0 : nearest, 0), Double(count - 1)))
        // Outward from the nearest pile, the earlier side first at equal distance.
        for step in 0..<count {
            for s in (step == 0 ? [start] : [start - step, start + step]) where s >= 0 && s < count && data.sections[s].count > 0 {
                return IndexPath(s, 0)
            }
        }
        return nil
    }
}
