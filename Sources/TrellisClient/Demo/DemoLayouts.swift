import TrellisCore
import TrellisProtocol

/// The layouts the demo's tour visits, as `layout.set` specs at the demo's metrics.
extension DemoMetrics {
    private func size(_ width: Double, _ height: Double) -> JSONValue { .array([.number(width.rounded()), .number(height.rounded())]) }
    private func numbers(_ values: [Double]) -> JSONValue { .array(values.map { .number($0.rounded()) }) }

    public var flowLayout: JSONValue {
        let s = Self.spacing
        return .object(["type": .string("flow"), "itemSize": size(itemSize.width, itemSize.height),
                        "minimumLineSpacing": .number(s), "minimumInteritemSpacing": .number(s),
                        "sectionInset": numbers([s, s, s, s])])
    }

    /// Seed 000's springy flow (iOS 7's Messages) at the flow's metrics: at rest it is the flow.
    public var springyLayout: JSONValue {
        guard case .object(var spec) = flowLayout else { return flowLayout }
        spec["type"] = .string("springy")
        return .object(spec)
    }

    /// Apple's circle (seed 002) with smaller cells, so a ring of two dozen still reads.
    public var circleLayout: JSONValue {
        .object(["type": .string("circle"), "itemSize": size(itemSize.width * 0.6, itemSize.height * 0.6)])
    }

    /// Apple's LineLayout: one row of larger cells, centred across the view.
    public var lineLayout: JSONValue {
        let height = min(itemSize.height * 1.25, bounds.height * 0.6)
        let width = min(itemSize.width * 1.25, bounds.width * 0.4)
        let inset = max(0, (bounds.height - height) / 2)
        return .object(["type": .string("line"), "itemSize": size(width, height),
                        "sectionInset": numbers([inset, 0, inset, 0]),
                        "minimumLineSpacing": .number((width * 0.3).rounded()), "activeDistance": .number(width.rounded())])
    }

    /// Square covers as tall as half the view.
    public var coverFlowLayout: JSONValue {
        let side = min(bounds.height * 0.55, bounds.width * 0.32)
        return .object(["type": .string("coverFlow"), "itemSize": size(side, side)])
    }

    /// Seed 002's piles: cards turned about the middle.
    public var stackLayout: JSONValue {
        let side = min(bounds.height * 0.55, bounds.width * 0.32)
        return .object(["type": .string("stack"), "itemSize": size(side, side)])
    }

    /// iCarousel's rotary ring of 14 places, seen from above (iCarousel raises the eye by
    /// moving the ring down) with a strong perspective, so the cards at the back show above the
    /// front ones, smaller: the ring looks round even at 80×24. It does not wrap: a wrapping
    /// carousel's content is millions of points long, and an animated change to another
    /// layout would interpolate the views through that distance, off screen.
    public func carouselLayout(items: Int) -> JSONValue {
        let width = min(itemSize.width, bounds.width / 8)
        return .object(["type": .string("carousel"), "style": .string("rotary"), "itemSize": size(width, min(width * 0.93, bounds.height * 0.3)),
                        "count": .number(Double(min(max(items, 3), 14))), "wrap": .bool(false),
                        "viewpointOffset": numbers([0, -bounds.height * 0.3]),
                        "perspective": .number(max(-0.01, -1 / max(1, bounds.width * 0.6)))])
    }

    /// Apple's "Orthogonal Sections" in small (a compositional layout): the items in one band
    /// across the view, cards a third of its width and most of its height, that pages a group at
    /// a time, the cards away from the band's middle a little smaller.
    public var compositionalLayout: JSONValue {
        let s = Self.spacing
        let card: JSONValue = .object(["width": .object(["absolute": .number((bounds.width * 0.3).rounded())]),
                                       "height": .object(["absolute": .number((bounds.height * 0.7).rounded())])])
        let full: JSONValue = .object(["width": .object(["fractionalWidth": .number(1)]), "height": .object(["fractionalHeight": .number(1)])])
        let band: JSONValue = .object([
            "orthogonalScrollingBehavior": .string("groupPaging"), "interGroupSpacing": .number(s), "contentInsets": numbers([s, s, s, s]),
            "visibleItemsEffect": .object(["scale": .object(["min": .number(0.85)])]),
            "group": .object(["arrangement": .string("horizontal"), "size": card, "subitems": .array([.object(["size": full])])])])
        return .object(["type": .string("compositional"), "sections": .array([band]), "provider": .object(["rule": .string("cycling")])])
    }

    /// iOS 9's task switcher: a fan of cards, the current one right of the middle.
    public var taskSwitcherLayout: JSONValue {
        .object(["type": .string("carousel"), "style": .string("custom"), "transform": .string("taskSwitcher"),
                 "itemSize": size(bounds.width * 0.42, bounds.height * 0.72)])
    }
}
