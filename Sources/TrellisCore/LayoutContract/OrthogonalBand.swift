import TrellisGeometry

/// A section that scrolls across the layout's scroll axis on its own (a compositional section
/// with an orthogonal scrolling behaviour): the band it scrolls inside, how far it scrolls and
/// where a released scroll may rest. Offsets count along the band's axis from 0 (the section's
/// leading inset showing at the band's leading edge).
public struct OrthogonalBand: Hashable, Sendable {
    /// Where a released scroll of the band comes to rest.
    public struct RestRule: Hashable, Sendable {
        /// The offsets it may rest on are `origin + k·pitch`; a pitch of 0 rests anywhere.
        public var origin: Double
        public var pitch: Double
        /// At most one pitch from where the drag began (paging); otherwise the nearest to the
        /// deceleration's projection.
        public var onePitchAtATime: Bool
        /// Velocity kept per millisecond while it decelerates.
        public var decelerationRate: Double

        public init(origin: Double = 0, pitch: Double = 0, onePitchAtATime: Bool = false, decelerationRate: Double) {
            self.origin = origin; self.pitch = pitch; self.onePitchAtATime = onePitchAtATime; self.decelerationRate = decelerationRate
        }
    }

    /// The section's index.
    public var section: Int
    /// The band in content coordinates, unscrolled (the visible part of the section's groups).
    public var frame: Rect
    /// True when the band scrolls along x (a vertical layout's orthogonal section).
    public var scrollsHorizontally: Bool
    /// The offsets the band rests between (the minimum is below 0 when groups are centred).
    public var minimumOffset: Double
    public var maximumOffset: Double
    public var rest: RestRule

    public init(section: Int, frame: Rect, scrollsHorizontally: Bool, minimumOffset: Double, maximumOffset: Double, rest: RestRule) {
        self.section = section; self.frame = frame; self.scrollsHorizontally = scrollsHorizontally
        self.minimumOffset = minimumOffset; self.maximumOffset = Swift.max(minimumOffset, maximumOffset); self.rest = rest
    }

    /// The band's length along its axis (the rubber band's dimension and a page's size).
    @inlinable public var length: Double { scrollsHorizontally ? frame.size.width : frame.size.height }

    /// `offset` inside the band's range.
    @inlinable public func clamped(_ offset: Double) -> Double { Swift.min(Swift.max(offset, minimumOffset), maximumOffset) }

    /// Where a scroll released at `offset` moving at `velocity` (pt/s, offset direction) rests,
    /// for a drag that began at `start`: the deceleration's projection, moved to the nearest
    /// resting offset (or one pitch from `start` at most), inside the range.
    public func restingOffset(from offset: Double, velocity: Double, start: Double) -> Double {
        let projected = AxisMotion.projectedRest(offset, velocity: velocity, rate: rest.decelerationRate)
        guard rest.pitch > 0 else { return clamped(projected) }
        if rest.onePitchAtATime {
            return Paging.target(offset: offset - rest.origin, velocity: velocity, pageSize: rest.pitch, startOffset: start - rest.origin,
                                 lo: minimumOffset - rest.origin, hi: maximumOffset - rest.origin) + rest.origin
        }
        let k = ((projected - rest.origin) / rest.pitch).rounded(.toNearestOrAwayFromZero)
        return clamped(rest.origin + k * rest.pitch)
    }
}
