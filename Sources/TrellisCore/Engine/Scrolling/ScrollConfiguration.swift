import TrellisGeometry

/// UIScrollView's scrolling settings: bouncing, paging, the deceleration rate and whether the
/// user may scroll at all.
public struct ScrollConfiguration: Hashable, Sendable {
    public var bounces = true
    public var alwaysBounceVertical = false
    public var alwaysBounceHorizontal = false
    public var pagingEnabled = false
    /// Velocity kept per millisecond of deceleration (UIScrollView.DecelerationRate).
    public var decelerationRate = ScrollConfiguration.normalDecelerationRate
    public var scrollEnabled = true

    /// UIScrollView.DecelerationRate.normal, per millisecond.
    public static let normalDecelerationRate = 0.998
    /// UIScrollView.DecelerationRate.fast, per millisecond.
    public static let fastDecelerationRate = 0.99
    /// The rates a configuration accepts (per millisecond).
    public static let decelerationRates: ClosedRange<Double> = 0.5...0.9999

    public init(bounces: Bool = true, alwaysBounceVertical: Bool = false, alwaysBounceHorizontal: Bool = false,
                pagingEnabled: Bool = false, decelerationRate: Double = ScrollConfiguration.normalDecelerationRate,
                scrollEnabled: Bool = true) {
        self.bounces = bounces
        self.alwaysBounceVertical = alwaysBounceVertical
        self.alwaysBounceHorizontal = alwaysBounceHorizontal
        self.pagingEnabled = pagingEnabled
        self.decelerationRate = min(max(decelerationRate, Self.decelerationRates.lowerBound), Self.decelerationRates.upperBound)
        self.scrollEnabled = scrollEnabled
    }

    /// UIKit's rule for which axes follow a pan: an axis scrolls when the content (with its
    /// insets) is larger than the bounds on it, or when it always bounces (and bouncing is on).
    public func movableAxes(_ scroll: ScrollState) -> (x: Bool, y: Bool) {
        let x = scroll.contentSize.width + scroll.contentInset.horizontal > scroll.boundsSize.width
        let y = scroll.contentSize.height + scroll.contentInset.vertical > scroll.boundsSize.height
        return (x || (bounces && alwaysBounceHorizontal), y || (bounces && alwaysBounceVertical))
    }
}
