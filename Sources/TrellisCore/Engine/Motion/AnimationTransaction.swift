/// A group of animations started by one command; it completes when its last animation lands,
/// or is interrupted by a later command (finished = false), like a UIKit completion block.
struct AnimationTransaction: Hashable, Sendable {
    enum Kind: String, Hashable, Sendable { case update, layout, scroll }
    var id: Int
    var kind: Kind
    /// Animations still running in it (views, disappearing views, the content offset).
    var remaining: Int
    /// An interactive transition that was cancelled: the old layout stays.
    var cancelled = false
    /// Driven by an interactive transition's progress, not by time: it needs no ticks.
    var interactive = false
}
