extension CollectionView {
    /// UIKit ignores touches on views with alpha below 0.01; so do we.
    public static let minimumHitAlpha = 0.01

    /// The topmost element on screen at `point` (content coordinates): front to back in drawing
    /// order, skipping hidden and transparent views, testing the point in each element's own
    /// space (the inverse of its transform about its centre, perspective included).
    public func hitTest(_ point: Point) -> SceneView? {
        let views = scene.views
        for view in views.reversed() where Self.isHit(point, view.attributes) { return view }
        return nil
    }

    static func isHit(_ point: Point, _ a: LayoutAttributes) -> Bool {
        !a.isHidden && a.alpha >= minimumHitAlpha && a.contains(point)
    }
}
