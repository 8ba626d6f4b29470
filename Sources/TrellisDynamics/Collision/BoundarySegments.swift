#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisGeometry

extension CollisionBehavior.Boundary {
    /// The most an ellipse's sides stray from the curve, in points.
    static let ellipseChordError = 0.5
    /// Ellipses larger than about 6,600 pt across are cut into no more sides than this (and
    /// stray further from the curve).
    static let maximumEllipseSides = 256

    /// How many sides an ellipse in `rect` is cut into: the fewest, a multiple of 4 (a flat
    /// side at the bottom, top, left and right, for an item to rest on) and at least 8, that
    /// keep every chord within `ellipseChordError` of the curve. The ellipse is a circle of
    /// radius max(a, b) squashed along one axis, which shortens the chord's gap, so the
    /// circle's sagitta R·(1 − cos(π/n)) bounds it.
    static func ellipseSides(_ rect: Rect) -> Int {
        let radius = max(rect.width, rect.height) / 2
        guard radius > ellipseChordError else { return 8 }
        let n = Double.pi / acos(1 - ellipseChordError / radius)
        let sides = Int(n.rounded(.up))
        return min(maximumEllipseSides, max(8, (sides + 3) / 4 * 4))
    }

    /// Whether `point` is inside a closed boundary (a rect or an ellipse; never for a segment).
    func encloses(_ point: Point) -> Bool {
        switch self {
        case .segment: return false
        case .rect(let r): return point.x > r.minX && point.x < r.maxX && point.y > r.minY && point.y < r.maxY
        case .ellipse(let r):
            let x = (point.x - r.midX) / (r.width / 2), y = (point.y - r.midY) / (r.height / 2)
            return x * x + y * y < 1
        }
    }

    /// The boundary as segments, in order around it.
    var segments: [(Point, Point)] {
        switch self {
        case .segment(let from, let to):
            return [(from, to)]
        case .rect(let r):
            let corners = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)]
            return (0..<4).map { (corners[$0], corners[($0 + 1) % 4]) }
        case .ellipse(let r):
            let n = Self.ellipseSides(r)
            let a = r.width / 2, b = r.height / 2, cx = r.midX, cy = r.midY
            // Corners half a step off the axes, so that the sides across the axes are flat.
            let corners = (0..<n).map { k -> Point in
                let t = (Double(k) + 0.5) * 2 * Double.pi / Double(n)
                return Point(cx + a * cos(t), cy + b * sin(t))
            }
            return (0..<n).map { (corners[$0], corners[($0 + 1) % n]) }
        }
    }
}
