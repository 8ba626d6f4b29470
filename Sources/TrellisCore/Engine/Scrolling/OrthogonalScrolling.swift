/// The orthogonal sections' own scrolling (UIKit's embedded scrollers of a compositional
/// layout): each scrolled section's offset across and its released motion, keyed by the
/// section's identifier so that batch updates inserting or deleting sections leave each offset
/// with its section; and the drag in progress, when a pan began inside a band.
public struct OrthogonalScrolling: Hashable, Sendable {
    /// One section's scroll across.
    public struct Section: Hashable, Sendable {
        /// The offset on screen, along the band's axis.
        public var offset: Double
        /// A released scroll (deceleration, bounce, settle onto a resting offset), as the main
        /// scroll's axes move.
        public var motion: AxisMotion?
        /// The section's index when the offsets were last handed to the layout (the engine
        /// keeps it current across updates; not state of its own).
        public var index: Int

        public init(offset: Double, motion: AxisMotion? = nil, index: Int) {
            self.offset = offset; self.motion = motion; self.index = index
        }
    }

    /// A pan that began inside a band moves that band's offset, not the main scroll.
    public struct Drag: Hashable, Sendable {
        public var section: SectionID
        /// The finger's offset (before rubber-banding) when the drag began.
        public var origin: Double
        /// The offset on screen when it began (paging turns at most one pitch from there).
        public var startOffset: Double
        public var lastOffset: Double
        public var lastTime: Double
        /// The offset's velocity (pt/s) from the last two samples.
        public var velocity: Double

        public init(section: SectionID, origin: Double, startOffset: Double, lastOffset: Double, lastTime: Double, velocity: Double = 0) {
            self.section = section; self.origin = origin; self.startOffset = startOffset
            self.lastOffset = lastOffset; self.lastTime = lastTime; self.velocity = velocity
        }
    }

    /// Sections a drag or a command has scrolled (until they are deleted or stop being
    /// orthogonal); any other section is at 0.
    public var sections: [SectionID: Section] = [:]
    public var drag: Drag?
    /// The band a finger rests on without a pan (a touch down inside it caught its motion);
    /// the touch's lift releases it as a pan released at rest would be.
    public var held: SectionID?

    public init() {}

    /// Some section decelerates, bounces or settles.
    public var needsTicks: Bool { sections.values.contains { $0.motion != nil } }

    /// The offset of section `id` (0 when it never scrolled).
    public func offset(of id: SectionID) -> Double { sections[id]?.offset ?? 0 }
}
