/// UICollectionLayoutSectionOrthogonalScrollingBehavior: whether a section scrolls across the
/// layout's scroll axis on its own, and where it comes to rest.
public enum OrthogonalScrollingBehavior: String, Hashable, Sendable, CaseIterable {
    case none, continuous, continuousGroupLeadingBoundary, paging, groupPaging, groupPagingCentered
}
