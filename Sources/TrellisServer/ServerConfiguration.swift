import TrellisProtocol

public struct ServerConfiguration: Sendable {
    public var socketPath: String
    public var framesPerSecond: Double = 60
    public var maximumMessageBytes = ProtocolLimits.defaultMaximumMessageBytes
    public var maximumClients = 1024
    /// Above this many queued bytes a viewer skips frames (it later gets one delta against
    /// what it last received).
    public var viewerSoftLimitBytes = 256 * 1024
    /// Above this, or above the soft limit for `viewerSoftLimitSeconds`, a viewer is disconnected.
    public var viewerHardLimitBytes = 8 * 1024 * 1024
    public var viewerSoftLimitSeconds = 10.0
    /// Every connection's output limits (Redis's client-output-buffer-limit normal): above the
    /// soft limit unread, its requests are not read until it reads its replies (backpressure);
    /// above the hard limit it is disconnected with the reason.
    public var clientSoftLimitBytes = 1 << 20
    public var clientHardLimitBytes = 64 << 20
    /// Persistence (Persistence/Persistence.swift): where sessions are journaled and restored
    /// from at start; nil keeps them in memory only.
    public var stateDirectory: String?
    public var fsyncPolicy = FsyncPolicy.everysec
    /// The journal size that triggers compaction into a snapshot.
    public var journalCompactionBytes = 4 << 20
    /// Bounded work (PROTOCOL.md, "Budgets"): the physics one live tick may simulate for all
    /// live sessions (each gets its share and at least one step; the rest is dropped, so
    /// physics falls behind real time and says so), and the physics one request may simulate
    /// before the loop serves others (a longer `clock.advance` goes on in later loop turns).
    public var tickBudgetMilliseconds = 20.0
    public var requestBudgetMilliseconds = 20.0
    /// Per session: the most free bodies and behaviours (refused past them with `limit_exceeded`),
    /// and the most contact points one step solves (`ContactLimits`).
    public var maximumBodies = 10_000
    public var maximumBehaviors = 10_000
    public var maximumContacts = 65_536
    /// Chunked reloads (data.reload.begin … commit): the most items, and the most bytes (about
    /// what they hold in memory), staged in all pending uploads together.
    public var maximumUploadItems = 10_000_000
    public var maximumUploadBytes = 1 << 30
    /// Seeks (SessionSeek): the most bytes of changes a recording's history keeps
    /// (`SessionHistory.maximumChangeBytes`), and the most changes a seek replays in one loop
    /// turn besides the request budget (unlimited; tests set a few to make turns countable).
    public var maximumHistoryBytes = 32 << 20
    public var seekChangesPerTurn = Int.max

    public init(socketPath: String) { self.socketPath = socketPath }
}
