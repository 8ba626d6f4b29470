#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One carousel style's per-item transform with its options resolved for the current view
/// (iCarousel's `transformForItemViewWithOffset:`): the base (m34 = perspective, then a
/// translation by −viewpointOffset) and the style's translations and rotations applied in the
/// item's own space, for an item `offset` items from the scroll position.
public struct CarouselTransform: Hashable, Sendable {
    public var style: CarouselStyle
    public var customTransform: CarouselCustomTransform
    public var vertical: Bool
    /// iCarousel's itemWidth (carouselItemWidth or the first item's width, height when vertical).
    public var itemWidth: Double
    public var spacing: Double
    public var tilt: Double
    public var arc: Double
    /// The places on the circle (circular styles; 1 for the rest).
    public var count: Int
    /// The circular styles' radius, option or default, before an inverted style negates it.
    public var radius: Double
    /// The Angle option: the whole per-item angle for Rotary and Cylinder, the step for Wheel.
    public var angle: Double?
    public var perspective: Double
    public var viewpointOffset: Point
    /// CoverFlow2's toggle while a drag animates it (`CoverFlowToggle`); nil: from the offset.
    public var toggle: Double?

    /// Resolves the radius from the options (nil: the style's default) for `count` places.
    public init(style: CarouselStyle, customTransform: CarouselCustomTransform = .taskSwitcher, vertical: Bool,
                itemWidth: Double, spacing: Double, tilt: Double, arc: Double, count: Int, radius: Double?,
                angle: Double?, perspective: Double, viewpointOffset: Point) {
        self.style = style
        self.customTransform = customTransform
        self.vertical = vertical
        self.itemWidth = itemWidth
        self.spacing = spacing
        self.tilt = tilt
        self.arc = arc
        self.count = max(1, count)
        self.angle = angle
        self.perspective = perspective
        self.viewpointOffset = viewpointOffset
        self.radius = radius ?? Self.defaultRadius(style: style, itemWidth: itemWidth, spacing: spacing, arc: arc, count: max(1, count))
    }

    /// iCarousel's default radius: Rotary max(w·s/2, w·s/2/tan(arc/2/count)); Cylinder
    /// max(0.01, w·s/2/tan(arc/2/count)); Wheel w·s·count/arc; 0 for the other styles.
    public static func defaultRadius(style: CarouselStyle, itemWidth w: Double, spacing s: Double, arc: Double, count: Int) -> Double {
        let half = w * s / 2
        switch style {
        case .rotary, .invertedRotary: return max(half, half / tan(arc / 2 / Double(count)))
        case .cylinder, .invertedCylinder: return max(0.01, half / tan(arc / 2 / Double(count)))
        case .wheel, .invertedWheel: return w * s * Double(count) / arc
        default: return 0
        }
    }

    /// The base transform every style starts from: m34 = perspective, then translate by
    /// −viewpointOffset (applied first, in the item's space).
    public var base: Transform3D {
        var t = Transform3D.identity
        t.m34 = perspective
        return t.translated(x: -viewpointOffset.x, y: -viewpointOffset.y, z: 0)
    }

    /// The item's transform about the view's centre for an item `offset` items from the scroll
    /// position (already wrapped).
    public func matrix(offset: Double) -> Transform3D {
        let base = self.base
        let w = itemWidth
        switch style {
        case .linear:
            let d = offset * w * spacing
            return vertical ? base.translated(x: 0, y: d, z: 0) : base.translated(x: d, y: 0, z: 0)
        case .rotary, .invertedRotary:
            var r = radius, a = angle ?? offset / Double(count) * arc
            if style == .invertedRotary { r = -r; a = -a }
            let along = r * sin(a), depth = r * cos(a) - r
            return vertical ? base.translated(x: 0, y: along, z: depth) : base.translated(x: along, y: 0, z: depth)
        case .cylinder, .invertedCylinder:
            var r = radius, a = angle ?? offset / Double(count) * arc
            if style == .invertedCylinder { r = -r; a = -a }
            return base.translated(x: 0, y: 0, z: -r)
                .rotated(angle: a, x: vertical ? -1 : 0, y: vertical ? 0 : 1, z: 0)
                .translated(x: 0, y: 0, z: r + 0.01)
        case .wheel, .invertedWheel:
            var r = radius, step = angle ?? arc / Double(count)
            if style == .invertedWheel { r = -r; step = -step }
            if vertical {
                return base.translated(x: -r, y: 0, z: 0).rotated(angle: step * offset, x: 0, y: 0, z: 1)
                    .translated(x: r, y: 0, z: offset * 0.01)
            }
            return base.translated(x: 0, y: r, z: 0).rotated(angle: step * offset, x: 0, y: 0, z: 1)
                .translated(x: 0, y: -r, z: offset * 0.01)
        case .coverFlow, .coverFlow2:
            let clamped = style == .coverFlow2 ? Self.coverFlow2Clamp(offset, toggle: toggle) : min(1, max(-1, offset))
            let along = (clamped * 0.5 * tilt + offset * spacing) * w
            let depth = abs(clamped) * -w * 0.5
            let turn = -clamped * Double.pi / 2 * tilt
            if vertical {
                return base.translated(x: 0, y: along, z: depth).rotated(angle: turn, x: -1, y: 0, z: 0)
            }
            return base.translated(x: along, y: 0, z: depth).rotated(angle: turn, x: 0, y: 1, z: 0)
        case .timeMachine, .invertedTimeMachine:
            var t = tilt, o = offset
            if style == .invertedTimeMachine { t = -t; o = -o }
            let depth = o * w * spacing
            return vertical ? base.translated(x: 0, y: o * w * t, z: depth) : base.translated(x: o * w * t, y: 0, z: depth)
        case .custom:
            switch customTransform {
            case .taskSwitcher: return TaskSwitcherTransform.transform(offset: offset, cardWidth: w, base: base)
            case .flip3D: return base.rotated(angle: Double.pi / 8, x: 0, y: 1, z: 0).translated(x: 0, y: 0, z: offset * w)
            }
        }
    }

    /// CoverFlow2's clamped offset: iCarousel's branches on its toggle. While a drag animates the
    /// toggle it is given (`CoverFlowToggle`); otherwise iCarousel sets it from each item's own
    /// offset, which, worked through, equals the plain clamp to [−1, 1].
    static func coverFlow2Clamp(_ offset: Double, toggle given: Double? = nil) -> Double {
        let clamped = min(1, max(-1, offset))
        let toggle = given ?? (offset > 0 ? (offset <= 0.5 ? -clamped : 1 - clamped) : (offset > -0.5 ? -clamped : -1 - clamped))
        if toggle > 0 {
            if offset <= -0.5 { return -1 }
            if offset <= 0.5 { return -toggle }
            if offset <= 1.5 { return 1 - toggle }
        } else {
            if offset > 0.5 { return 1 }
            if offset > -0.5 { return -toggle }
            if offset > -1.5 { return -1 - toggle }
        }
        return clamped
    }
}
