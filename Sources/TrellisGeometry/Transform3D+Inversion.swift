extension Transform3D {
    /// Determinants at or below this magnitude count as zero. A transform's determinant does not
    /// change with the unit of length (translation and perspective entries scale in opposite
    /// directions), so an absolute bound is meaningful: it says the transform squeezes volume (or,
    /// for the plane homography, area) by a factor of 10¹² or more, far past anything visible.
    static let singularDeterminantTolerance = 1e-12

    /// The 2×2 minors of the top two rows (`s`) and bottom two rows (`c`), from which both the
    /// determinant and the adjugate follow (Laplace expansion along the row pairs).
    private var rowPairMinors: (s: [Double], c: [Double]) {
        let s = [
            m11 * m22 - m21 * m12,
            m11 * m23 - m21 * m13,
            m11 * m24 - m21 * m14,
            m12 * m23 - m22 * m13,
            m12 * m24 - m22 * m14,
            m13 * m24 - m23 * m14,
        ]
        let c = [
            m31 * m42 - m41 * m32,
            m31 * m43 - m41 * m33,
            m31 * m44 - m41 * m34,
            m32 * m43 - m42 * m33,
            m32 * m44 - m42 * m34,
            m33 * m44 - m43 * m34,
        ]
        return (s, c)
    }

    private static func determinant(s: [Double], c: [Double]) -> Double {
        s[0] * c[5] - s[1] * c[4] + s[2] * c[3] + s[3] * c[2] - s[4] * c[1] + s[5] * c[0]
    }

    /// The determinant of the full 4×4 matrix.
    public var determinant: Double {
        let (s, c) = rowPairMinors
        return Transform3D.determinant(s: s, c: c)
    }

    /// The inverse, so that `t.concatenating(t.inverted()!)` is the identity; nil when the
    /// determinant is (nearly) zero. Unlike `CATransform3DInvert`, which hands back the original
    /// matrix when it cannot invert, this returns nil so a caller cannot mistake one for the other.
    public func inverted() -> Transform3D? {
        let (s, c) = rowPairMinors
        let det = Transform3D.determinant(s: s, c: c)
        guard det.isFinite, abs(det) > Transform3D.singularDeterminantTolerance else { return nil }
        let k = 1 / det
        return Transform3D(
            m11: (m22 * c[5] - m23 * c[4] + m24 * c[3]) * k,
            m12: (-m12 * c[5] + m13 * c[4] - m14 * c[3]) * k,
            m13: (m42 * s[5] - m43 * s[4] + m44 * s[3]) * k,
            m14: (-m32 * s[5] + m33 * s[4] - m34 * s[3]) * k,
            m21: (-m21 * c[5] + m23 * c[2] - m24 * c[1]) * k,
            m22: (m11 * c[5] - m13 * c[2] + m14 * c[1]) * k,
            m23: (-m41 * s[5] + m43 * s[2] - m44 * s[1]) * k,
            m24: (m31 * s[5] - m33 * s[2] + m34 * s[1]) * k,
            m31: (m21 * c[4] - m22 * c[2] + m24 * c[0]) * k,
            m32: (-m11 * c[4] + m12 * c[2] - m14 * c[0]) * k,
            m33: (m41 * s[4] - m42 * s[2] + m44 * s[0]) * k,
            m34: (-m31 * s[4] + m32 * s[2] - m34 * s[0]) * k,
            m41: (-m21 * c[3] + m22 * c[1] - m23 * c[0]) * k,
            m42: (m11 * c[3] - m12 * c[1] + m13 * c[0]) * k,
            m43: (-m41 * s[3] + m42 * s[1] - m43 * s[0]) * k,
            m44: (m31 * s[3] - m32 * s[1] + m33 * s[0]) * k)
    }

    /// The point (u, v) of the element's own plane (z = 0) that `apply(to:)` maps to `p`, both
    /// relative to the anchor (the element's centre); used to hit-test transformed elements.
    ///
    /// Only the plane matters, so this works from the 3×3 homography of rows and columns 1, 2, 4
    /// (`[u v 1] · H ∝ [x y 1]`) and succeeds even when the full matrix is singular (z scaled to
    /// 0). Returns nil when the plane is seen edge-on (H singular) or when `p` lies beyond the
    /// horizon, i.e. the only plane point projecting there is behind the eye (w ≤ 0).
    public func unproject(_ p: Point) -> Point? {
        // H = | m11 m12 m14 |
        //     | m21 m22 m24 |
        //     | m41 m42 m44 |
        // Cofactors C_ij of H; the inverse is the transposed cofactor matrix over the determinant.
        let c11 = m22 * m44 - m24 * m42, c12 = -(m21 * m44 - m24 * m41), c13 = m21 * m42 - m22 * m41
        let c21 = -(m12 * m44 - m14 * m42), c22 = m11 * m44 - m14 * m41, c23 = -(m11 * m42 - m12 * m41)
        let c31 = m12 * m24 - m14 * m22, c32 = -(m11 * m24 - m14 * m21), c33 = m11 * m22 - m12 * m21
        let det = m11 * c11 + m12 * c12 + m14 * c13
        guard det.isFinite, abs(det) > Transform3D.singularDeterminantTolerance else { return nil }
        // [a b c] = [x y 1] · H⁻¹ = [u v 1] / w, so c = 1/w: the sign of c tells whether the plane
        // point is in front of the eye, and c == 0 is the horizon (a point at infinity).
        let a = (p.x * c11 + p.y * c12 + c13) / det
        let b = (p.x * c21 + p.y * c22 + c23) / det
        let c = (p.x * c31 + p.y * c32 + c33) / det
        guard c > 0, c.isFinite else { return nil }
        let result = Point(x: a / c, y: b / c)
        guard result.x.isFinite, result.y.isFinite else { return nil }
        return result
    }
}
