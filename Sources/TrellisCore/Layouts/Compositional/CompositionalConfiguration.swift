/// UICollectionViewCompositionalLayoutConfiguration: the scroll axis and the space between sections.
public struct CompositionalConfiguration: Hashable, Sendable {
    public var scrollDirection: FlowLayout.ScrollDirection
    /// Between consecutive sections (none after the last: ours, UIKit's is not public).
    public var interSectionSpacing: Double

    public init(scrollDirection: FlowLayout.ScrollDirection = .vertical, interSectionSpacing: Double = 0) {
        self.scrollDirection = scrollDirection; self.interSectionSpacing = interSectionSpacing
    }
}
