/// How much collision work one step may do, so that no arrangement of items (a thousand
/// spawned at one point, say) makes a step cost N²: at most `points` contact points, and at
/// most `candidateTests` bounds tests in the broadphases. Boundaries' contacts come before the
/// items' pairs of the same behaviour, so the last to go are those that keep items in the world.
/// Past either, the rest of the step's contacts are left out (and counted): the scene is then
/// wrong for a step, never stalled. Defaults well above any pile that settles in real time
/// (dynamics.pile.1k has about 4,000 points).
public struct ContactLimits: Hashable, Sendable {
    public var points: Int
    public var candidateTests: Int

    public static let defaultPoints = 65_536
    public static let defaultCandidateTests = 2_000_000

    public init(points: Int = ContactLimits.defaultPoints, candidateTests: Int = ContactLimits.defaultCandidateTests) {
        self.points = points
        self.candidateTests = candidateTests
    }
}

/// What one step's limits left out.
public struct ContactsDropped: Hashable, Sendable {
    /// Contact points past `ContactLimits.points`.
    public var points = 0
    /// Pairs of crowded items neither kept (`Broadphase`): items spawned inside each other.
    public var crowdedPairs = 0
    /// True when the broadphases ran out of candidate tests.
    public var testsExhausted = false
    /// Pairs of overlapping bounds past the broadphase's store, in a scene with no crowded item
    /// (`Broadphase`): counted so that they are not lost unseen. A spreading spawn has thousands
    /// a step, mostly pairs fattened for speed that do not touch (`stats`' `pairsPastStore`).
    public var pairsPastStore = 0

    public init() {}

    /// Whether a limit cut anything (a crowd's share is how spawns are resolved, not a limit hit).
    public var exceededLimits: Bool { points > 0 || testsExhausted }
}
