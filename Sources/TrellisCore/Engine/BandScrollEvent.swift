/// A scroll delegate callback of an orthogonal section's own scroller (ours: UIKit's embedded
/// scroller is private and tells no delegate), named by the section's index and identifier.
/// Offsets and velocities are along the band's axis.
public struct BandScrollEvent: Hashable, Sendable {
    /// Which of UIScrollViewDelegate's callbacks it mirrors.
    public enum Kind: Hashable, Sendable {
        /// A pan began to drag the band, from `offset`.
        case willBeginDragging(offset: Double)
        /// The finger lifted: the offset's velocity (pt/s) and where the band will rest.
        case willEndDragging(velocity: Double, targetOffset: Double)
        /// The drag ended; `decelerate` is true when released motion follows.
        case didEndDragging(decelerate: Bool)
        /// Released motion came to rest at `offset`.
        case didEndDecelerating(offset: Double)
        /// The band's offset moved by the user's scrolling: at most once per tick or pan sample.
        case didScroll(offset: Double)
    }

    /// The section's index when it happened.
    public var section: Int
    public var id: SectionID
    public var kind: Kind

    public init(section: Int, id: SectionID, kind: Kind) {
        self.section = section; self.id = id; self.kind = kind
    }
}
