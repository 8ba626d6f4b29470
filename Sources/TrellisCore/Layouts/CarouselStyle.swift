#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// iCarousel's eleven `iCarouselType`s plus `custom`, with each type's defaults as iCarousel
/// 1.8.3's `iCarousel.m` sets them (wrap, spacing, tilt, offsetMultiplier, fade, backfaces,
/// how many items are visible).
/// `.coverFlow`/`.coverFlow2` are iCarousel's types; the layout type `coverFlow` is another thing
/// (`CoverFlowLayout`, a standalone cover flow with its own keys).
public enum CarouselStyle: String, CaseIterable, Hashable, Sendable {
    case linear, rotary, invertedRotary, cylinder, invertedCylinder, wheel, invertedWheel
    case coverFlow, coverFlow2, timeMachine, invertedTimeMachine, custom

    /// Rotary, Cylinder and Wheel (and inverted forms) go round a circle of
    /// `circularCarouselItemCount` places and wrap by default.
    public var isCircular: Bool {
        switch self {
        case .rotary, .invertedRotary, .cylinder, .invertedCylinder, .wheel, .invertedWheel: true
        default: false
        }
    }

    /// iCarouselOptionWrap's default: on for the circular types only.
    public var wrapsByDefault: Bool { isCircular }

    /// iCarouselOptionSpacing's default: 0.25 for the cover flows, 1 for the rest.
    public var defaultSpacing: Double { isCoverFlow ? 0.25 : 1 }

    /// iCarouselOptionTilt's default: 0.9 for the cover flows, 0.3 for the time machines (no
    /// other type reads it; 0 stands for them).
    public var defaultTilt: Double {
        switch self {
        case .coverFlow, .coverFlow2: 0.9
        case .timeMachine, .invertedTimeMachine: 0.3
        default: 0
        }
    }

    /// offsetMultiplier's default: 2 for the cover flows, 1 for the rest.
    public var defaultOffsetMultiplier: Double { isCoverFlow ? 2 : 1 }

    /// fadeMin's default: 0 for InvertedTimeMachine, −∞ (no fade) otherwise.
    public var defaultFadeMin: Double { self == .invertedTimeMachine ? 0 : -.infinity }
    /// fadeMax's default: 0 for TimeMachine, +∞ (no fade) otherwise.
    public var defaultFadeMax: Double { self == .timeMachine ? 0 : .infinity }
    /// fadeRange's default (1) and fadeMinAlpha's (0) are the same for every type.
    public static let defaultFadeRange = 1.0
    public static let defaultFadeMinAlpha = 0.0

    /// Whether backfaces show by default: a layer is double-sided, and iCarousel turns that off
    /// for InvertedCylinder only.
    public var showsBackfacesByDefault: Bool { self != .invertedCylinder }

    var isCoverFlow: Bool { self == .coverFlow || self == .coverFlow2 }

    /// iCarousel's MAX_VISIBLE_ITEMS on iOS.
    public static let maxVisibleItems = 30

    /// iCarousel's `circularCarouselItemCount` before the Count option: the places on the
    /// circle, `Int(min(30, max(12, ceil(W / (spacing·itemWidth))·π)))` (truncated), at most
    /// the number of items. `length` is the view's width (height when vertical).
    public static func circularItemCount(length: Double, itemWidth: Double, spacing: Double, items: Int) -> Int {
        let places = Int(min(Double(maxVisibleItems), max(12, (length / (spacing * itemWidth)).rounded(.up) * Double.pi)))
        return min(items, places)
    }

    /// iCarousel's `numberOfVisibleItems` before the VisibleItems option and the clamp to the
    /// item count: the window of loaded items around the current one. `length` is the view's
    /// width (height when vertical); `count` and `wheelRadius` as the transform resolved them.
    public func visibleItemCount(length: Double, viewMinimum: Double, itemWidth: Double, spacing: Double,
                                 count: Int, wheelRadius: Double) -> Int {
        let visible: Double
        switch self {
        case .linear, .coverFlow, .coverFlow2: visible = (length / (itemWidth * spacing)).rounded(.up) + 2
        case .rotary, .cylinder: visible = Double(count)
        case .invertedRotary, .invertedCylinder: visible = (Double(count) / 2).rounded(.up)
        case .wheel, .invertedWheel:
            visible = wheelRadius - itemWidth / 2 < viewMinimum / 2 ? Double(count) : (Double(count) / 2).rounded(.up) + 1
        case .timeMachine, .invertedTimeMachine, .custom: visible = Double(Self.maxVisibleItems)
        }
        return Int(min(Double(Self.maxVisibleItems), visible))
    }
}

/// The `custom` style's transform (iCarousel's `carousel(_:itemTransformForOffset:baseTransform:)`
/// delegate), chosen from transforms published with iCarousel or built on it.
public enum CarouselCustomTransform: String, CaseIterable, Hashable, Sendable {
    /// The iOS 9 task switcher (`TaskSwitcherTransform`).
    case taskSwitcher
    /// iCarousel's own demos' flip: rotate π/8 about y, then push each item `offset·itemWidth`
    /// towards the eye.
    case flip3D
}
