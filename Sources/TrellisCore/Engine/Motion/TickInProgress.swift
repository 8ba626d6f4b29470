/// What happens to the dynamics steps of a tick that its caller's budget does not allow
/// (`CollectionView.advance(to:dynamicsWhile:overrun:)`).
public enum DynamicsOverrun: Sendable {
    /// Dropped: the simulation falls behind the clock (a live session under load, as games do).
    case drop
    /// Kept, to be taken by `continueAdvance`: nothing is lost, the tick just ends later (a
    /// manual clock, whose every step must be simulated).
    case `defer`
}

/// A tick on its way through the stages (`TickStage`): the stage it stands at, what the later
/// stages need from the earlier ones, and the dynamics steps still to take.
struct TickInProgress: Sendable {
    var stage = TickStage.inputSamples
    /// A layout animating by itself is prepared again for this tick, even at its last one.
    var layoutMoves: Bool
    var overrun: DynamicsOverrun
    /// The released scroll's fixed steps due this tick (60 Hz), and the animator's steps (at its
    /// rate) the dynamics stage has still to take.
    var scrollSteps = 0
    var remainingSteps = 0
    /// The offset on screen moved; an offset animation landed (its transaction).
    var scrolled = false
    var scrollLanded: Int?
    /// The animator stepped; it stepped or the layout's springs came off.
    var stepped = false
    var simulated = false
    /// A timed animation landed.
    var landed = false

    init(layoutMoves: Bool, overrun: DynamicsOverrun) {
        self.layoutMoves = layoutMoves
        self.overrun = overrun
    }
}
