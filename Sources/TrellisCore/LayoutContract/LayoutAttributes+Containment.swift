extension LayoutAttributes {
    /// The point (content coordinates) in the element's own space: the inverse of its transform
    /// about its centre, perspective included; nil when the element is seen edge-on.
    public func localPoint(_ point: Point) -> Point? {
        let relative = point - center
        return hasTransform ? transform.unproject(relative) : relative
    }

    /// True when `point` (content coordinates) falls on the transformed element (top/left edges
    /// in, bottom/right out), whatever its alpha or hidden flag.
    public func contains(_ point: Point) -> Bool {
        guard let local = localPoint(point) else { return false }
        let hw = size.width / 2, hh = size.height / 2
        return local.x >= -hw && local.x < hw && local.y >= -hh && local.y < hh
    }
}
