/// Where a paging scroll view settles on one axis after a release.
///
/// UIKit's threshold is not documented (Chameleon takes the page past half). Our rule: a
/// release faster than `flickSpeed` goes to the next page in the direction of travel, a slower
/// one to the nearest page; never more than one page from the page the drag began on; pages
/// are multiples of the bounds' dimension, clamped to the content.
public enum Paging {
    /// Points per second: a faster release turns the page even before it is half way.
    public static let flickSpeed = 300.0

    public static func target(offset: Double, velocity: Double, pageSize: Double, startOffset: Double,
                              lo: Double, hi: Double) -> Double {
        guard pageSize > 0 else { return min(max(offset, lo), hi) }
        let position = offset / pageSize
        var page: Double
        if velocity > flickSpeed {
            page = position.rounded(.down) + 1
        } else if velocity < -flickSpeed {
            page = position.rounded(.up) - 1
        } else {
            page = position.rounded(.toNearestOrAwayFromZero)
        }
        let start = (startOffset / pageSize).rounded(.toNearestOrAwayFromZero)
        page = min(max(page, start - 1), start + 1)
        return min(max(page * pageSize, lo), hi)
    }
}
