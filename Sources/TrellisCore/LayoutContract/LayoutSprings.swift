/// How a layout hangs the items it shows on springs to their places (seed 000's springy flow
/// layout, after iOS 7's Messages): scrolling moves each item with the content less than the
/// content moves, by its distance from the touch over `scrollResistance`, and the springs pull
/// it back. The engine keeps the springs in the dynamics stage, for the items within `tileMargin`
/// of what is shown only (WWDC 2013's tiling), and takes them off once everything rests.
public struct LayoutSprings: Hashable, Sendable {
    /// The springs' frequency in Hz (UIAttachmentBehavior's).
    public var frequency: Double
    /// Their damping ratio (UIAttachmentBehavior's damping).
    public var damping: Double
    /// Points of distance from the touch per unit of lag: an item this far from the touch (or
    /// farther) stays where it is on screen when the content moves, a nearer one goes part of
    /// the way, the one under the finger goes with it.
    public var scrollResistance: Double
    /// Items this far (points) outside the visible rect have springs too.
    public var tileMargin: Double
    /// The scroll axis: y (true) or x.
    public var vertical: Bool

    public init(frequency: Double, damping: Double, scrollResistance: Double, tileMargin: Double, vertical: Bool) {
        self.frequency = frequency
        self.damping = damping
        self.scrollResistance = scrollResistance
        self.tileMargin = tileMargin
        self.vertical = vertical
    }

    /// How far an item whose spring hangs at `anchor` moves when the content scrolls by
    /// `delta` (along the axis) with the touch at `touch`: delta·|touch − anchor|/resistance,
    /// never more than delta itself (seed 000's formula).
    public func lag(delta: Double, touch: Point, anchor: Point) -> Double {
        let distance = vertical ? abs(touch.y - anchor.y) : abs(touch.x - anchor.x)
        let scaled = delta * distance / scrollResistance
        return delta > 0 ? min(delta, scaled) : max(delta, scaled)
    }
}
