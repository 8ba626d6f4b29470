import TrellisGeometry
import TrellisDynamics

extension CollectionView {
    /// Builds the debug layer of the scene as it is now into `layer` (what acts on it, as UIKit
    /// Dynamics' `debugEnabled` view shows it): the scroll view's content bounds, the edge a
    /// scroll is stretched past and the target a fling heads to, then the animator's shapes and
    /// records while it has behaviours or items. Built only for viewers that ask. An item shown
    /// by a view has its shapes in that view's coordinates (see `DebugShape.view`); which view
    /// shows which item is kept in `itemViews` and found again only when the bound views or the
    /// items changed.
    public func buildDebugLayer(into layer: inout DebugLayerContents, itemViews: inout DebugItemViews) {
        layer.removeAll()
        appendScrollDebugShapes(to: &layer.shapes)
        let animator = dynamics.animator
        if !animator.behaviors.isEmpty || animator.bodies.count > 0 {
            updateDynamicItemViews(&itemViews)
            animator.buildDebugLayer(into: &layer, views: itemViews.views)
        } else {
            layer.removeContacts()
        }
    }

    /// Every shape of the debug layer now, sorted by id, appended to `shapes` (a keyframe's or
    /// a test's; frames use `buildDebugLayer`, which makes no shape for an item).
    public func appendDebugShapes(to shapes: inout [DebugShape]) {
        var layer = DebugLayerContents()
        var itemViews = DebugItemViews()
        buildDebugLayer(into: &layer, itemViews: &itemViews)
        shapes.append(contentsOf: layer.allShapes)
    }

    /// For each animator item, by its index in `bodies`, the number of the view bound to its
    /// element (-1: none): kept while the bound elements, the items and which element each item
    /// is are the same arrays and dictionaries as when it was found (compared by storage first,
    /// so an unchanged scene costs a loop over the shown items' views), else one pass over the
    /// bound views.
    func updateDynamicItemViews(_ cache: inout DebugItemViews) {
        let ids = dynamics.animator.bodies.ids
        if cache.isValid, cache.keys == bound.keys, cache.ids == ids, cache.cells == dynamics.cells,
           cache.bodyItems == dynamics.bodyItems, cache.viewsStillBound(bound) {
            return
        }
        let bodies = dynamics.animator.bodies
        var views = [Int](repeating: -1, count: bodies.count)
        var shown: [DebugItemViews.Shown] = []
        bound.withUnsafeRows { rows in
            for (position, element) in bound.keys.enumerated() {
                let id: DynamicItemID?
                switch element.kind {
                case .body: id = element.bodyNumber.flatMap { dynamics.itemID(ofBody: $0) }
                case .cell: id = dynamics.cells[element.indexPath]
                case .supplementary, .decoration: id = nil
                }
                if let id, let k = bodies.index(of: id) {
                    views[k] = rows[position].view.rawValue
                    shown.append(DebugItemViews.Shown(row: position, item: k))
                }
            }
        }
        cache = DebugItemViews(views: views, keys: bound.keys, ids: ids, cells: dynamics.cells,
                               bodyItems: dynamics.bodyItems, shown: shown)
    }

    /// The scroll shapes: parts 0 content bounds, 1 and 2 the rubber-band edge across x and y,
    /// 3 the fling's target (the visible bounds where it comes to rest).
    private func appendScrollDebugShapes(to shapes: inout [DebugShape]) {
        let size = scroll.contentSize, bounds = scroll.boundsSize
        shapes.append(DebugShape(DebugShapeID(.scroll, 0, 0), .content,
                                 .box(center: Point(x: size.width / 2, y: size.height / 2), size: size, angle: 0)))
        let offset = presentationContentOffset
        let lo = scroll.minimumContentOffset, hi = scroll.maximumContentOffset
        // Where the viewport's edge rests: the edge the content is pulled back to.
        if offset.x < lo.x || offset.x > hi.x {
            let x = offset.x < lo.x ? lo.x : hi.x + bounds.width
            shapes.append(DebugShape(DebugShapeID(.scroll, 0, 1), .rubberBand,
                                     .polyline([Point(x: x, y: offset.y), Point(x: x, y: offset.y + bounds.height)])))
        }
        if offset.y < lo.y || offset.y > hi.y {
            let y = offset.y < lo.y ? lo.y : hi.y + bounds.height
            shapes.append(DebugShape(DebugShapeID(.scroll, 0, 2), .rubberBand,
                                     .polyline([Point(x: offset.x, y: y), Point(x: offset.x + bounds.width, y: y)])))
        }
        let deceleration = scrollMotion.deceleration
        guard deceleration.decelerating else { return }
        var target = offset
        var label = "rest"
        func axisTarget(_ axis: AxisMotion?, _ x: Double, _ lo: Double, _ hi: Double) -> Double {
            guard let axis else { return x }
            switch axis.phase {
            case .decelerating:
                return min(max(AxisMotion.projectedRest(x, velocity: axis.velocity, rate: axis.rate), lo), hi)
            case .bouncing:
                label = "edge"
                return axis.anchor
            case .settling:
                label = deceleration.configuration.pagingEnabled ? "page" : "snap"
                return axis.anchor
            }
        }
        target.x = axisTarget(deceleration.x, offset.x, lo.x, hi.x)
        target.y = axisTarget(deceleration.y, offset.y, lo.y, hi.y)
        shapes.append(DebugShape(DebugShapeID(.scroll, 0, 3), .target,
                                 .box(center: Point(x: target.x + bounds.width / 2, y: target.y + bounds.height / 2), size: bounds, angle: 0),
                                 label: label))
    }
}
