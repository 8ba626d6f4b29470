/// A group of animations started by one command; it completes when its last animation lands,
/// or is interrupted by a later command (finished = false), like a UIKit completion block.
public struct AnimationTransaction: Hashable, Sendable {
    /// What started it: a batch update (or snapshot apply), a layout change, an animated scroll.
    public enum Kind: String, Hashable, Sendable { case update, layout, scroll }
    public var id: Int
    public var kind: Kind
    /// Animations still running in it (views, disappearing views, the content offset).
    public var remaining: Int
    /// An interactive transition that was cancelled: the old layout stays.
    public var cancelled = false
    /// Driven by an interactive transition's progress, not by time: it needs no ticks.
    public var interactive = false

    public init(id: Int, kind: Kind, remaining: Int, cancelled: Bool = false, interactive: Bool = false) {
        self.id = id; self.kind = kind; self.remaining = remaining; self.cancelled = cancelled; self.interactive = interactive
    }
}
