#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The arcs of a circle that lie inside a rectangle, as angle ranges in [0, 2π] (0 at three
/// o'clock, growing clockwise in UIKit's y-down coordinates), in increasing order. A layout
/// that places items on a circle by angle visits only the items of these arcs instead of all.
public enum CircleArcs {
    /// The closed rectangle's arcs; empty when the circle misses it. Boundary angles come from
    /// `acos`/`asin`, so a caller that needs exactness at the ends pads its own index ranges.
    public static func inside(_ rect: Rect, centre: Point, radius: Double) -> [ClosedRange<Double>] {
        let full = 2 * Double.pi
        func point(at angle: Double) -> Point {
            Point(x: centre.x + radius * cos(angle), y: centre.y + radius * sin(angle))
        }
        func isInside(_ p: Point) -> Bool { p.x >= rect.minX && p.x <= rect.maxX && p.y >= rect.minY && p.y <= rect.maxY }
        guard radius > 0, radius.isFinite else {
            return isInside(centre) ? [0...full] : []
        }
        // Where the circle crosses each of the rect's four lines: between two consecutive crossings
        // the circle is wholly inside or wholly outside, so one midpoint decides each piece.
        var cuts: [Double] = [0, full]
        func addCrossings(cosineOf value: Double) {
            guard abs(value) <= 1 else { return }
            let a = acos(value)
            cuts.append(a); cuts.append(full - a)
        }
        func addCrossings(sineOf value: Double) {
            guard abs(value) <= 1 else { return }
            let a = asin(value)
            cuts.append(a < 0 ? a + full : a); cuts.append(Double.pi - a)
        }
        addCrossings(cosineOf: (rect.minX - centre.x) / radius)
        addCrossings(cosineOf: (rect.maxX - centre.x) / radius)
        addCrossings(sineOf: (rect.minY - centre.y) / radius)
        addCrossings(sineOf: (rect.maxY - centre.y) / radius)
        cuts.sort()
        var arcs: [ClosedRange<Double>] = []
        for i in 0..<(cuts.count - 1) where cuts[i + 1] > cuts[i] {
            guard isInside(point(at: (cuts[i] + cuts[i + 1]) / 2)) else { continue }
            if let last = arcs.last, last.upperBound >= cuts[i] {
                arcs[arcs.count - 1] = last.lowerBound...cuts[i + 1]
            } else {
                arcs.append(cuts[i]...cuts[i + 1])
            }
        }
        return arcs
    }
}
