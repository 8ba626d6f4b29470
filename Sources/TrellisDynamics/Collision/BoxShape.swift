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

    /// Corner `k` (0…3), clockwise on screen from the top left: the centre plus `cornerOffset(k)`.
    /// One at a time, without an array (the finders ask for every box's corners every step).
    @inline(__always)
    func corner(_ k: Int) -> Point { center + cornerOffset(k) }

    /// From the centre to corner `k`; opposite corners' offsets are exactly each other's negatives.
    @inline(__always)
    func cornerOffset(_ k: Int) -> Vector {
        let x = axisX * halfWidth, y = axisY * halfHeight
        switch k {
        case 0: return x * -1 - y
        case 1: return x - y
        case 2: return x + y
        default: return x * -1 + y
        }
    }

    /// Half the box's extent along a unit `axis`.
    func radius(along axis: Vector) -> Double {
        abs(axisX.dot(axis)) * halfWidth + abs(axisY.dot(axis)) * halfHeight
    }

    /// The face whose outward normal is most along `direction`: its normal and two ends.
    /// Of x, −x, y, −y, the first that no later one beats (unrolled: no array of candidates).
    func face(towards direction: Vector) -> (normal: Vector, from: Point, to: Point) {
        var normal = axisX, distance = halfWidth, side = axisY, half = halfHeight
        var best = normal.dot(direction)
        let minusX = axisX * -1, minusY = axisY * -1
        if minusX.dot(direction) > best {
            normal = minusX; best = minusX.dot(direction)
        }
        if axisY.dot(direction) > best {
            normal = axisY; distance = halfHeight; side = axisX; half = halfWidth; best = axisY.dot(direction)
        }
        if minusY.dot(direction) > best {
            normal = minusY; distance = halfHeight; side = axisX; half = halfWidth
        }
        let middle = center + normal * distance
        return (normal, middle - side * half, middle + side * half)
    }
}
