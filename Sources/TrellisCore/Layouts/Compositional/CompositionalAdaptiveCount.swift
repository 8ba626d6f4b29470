/// A group's `count` chosen by the layout environment's container width (ours, declaratively:
/// Apple's "Adaptive Sections" sample computes its columns from
/// `layoutEnvironment.container.effectiveContentSize.width` in the section provider). The
/// width is the collection view's bounds width, whatever the scroll direction.
public struct CompositionalAdaptiveCount: Hashable, Sendable {
    /// Wider than `above` points, `count` copies.
    public struct Step: Hashable, Sendable {
        public var above: Double
        public var count: Int

        public init(above: Double, count: Int) { self.above = above; self.count = count }
    }

    /// In increasing `above`; the widest the width passes wins.
    public var steps: [Step]
    /// The count when the width passes no step.
    public var otherwise: Int

    public init(steps: [Step], otherwise: Int) {
        self.steps = steps.sorted { $0.above < $1.above }
        self.otherwise = otherwise
    }

    /// The count for a container `width` points wide.
    public func count(forWidth width: Double) -> Int { steps.last { width > $0.above }?.count ?? otherwise }
}
