import TrellisCore
import TrellisDynamics
import TrellisProtocol

/// One named collection view the server owns, with its clock and the viewers attached to it.
public final class Session {
    /// Live: the server advances the engine to real time while something moves. Manual: time
    /// moves only by `clock.advance` (deterministic scripts and tests).
    public enum Clock: String, Sendable { case live, manual }

    public let name: String
    /// The engine: the session's whole collection-view state.
    public var collectionView: CollectionView
    public let clock: Clock
    /// The loop time (ms) that is the session's time zero, for live clocks.
    let epochMilliseconds: Double
    /// The flight recording of this session's changes while one writes them (`recording.start`
    /// sets it, `recording.stop` clears it): read on every accepted change, so a field rather than
    /// a lookup by name and a weak reference's load.
    var recording: ScriptRecording?
    /// The number of the last frame published.
    public internal(set) var seq = 0
    /// What caught-up viewers hold: the state after the last published frame.
    var published = PublishedScene()
    /// The delta of the last frame published, written as the diff found it (reused).
    var frame = FrameWriter()
    var viewers: [Int: Viewer] = [:]
    public internal(set) var framesPublished = 0
    /// The size of the last encoded frame (the next one's starting capacity).
    var lastFrameBytes = 0
    /// What caught-up debug viewers hold of the debug layer (empty while no viewer asks for it).
    var publishedDebug = PublishedDebugLayer()
    /// The debug layer's part of the last frame (reused), the buffer the layer is built in and
    /// which view shows each dynamic item (kept while the views and items stay the same).
    var debugFrame = DebugFrameWriter()
    var debugLayer = DebugLayerContents()
    var debugItemViews = DebugItemViews()
    /// Debug shapes and records built in all: stays 0 while no viewer asks for the debug layer (`stats`).
    public internal(set) var debugShapesBuilt = 0

    /// Some viewer asked for the debug layer.
    var hasDebugViewers: Bool { viewers.values.contains { $0.debug } }

    /// The debug layer as the engine is now, in the reused buffer (and counted).
    func buildDebugLayer() {
        collectionView.buildDebugLayer(into: &debugLayer, itemViews: &debugItemViews)
        debugShapesBuilt += debugLayer.count
    }

    /// No viewer asks for the debug layer any more: what was kept for it goes.
    func dropDebugLayer() {
        publishedDebug = PublishedDebugLayer()
        debugLayer = DebugLayerContents()
        debugItemViews = DebugItemViews()
    }

    /// The most physics steps a live session catches up in one advance: a bound on the work, so
    /// 4 s of simulation at 60 Hz, 1 s at 240 Hz.
    static let liveCatchUpLimit = 240

    /// `contactLimit`: the most contact points one physics step solves (`--max-contacts`).
    init(name: String, collectionView: CollectionView, clock: Clock, epochMilliseconds: Double,
         contactLimit: Int = ContactLimits.defaultPoints) {
        self.name = name
        self.collectionView = collectionView
        self.collectionView.contactLimits.points = contactLimit
        self.clock = clock
        self.epochMilliseconds = epochMilliseconds
        // A live session that stalled (a stopped process) catches up a bounded number of physics
        // steps at most, as the loop must not freeze; a manual clock simulates every step it is given.
        if clock == .live { self.collectionView.dynamicsCatchUpLimit = Self.liveCatchUpLimit }
        published = PublishedScene(keyframe: collectionView.scene)
    }

    /// The engine's clock moved since the last frame was published: what it moved (an
    /// animation that landed during a query, say) must still reach the viewers.
    var movedSincePublished = false

    /// Brings a live session's engine to `nowMilliseconds` (loop time), its physics taking steps
    /// while `more` says so (at least one); the steps it refuses are dropped: physics falls
    /// behind real time rather than holding the loop (`dynamics.overloaded` says so).
    func syncClock(toLoopMilliseconds nowMilliseconds: Double, dynamicsWhile more: () -> Bool) {
        guard clock == .live else { return }
        let before = collectionView.time
        collectionView.advance(to: (nowMilliseconds - epochMilliseconds) / 1000, dynamicsWhile: more, overrun: .drop)
        if collectionView.time != before { movedSincePublished = true }
    }

    /// The connection whose `gesture.pan` began the drag in progress (nil: none, or journal replay).
    var panOwner: Int?

    /// Overload told to viewers (`dynamics.overloaded`): when last (loop ms), and the counts then.
    var overloadNotice = OverloadNotice()
}

/// A connection attached to a session as a viewer: what it was last sent, and whether that is
/// the session's latest frame (then it shares the frame everyone gets).
final class Viewer {
    let connection: Connection
    let readOnly: Bool
    /// What this viewer holds, when it fell behind (nil: it holds `session.published`).
    var lagging: PublishedScene?
    /// It asked for the debug layer (`session.attach`'s `debug`).
    let debug: Bool
    /// The debug layer it holds, when it fell behind.
    var laggingDebug: PublishedDebugLayer?
    var framesSkipped = 0
    /// Events of the frames it skipped, sent after its catch-up delta.
    var missedEvents: [EngineEvent] = []
    var framesSent = 0
    /// When it went above the soft output limit (loop ms), if it is above it now.
    var overSoftLimitSince: Double?
    /// Notifications sent only on request (session.attach's `events`): scroll.didScroll and
    /// scroll.band.didScroll.
    var subscriptions: Set<String>

    /// The notifications a viewer may ask for; every other one always comes.
    static let optionalEvents = ["scroll.didScroll", "scroll.band.didScroll"]

    init(connection: Connection, readOnly: Bool, subscriptions: Set<String> = [], debug: Bool = false) {
        self.connection = connection
        self.readOnly = readOnly
        self.debug = debug
        self.subscriptions = subscriptions
    }

    /// Whether `event` goes to this viewer.
    func wants(_ event: EngineEvent) -> Bool {
        if case .scrollDidScroll = event { return subscriptions.contains("scroll.didScroll") }
        if case .bandScroll(let e) = event, case .didScroll = e.kind { return subscriptions.contains("scroll.band.didScroll") }
        return true
    }
}
