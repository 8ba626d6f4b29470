#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 4×4 transform with Core Animation's semantics: row vectors (`p' = p · M`), translation in
/// the fourth row, perspective through `m34` (usually `-1/eyeDistance`), applied about the
/// element's centre as a layer's anchor point (0.5, 0.5).
public struct Transform3D: Hashable, Sendable {
    public var m11: Double, m12: Double, m13: Double, m14: Double
    public var m21: Double, m22: Double, m23: Double, m24: Double
    public var m31: Double, m32: Double, m33: Double, m34: Double
    public var m41: Double, m42: Double, m43: Double, m44: Double

    @inlinable
    public init(
        m11: Double, m12: Double, m13: Double, m14: Double,
        m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double,
        m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The sixteen entries in row-major order (m11, m12, …, m44), as the protocol sends them.
    @inlinable
    public init?(_ values: [Double]) {
        guard values.count == 16 else { return nil }
        self.init(m11: values[0], m12: values[1], m13: values[2], m14: values[3],
                  m21: values[4], m22: values[5], m23: values[6], m24: values[7],
                  m31: values[8], m32: values[9], m33: values[10], m34: values[11],
                  m41: values[12], m42: values[13], m43: values[14], m44: values[15])
    }

    /// The sixteen entries in row-major order.
    @inlinable
    public var values: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    @inlinable public static var identity: Transform3D {
        Transform3D(m11: 1, m12: 0, m13: 0, m14: 0,
                    m21: 0, m22: 1, m23: 0, m24: 0,
                    m31: 0, m32: 0, m33: 1, m34: 0,
                    m41: 0, m42: 0, m43: 0, m44: 1)
    }

    @inlinable public var isIdentity: Bool { self == .identity }

    /// Inlinable across modules (see Point's).
    @inlinable public static func == (a: Transform3D, b: Transform3D) -> Bool {
        a.m11 == b.m11 && a.m12 == b.m12 && a.m13 == b.m13 && a.m14 == b.m14
            && a.m21 == b.m21 && a.m22 == b.m22 && a.m23 == b.m23 && a.m24 == b.m24
            && a.m31 == b.m31 && a.m32 == b.m32 && a.m33 == b.m33 && a.m34 == b.m34
            && a.m41 == b.m41 && a.m42 == b.m42 && a.m43 == b.m43 && a.m44 == b.m44
    }

    /// CATransform3DMakeTranslation.
    @inlinable
    public static func translation(x: Double, y: Double, z: Double = 0) -> Transform3D {
        var t = Transform3D.identity
        t.m41 = x; t.m42 = y; t.m43 = z
        return t
    }

    /// CATransform3DMakeScale.
    @inlinable
    public static func scale(x: Double, y: Double, z: Double = 1) -> Transform3D {
        var t = Transform3D.identity
        t.m11 = x; t.m22 = y; t.m33 = z
        return t
    }

    /// CATransform3DMakeRotation: `angle` radians about the axis (x, y, z); a zero axis gives identity.
    /// With UIKit's y-down coordinates a positive angle about z turns clockwise on screen.
    public static func rotation(angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0 else { return .identity }
        let (ux, uy, uz) = (x / length, y / length, z / length)
        let c = cos(angle), s = sin(angle), k = 1 - c
        return Transform3D(
            m11: c + k * ux * ux, m12: k * ux * uy + s * uz, m13: k * ux * uz - s * uy, m14: 0,
            m21: k * ux * uy - s * uz, m22: c + k * uy * uy, m23: k * uy * uz + s * ux, m24: 0,
            m31: k * ux * uz + s * uy, m32: k * uy * uz - s * ux, m33: c + k * uz * uz, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// A perspective transform as Core Animation users write it: identity with m34 = -1/distance.
    @inlinable
    public static func perspective(eyeDistance: Double) -> Transform3D {
        var t = Transform3D.identity
        t.m34 = -1 / eyeDistance
        return t
    }

    /// CATransform3DConcat(self, other): apply `self` first, then `other` (self · other).
    @inlinable
    public func concatenating(_ b: Transform3D) -> Transform3D {
        let a = self
        return Transform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
    }

    /// CATransform3DTranslate(self, …): translate first, then self.
    @inlinable public func translated(x: Double, y: Double, z: Double = 0) -> Transform3D {
        Transform3D.translation(x: x, y: y, z: z).concatenating(self)
    }
    /// CATransform3DScale(self, …): scale first, then self.
    @inlinable public func scaled(x: Double, y: Double, z: Double = 1) -> Transform3D {
        Transform3D.scale(x: x, y: y, z: z).concatenating(self)
    }
    /// CATransform3DRotate(self, …): rotate first, then self.
    public func rotated(angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D.rotation(angle: angle, x: x, y: y, z: z).concatenating(self)
    }

    /// The point (x, y, 0) transformed, with the perspective divide by w.
    @inlinable
    public func apply(to p: Point) -> Point {
        let x = p.x * m11 + p.y * m21 + m41
        let y = p.x * m12 + p.y * m22 + m42
        let w = p.x * m14 + p.y * m24 + m44
        guard w != 0, w != 1 else { return Point(x: x, y: y) }
        return Point(x: x / w, y: y / w)
    }
}
