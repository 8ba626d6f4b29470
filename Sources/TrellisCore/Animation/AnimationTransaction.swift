/// A group of animations started by one command; it completes when its last animation lands,
/// or is interrupted by a later command (finished = false), like a UIKit completion block.
struct AnimationTransaction: Sendable {
    enum Kind: Sendable { case update, layout, scroll }
    var id: Int
    var kind: Kind
    var remaining: Int
    /// An interactive transition that was cancelled: the old layout stays.
    var cancelled = false
}
