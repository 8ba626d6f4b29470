/// UICollectionLayoutSectionOrthogonalScrollingBehavior: whether a section scrolls across the
/// layout's scroll axis on its own, and where it comes to rest.
public enum OrthogonalScrollingBehavior: String, Hashable, Sendable, CaseIterable {
    case none, continuous, continuousGroupLeadingBoundary, paging, groupPaging, groupPagingCentered
}

extension OrthogonalScrollingBehavior {
    /// Where a band with this behaviour rests (ours where UIKit's snapping is not public: the
    /// reference's table, `compositional-layout.md` §5), for groups `groupLength` long every
    /// `pitch` points (group plus spacing) after a leading inset, in a band `bandLength` long:
    /// - continuous: anywhere, at the normal deceleration (0.998);
    /// - continuousGroupLeadingBoundary: with momentum, on the resting offset nearest the
    ///   projection where a group's leading edge is where the first group's is at offset 0
    ///   (k·pitch), at the normal rate;
    /// - paging: on multiples of the band's length, one page per release, at the fast rate (0.99);
    /// - groupPaging: on k·pitch, one group per release, at the fast rate;
    /// - groupPagingCentered: with a group centred in the band (leading inset + k·pitch +
    ///   group/2 − band/2), one group per release, at the fast rate.
    /// The range's ends are resting places too (the last group may not reach its boundary).
    func restRule(groupLength: Double, pitch: Double, leadingInset: Double, bandLength: Double) -> OrthogonalBand.RestRule {
        let normal = ScrollConfiguration.normalDecelerationRate, fast = ScrollConfiguration.fastDecelerationRate
        switch self {
        case .none, .continuous: return OrthogonalBand.RestRule(decelerationRate: normal)
        case .continuousGroupLeadingBoundary: return OrthogonalBand.RestRule(pitch: pitch, decelerationRate: normal)
        case .paging: return OrthogonalBand.RestRule(pitch: bandLength, onePitchAtATime: true, decelerationRate: fast)
        case .groupPaging: return OrthogonalBand.RestRule(pitch: pitch, onePitchAtATime: true, decelerationRate: fast)
        case .groupPagingCentered:
            return OrthogonalBand.RestRule(origin: leadingInset + groupLength / 2 - bandLength / 2, pitch: pitch, onePitchAtATime: true,
                                           decelerationRate: fast)
        }
    }
}
