#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A rotation as a unit quaternion (x, y, z vector part, w scalar part), for interpolating 3-D rotations.
public struct Quaternion: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double
    public var w: Double

    @inlinable
    public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x; self.y = y; self.z = z; self.w = w
    }

    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

    /// The rotation `Transform3D.rotation(angle:x:y:z:)` makes: `angle` radians about the axis
    /// (x, y, z); a zero axis gives identity.
    public init(angle: Double, x: Double, y: Double, z: Double) {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0 else { self = .identity; return }
        let s = sin(angle / 2) / length
        self.init(x: x * s, y: y * s, z: z * s, w: cos(angle / 2))
    }

    /// The rotation held in the upper-left 3×3 of `m`, which must be orthonormal with
    /// determinant +1. Returned normalised, with w ≥ 0.
    public init(rotationMatrix m: Transform3D) {
        // With row vectors the matrix is the transpose of the textbook (column-vector) rotation
        // matrix, hence m23 - m32 where textbooks write R32 - R23. Branching on the largest of
        // w, x, y, z keeps the divisor away from zero (Shepperd's method).
        let trace = m.m11 + m.m22 + m.m33
        var q: Quaternion
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2          // 4w
            q = Quaternion(x: (m.m23 - m.m32) / s, y: (m.m31 - m.m13) / s, z: (m.m12 - m.m21) / s, w: s / 4)
        } else if m.m11 >= m.m22, m.m11 >= m.m33 {
            let s = (1 + m.m11 - m.m22 - m.m33).squareRoot() * 2   // 4x
            q = Quaternion(x: s / 4, y: (m.m12 + m.m21) / s, z: (m.m13 + m.m31) / s, w: (m.m23 - m.m32) / s)
        } else if m.m22 >= m.m33 {
            let s = (1 + m.m22 - m.m11 - m.m33).squareRoot() * 2   // 4y
            q = Quaternion(x: (m.m12 + m.m21) / s, y: s / 4, z: (m.m23 + m.m32) / s, w: (m.m31 - m.m13) / s)
        } else {
            let s = (1 + m.m33 - m.m11 - m.m22).squareRoot() * 2   // 4z
            q = Quaternion(x: (m.m13 + m.m31) / s, y: (m.m23 + m.m32) / s, z: s / 4, w: (m.m12 - m.m21) / s)
        }
        q = q.normalized
        // q and -q are the same rotation; one sign makes equal rotations compare equal.
        if q.w < 0 { q = Quaternion(x: -q.x, y: -q.y, z: -q.z, w: -q.w) }
        self = q
    }

    /// The rotation as a transform (row-vector layout, no translation or perspective), computed
    /// from the normalised quaternion so that drift in length cannot introduce scale.
    public var rotationMatrix: Transform3D {
        let q = normalized
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        return Transform3D(
            m11: 1 - 2 * (y * y + z * z), m12: 2 * (x * y + z * w), m13: 2 * (x * z - y * w), m14: 0,
            m21: 2 * (x * y - z * w), m22: 1 - 2 * (x * x + z * z), m23: 2 * (y * z + x * w), m24: 0,
            m31: 2 * (x * z + y * w), m32: 2 * (y * z - x * w), m33: 1 - 2 * (x * x + y * y), m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// The Euclidean length of (x, y, z, w).
    @inlinable public var length: Double { dot(self).squareRoot() }

    /// This quaternion scaled to unit length; identity for the zero quaternion.
    public var normalized: Quaternion {
        let l = length
        guard l > 0, l.isFinite else { return .identity }
        return Quaternion(x: x / l, y: y / l, z: z / l, w: w / l)
    }

    /// The four-dimensional dot product; for unit quaternions, cos of half the angle between them.
    @inlinable
    public func dot(_ other: Quaternion) -> Double {
        x * other.x + y * other.y + z * other.z + w * other.w
    }

    /// Spherical linear interpolation from `self` (t = 0) to `other` (t = 1) at constant angular
    /// speed, along the shorter arc; falls back to normalised linear interpolation when the two
    /// are nearly parallel, where the slerp weights would divide by ~0.
    public func slerp(to other: Quaternion, _ t: Double) -> Quaternion {
        let a = normalized
        var b = other.normalized
        var cosTheta = a.dot(b)
        // q and -q are the same rotation; flipping one when the dot is negative takes the short way.
        if cosTheta < 0 {
            b = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w)
            cosTheta = -cosTheta
        }
        let wa: Double, wb: Double
        if cosTheta > 0.9995 {
            wa = 1 - t
            wb = t
        } else {
            let theta = acos(min(cosTheta, 1))
            let sinTheta = sin(theta)
            wa = sin((1 - t) * theta) / sinTheta
            wb = sin(t * theta) / sinTheta
        }
        return Quaternion(x: a.x * wa + b.x * wb, y: a.y * wa + b.y * wb,
                          z: a.z * wa + b.z * wb, w: a.w * wa + b.w * wb).normalized
    }
}
