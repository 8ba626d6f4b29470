/// One stage of the engine's tick (DESIGN.md, "Motion pipeline"): a small piece of motion
/// state that owns what it moves and says whether it still needs ticks.
///
/// `CollectionView.advance(to:)` runs the stages in one fixed order:
/// 1. input samples due by now (gestures arrive as commands between ticks);
/// 2. `ScrollMotion`: the on-screen content offset and its velocity (a fling, an animated
///    scroll); a springy layout's springs follow the scroll step here (`Layout.springs`);
/// 3. `PhysicsStage`: the dynamics step on a fixed time step (the layout's springs among them;
///    they come off once everything rests);
/// 4. the layout, prepared for the on-screen bounds when it asks to be (pinning, zoom,
///    carousels) or when it animates by time itself (`Layout.needsTicks`: CoverFlow2's toggle);
/// 5. `TimedAnimations`: updates, transitions and their transactions;
/// 6. binding (the reuse pool) and the scene.
/// The session needs frames exactly while one stage does (`CollectionView.needsTicks`); a new
/// kind of motion joins its stage, never a clock or a path of its own.
protocol MotionStage {
    /// True while this stage moves something by time alone.
    var needsTicks: Bool { get }
}
