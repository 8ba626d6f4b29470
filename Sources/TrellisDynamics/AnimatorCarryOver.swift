import TrellisGeometry

/// What a `DynamicAnimator` carries from one step to the next beyond its items' motion and its
/// behaviours' settings (`DynamicAnimator.carryOver`): plain numbers, for a snapshot to keep.
public struct AnimatorCarryOver: Hashable, Sendable {
    public var elapsedTime: Double
    public var steps: Int
    public var isPaused: Bool
    public var restTimesCleared: Bool
    public var nextBehavior: Int
    /// Each item's time below the rest tolerances, in the animator's order of items.
    public var restTimes: [Double]
    /// The last step's contacts' impulses, to warm-start the next step's.
    public var contacts: [CachedContact]
    /// Which contacts touch, and the keys in the order the last step found them.
    public var touching: [TouchingContact]
    public var found: [TouchKey]
    public var joints: JointImpulses
    /// The items whose springs between items stepped them last, by their place in the animator's
    /// order of items, with their stepping velocities' offsets (`SteppedKick`).
    public var kicks: [IndexedKick]

    public init(elapsedTime: Double, steps: Int, isPaused: Bool, restTimesCleared: Bool, nextBehavior: Int, restTimes: [Double],
                contacts: [CachedContact], touching: [TouchingContact], found: [TouchKey], joints: JointImpulses,
                kicks: [IndexedKick] = []) {
        self.elapsedTime = elapsedTime; self.steps = steps; self.isPaused = isPaused; self.restTimesCleared = restTimesCleared
        self.nextBehavior = nextBehavior; self.restTimes = restTimes; self.contacts = contacts; self.touching = touching
        self.found = found; self.joints = joints; self.kicks = kicks
    }
}

/// One item's `SteppedKick`, by its place in the animator's order of items.
public struct IndexedKick: Hashable, Sendable {
    public var index: Int
    public var kick: SteppedKick

    public init(index: Int, kick: SteppedKick) { self.index = index; self.kick = kick }
}

/// A contact's identity (`Contact.Key`) and its impulses at the end of a step.
public struct CachedContact: Hashable, Sendable {
    /// Item ids (`a` nil against a boundary), the boundary (-1 between items; else its number
    /// << 16 | its side) and the feature.
    public var a: Int?
    public var b: Int
    public var boundary: Int
    public var feature: Int
    public var normalImpulse: Double
    public var tangentImpulse: Double

    public init(a: Int?, b: Int, boundary: Int, feature: Int, normalImpulse: Double, tangentImpulse: Double) {
        self.a = a; self.b = b; self.boundary = boundary; self.feature = feature
        self.normalImpulse = normalImpulse; self.tangentImpulse = tangentImpulse
    }
}

/// Two items, or an item and a boundary, touching (`ContactTracker`): by behaviour, item ids
/// (`second` nil against a boundary) and boundary number (-1 between items).
public struct TouchKey: Hashable, Sendable {
    public var behavior: Int
    public var first: Int
    public var second: Int?
    public var boundary: Int

    public init(behavior: Int, first: Int, second: Int?, boundary: Int) {
        self.behavior = behavior; self.first = first; self.second = second; self.boundary = boundary
    }
}

/// A touch as the tracker keeps it: its key, where it began, the named boundary's identifier.
public struct TouchingContact: Hashable, Sendable {
    public var key: TouchKey
    public var point: Point
    public var identifier: String?

    public init(key: TouchKey, point: Point, identifier: String?) {
        self.key = key; self.point = point; self.identifier = identifier
    }
}
