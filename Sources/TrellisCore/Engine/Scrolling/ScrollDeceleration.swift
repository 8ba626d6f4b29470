import TrellisGeometry

/// The user's scrolling for one collection view: the configuration, a drag in progress, a
/// finger down (tracking), and the released motion of each axis. The content offset it moves
/// is the engine's `ScrollState.contentOffset` itself (what is on screen, as UIScrollView's
/// contentOffset during a drag or a deceleration).
public struct ScrollDeceleration: Hashable, Sendable {
    /// A drag in progress: the finger's offset (before rubber-banding) when it began.
    public struct Drag: Hashable, Sendable {
        public var origin: Point
        /// Where the drag began on screen (paging turns at most one page from there).
        public var startOffset: Point
        public var lastOffset: Point
        public var lastTime: Double
        /// Where the finger touched down, in the view.
        public var touchDown = Point.zero

        public init(origin: Point, startOffset: Point, lastOffset: Point, lastTime: Double) {
            self.origin = origin; self.startOffset = startOffset; self.lastOffset = lastOffset; self.lastTime = lastTime
        }
    }

    public var configuration = ScrollConfiguration()
    public var drag: Drag?
    /// A finger is down (UIScrollView's isTracking).
    public var tracking = false
    public var x: AxisMotion?
    public var y: AxisMotion?
    /// The offset's velocity while dragging (pt/s, estimated from the pan's samples).
    public var dragVelocity = Point.zero
    /// Where the finger was last, in the view (not the content): where it touched down plus the
    /// pan's translation. A fling keeps it (UIPanGestureRecognizer's location after the release).
    public var fingerInView: Point?
    /// The orthogonal sections' own offsets, motion and drag (a compositional layout's).
    public var orthogonal = OrthogonalScrolling()

    public init() {}

    public var dragging: Bool { drag != nil }
    /// Released motion in progress (UIScrollView's isDecelerating, bounce and settle included).
    public var decelerating: Bool { x != nil || y != nil }
    /// Some axis is being pulled back to an edge.
    public var bouncing: Bool { x?.phase == .bouncing || y?.phase == .bouncing }
    public var needsTicks: Bool { decelerating || orthogonal.needsTicks }

    /// The on-screen offset's velocity in points per second.
    public var velocity: Point {
        if dragging { return dragVelocity }
        return Point(x: x?.velocity ?? 0, y: y?.velocity ?? 0)
    }
}
