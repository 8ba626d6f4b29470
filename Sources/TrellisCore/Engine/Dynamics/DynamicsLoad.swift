/// What a session's dynamics holds and what it had to give up, for `stats` and the overload notice.
public struct DynamicsLoad: Hashable, Sendable {
    /// Free bodies, behaviours (of which stopped), and items in the animator.
    public var bodies: Int
    public var behaviors: Int
    public var stopped: Int
    public var dynamicItems: Int
    /// Contact points in the last step.
    public var contacts: Int
    /// Steps whose contacts the contact limits cut, and the points they left out, in all.
    public var stepsOverContactLimits: Int
    public var contactPointsDropped: Int
    /// Pairs of overlapping bounds past the broadphase's store, in all (not a limit: counted so
    /// that they are not lost unseen).
    public var pairsPastStore: Int = 0
    /// Dynamics steps dropped to keep ticks within their budget, in all.
    public var stepsDropped: Int
    /// The simulated seconds those steps stood for (at the step rate of when they were dropped).
    public var timeDropped: Double = 0
}
