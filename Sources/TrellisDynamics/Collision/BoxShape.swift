#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisGeometry

/// An item's collision shape: its bounds as a rectangle turned with it.
struct BoxShape {
    var center: Point
    /// The box's own x and y axes in reference coordinates.
    var axisX: Vector
    var axisY: Vector
    var halfWidth: Double
    var halfHeight: Double

    init(_ body: DynamicBody) {
        center = body.center
        let c = cos(body.angle), s = sin(body.angle)
        axisX = Vector(dx: c, dy: s)
        axisY = Vector(dx: -s, dy: c)
        halfWidth = body.size.width / 2
        halfHeight = body.size.height / 2
    }

    /// Its axis-aligned bounds, grown by `margin` on every side.
    func bounds(fattenedBy margin: Double) -> Broadphase.Bounds {
        let rx = abs(axisX.dx) * halfWidth + abs(axisY.dx) * halfHeight + margin
        let ry = abs(axisX.dy) * halfWidth + abs(axisY.dy) * halfHeight + margin
        return Broadphase.Bounds(minX: center.x - rx, minY: center.y - ry, maxX: center.x + rx, maxY: center.y + ry)
    }

    /// The four corners, clockwise on screen from the top left: the centre plus `cornerOffsets`.
    var corners: [Point] { cornerOffsets.map { center + $0 } }

    /// From the centre to each corner, in the order of `corners`; opposite corners' offsets
    /// are exactly each other's negatives.
    var cornerOffsets: [Vector] {
        let x = axisX * halfWidth, y = axisY * halfHeight
        return [x * -1 - y, x - y, x + y, x * -1 + y]
    }

    /// Half the box's extent along a unit `axis`.
    func radius(along axis: Vector) -> Double {
        abs(axisX.dot(axis)) * halfWidth + abs(axisY.dot(axis)) * halfHeight
    }

    /// The face whose outward normal is most along `direction`: its normal and two ends.
    func face(towards direction: Vector) -> (normal: Vector, from: Point, to: Point) {
        let candidates = [(axisX, halfWidth, axisY, halfHeight), (axisX * -1, halfWidth, axisY, halfHeight),
                          (axisY, halfHeight, axisX, halfWidth), (axisY * -1, halfHeight, axisX, halfWidth)]
        var best = candidates[0]
        for candidate in candidates.dropFirst() where candidate.0.dot(direction) > best.0.dot(direction) { best = candidate }
        let (normal, distance, side, half) = best
        let middle = center + normal * distance
        return (normal, middle - side * half, middle + side * half)
    }
}
