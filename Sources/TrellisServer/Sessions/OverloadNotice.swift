import TrellisCore
import TrellisProtocol

/// `dynamics.overloaded`: a session whose physics had to give up work (steps dropped to keep a
/// live tick or a request within its budget, contact points past the contact limits) tells its
/// viewers how much, at once the first time and then at most once a second, as a game's
/// "running slow" does.
struct OverloadNotice {
    /// Loop time of the last notice (ms); nil before the first.
    var lastSent: Double?
    var stepsDroppedThen = 0
    /// The simulated seconds dropped then (steps differ in length between step rates).
    var timeDroppedThen = 0.0
    var contactsDroppedThen = 0

    static let interval = 1000.0

    /// The notification's params when one is due at `now`, given what `view` has dropped in all.
    mutating func due(now: Double, session: String, view: CollectionView) -> JSONValue? {
        let steps = view.dynamicsStepsDropped - stepsDroppedThen
        let seconds = view.dynamicsTimeDropped - timeDroppedThen
        let contacts = view.dynamicsLoad.contactPointsDropped - contactsDroppedThen
        guard steps > 0 || contacts > 0 else { return nil }
        if let lastSent, now - lastSent < Self.interval { return nil }
        lastSent = now
        stepsDroppedThen = view.dynamicsStepsDropped
        timeDroppedThen = view.dynamicsTimeDropped
        contactsDroppedThen = view.dynamicsLoad.contactPointsDropped
        return .object(["session": .string(session), "time": .number(WireEncoding.milliseconds(view.time)),
                        "droppedMs": .number((seconds * 1000).rounded()),
                        "contactsDropped": .number(Double(contacts))])
    }
}
