/// What happens to the physics steps of a tick that its caller's budget does not allow
/// (`CollectionView.advance(to:physicsWhile:overrun:)`).
public enum PhysicsOverrun: Sendable {
    /// Dropped: the simulation falls behind the clock (a live session under load, as games do).
    case drop
    /// Kept, to be taken by `continueAdvance`: nothing is lost, the tick just ends later (a
    /// manual clock, whose every step must be simulated).
    case `defer`
}

/// A tick between its stage 3 and the rest: what the later stages need from the earlier ones,
/// and the physics steps still to take.
struct TickInProgress: Sendable {
    var layoutMoves: Bool
    var scrolled = false
    var scrollLanded: Int?
    var remainingSteps = 0
    var stepped = false
    var overrun = PhysicsOverrun.drop

    init(layoutMoves: Bool) { self.layoutMoves = layoutMoves }
}
