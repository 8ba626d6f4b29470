/// A transform split into scale, skew, rotation, translation and perspective, applied in that order.
///
/// With row vectors the recomposed matrix is `Scale · Skew · Rotation · Translation · Perspective`
/// (read left to right: scale first). `skew.xy` adds `xy · y` to x (the tangent of a CSS skewX
/// angle), `skew.xz` adds `xz · z` to x and `skew.yz` adds `yz · z` to y. The perspective part is
/// the identity with its fourth column replaced by (x, y, z, w); no perspective is (0, 0, 0, 1).
public struct DecomposedTransform3D: Hashable, Sendable {
    /// Three components, for translation and scale.
    public struct Vector3: Hashable, Sendable {
        public var x: Double, y: Double, z: Double
        @inlinable public init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
    }

    /// The three shear factors of the unit lower-triangular skew matrix.
    public struct Skew: Hashable, Sendable {
        public var xy: Double, xz: Double, yz: Double
        @inlinable public init(xy: Double, xz: Double, yz: Double) { self.xy = xy; self.xz = xz; self.yz = yz }
    }

    /// Four components, for the perspective column.
    public struct Vector4: Hashable, Sendable {
        public var x: Double, y: Double, z: Double, w: Double
        @inlinable public init(x: Double, y: Double, z: Double, w: Double) {
            self.x = x; self.y = y; self.z = z; self.w = w
        }
    }

    public var translation: Vector3
    public var scale: Vector3
    public var skew: Skew
    public var perspective: Vector4
    public var rotation: Quaternion

    public init(translation: Vector3 = Vector3(x: 0, y: 0, z: 0),
                scale: Vector3 = Vector3(x: 1, y: 1, z: 1),
                skew: Skew = Skew(xy: 0, xz: 0, yz: 0),
                perspective: Vector4 = Vector4(x: 0, y: 0, z: 0, w: 1),
                rotation: Quaternion = .identity) {
        self.translation = translation
        self.scale = scale
        self.skew = skew
        self.perspective = perspective
        self.rotation = rotation
    }

    /// Every part interpolated linearly except rotation, which is slerped along the shorter arc.
    public func interpolated(to o: DecomposedTransform3D, _ t: Double) -> DecomposedTransform3D {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        return DecomposedTransform3D(
            translation: Vector3(x: mix(translation.x, o.translation.x), y: mix(translation.y, o.translation.y),
                                 z: mix(translation.z, o.translation.z)),
            scale: Vector3(x: mix(scale.x, o.scale.x), y: mix(scale.y, o.scale.y), z: mix(scale.z, o.scale.z)),
            skew: Skew(xy: mix(skew.xy, o.skew.xy), xz: mix(skew.xz, o.skew.xz), yz: mix(skew.yz, o.skew.yz)),
            perspective: Vector4(x: mix(perspective.x, o.perspective.x), y: mix(perspective.y, o.perspective.y),
                                 z: mix(perspective.z, o.perspective.z), w: mix(perspective.w, o.perspective.w)),
            rotation: rotation.slerp(to: o.rotation, t))
    }
}

/// Small 3-vector helpers for the Gram–Schmidt step, namespaced so they cannot be confused
/// with Transform3D's own `scaled` inside its extension.
private typealias Vec3 = (x: Double, y: Double, z: Double)
private enum V3 {
    static func dot(_ a: Vec3, _ b: Vec3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
    static func scaled(_ a: Vec3, _ k: Double) -> Vec3 { (a.x * k, a.y * k, a.z * k) }
    static func minus(_ a: Vec3, _ b: Vec3) -> Vec3 { (a.x - b.x, a.y - b.y, a.z - b.z) }
    static func cross(_ a: Vec3, _ b: Vec3) -> Vec3 {
        (a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}

extension Transform3D {
    /// The parts of this transform, by the "unmatrix" algorithm (Graphics Gems II; CSS Transforms
    /// Level 2, "Decomposing a 3D matrix"), which reads this same element layout. The matrix is
    /// first divided by m44, so `Transform3D(decomposed()!)` equals `self` scaled to m44 = 1: the
    /// same projective transform, identical entry for entry when m44 is already 1. Nil when m44
    /// is 0 or the upper-left 3×3 is singular (for instance z scaled to 0).
    public func decomposed() -> DecomposedTransform3D? {
        guard m44 != 0, m44.isFinite else { return nil }
        let n = 1 / m44
        var r0: Vec3 = (m11 * n, m12 * n, m13 * n)
        var r1: Vec3 = (m21 * n, m22 * n, m23 * n)
        var r2: Vec3 = (m31 * n, m32 * n, m33 * n)
        let t: Vec3 = (m41 * n, m42 * n, m43 * n)
        let p: Vec3 = (m14 * n, m24 * n, m34 * n)

        // The affine part A (rows r0…r2) must be invertible: it is both the perspective solve's
        // system and what Gram–Schmidt normalises.
        let detA = V3.dot(r0, V3.cross(r1, r2))
        guard detA.isFinite, abs(detA) > Transform3D.singularDeterminantTolerance else { return nil }

        // Perspective: M = [[A, 0], [t, 1]] · [[I, q], [0, s]] = [[A, A q], [t, t·q + s]], so
        // q = A⁻¹ p and s = 1 - t·q. With A's rows r0, r1, r2, A⁻¹'s columns are
        // (r1×r2, r2×r0, r0×r1) / det, since r_i · (r_j × r_k) is det when i, j, k cycle and 0 otherwise.
        let q: Vec3
        if p.x != 0 || p.y != 0 || p.z != 0 {
            let c0 = V3.cross(r1, r2), c1 = V3.cross(r2, r0), c2 = V3.cross(r0, r1)
            q = V3.scaled((c0.x * p.x + c1.x * p.y + c2.x * p.z,
                        c0.y * p.x + c1.y * p.y + c2.y * p.z,
                        c0.z * p.x + c1.z * p.y + c2.z * p.z), 1 / detA)
        } else {
            q = (0, 0, 0)
        }
        let perspective = DecomposedTransform3D.Vector4(x: q.x, y: q.y, z: q.z, w: 1 - V3.dot(t, q))

        // A = Scale · Skew · R by Gram–Schmidt on the rows: each row's length is its scale, its
        // projections on the earlier (orthonormalised) rows are its skews.
        var sx = V3.dot(r0, r0).squareRoot()
        r0 = V3.scaled(r0, 1 / sx)
        var xy = V3.dot(r0, r1)
        r1 = V3.minus(r1, V3.scaled(r0, xy))
        var sy = V3.dot(r1, r1).squareRoot()
        r1 = V3.scaled(r1, 1 / sy)
        xy /= sy
        var xz = V3.dot(r0, r2)
        r2 = V3.minus(r2, V3.scaled(r0, xz))
        var yz = V3.dot(r1, r2)
        r2 = V3.minus(r2, V3.scaled(r1, yz))
        var sz = V3.dot(r2, r2).squareRoot()
        r2 = V3.scaled(r2, 1 / sz)
        xz /= sz
        yz /= sz

        // A reflection cannot be a rotation: fold it into the scales (negating all three and the
        // rows leaves Scale · Skew · R unchanged) so R is a proper rotation.
        if V3.dot(r0, V3.cross(r1, r2)) < 0 {
            sx = -sx; sy = -sy; sz = -sz
            r0 = V3.scaled(r0, -1); r1 = V3.scaled(r1, -1); r2 = V3.scaled(r2, -1)
        }

        var rotation = Transform3D.identity
        rotation.m11 = r0.x; rotation.m12 = r0.y; rotation.m13 = r0.z
        rotation.m21 = r1.x; rotation.m22 = r1.y; rotation.m23 = r1.z
        rotation.m31 = r2.x; rotation.m32 = r2.y; rotation.m33 = r2.z

        return DecomposedTransform3D(
            translation: .init(x: t.x, y: t.y, z: t.z),
            scale: .init(x: sx, y: sy, z: sz),
            skew: .init(xy: xy, xz: xz, yz: yz),
            perspective: perspective,
            rotation: Quaternion(rotationMatrix: rotation))
    }

    /// The matrix `Scale · Skew · Rotation · Translation · Perspective` described by `d` (CSS
    /// "Recomposing to a 3D matrix" in this row-vector layout).
    public init(_ d: DecomposedTransform3D) {
        let r = d.rotation.rotationMatrix
        let r0: Vec3 = (r.m11, r.m12, r.m13), r1: Vec3 = (r.m21, r.m22, r.m23), r2: Vec3 = (r.m31, r.m32, r.m33)
        // Rows of A = Scale · Skew · R: row i is scale_i times (skewed combination of R's rows).
        let a0 = V3.scaled(r0, d.scale.x)
        let a1 = V3.scaled((d.skew.xy * r0.x + r1.x, d.skew.xy * r0.y + r1.y, d.skew.xy * r0.z + r1.z), d.scale.y)
        let a2 = V3.scaled((d.skew.xz * r0.x + d.skew.yz * r1.x + r2.x,
                         d.skew.xz * r0.y + d.skew.yz * r1.y + r2.y,
                         d.skew.xz * r0.z + d.skew.yz * r1.z + r2.z), d.scale.z)
        let t: Vec3 = (d.translation.x, d.translation.y, d.translation.z)
        let q: Vec3 = (d.perspective.x, d.perspective.y, d.perspective.z)
        // [[A, 0], [t, 1]] · [[I, q], [0, s]] = [[A, A q], [t, t·q + s]].
        self.init(
            m11: a0.x, m12: a0.y, m13: a0.z, m14: V3.dot(a0, q),
            m21: a1.x, m22: a1.y, m23: a1.z, m24: V3.dot(a1, q),
            m31: a2.x, m32: a2.y, m33: a2.z, m34: V3.dot(a2, q),
            m41: t.x, m42: t.y, m43: t.z, m44: V3.dot(t, q) + d.perspective.w)
    }

    /// The transform part way from `self` (t ≤ 0, returned exactly) to `other` (t ≥ 1, returned
    /// exactly), as Core Animation and CSS animate transforms: both sides are decomposed,
    /// translation, scale, skew and perspective interpolate linearly, rotation by quaternion
    /// slerp, and the result is recomposed — so a rotation keeps its size mid-way instead of
    /// shrinking as an entry-wise lerp would. When either side cannot be decomposed (see
    /// `decomposed()`) there is no meaningful path, and, as CSS specifies, the value switches
    /// discretely: `self` before t = 0.5, `other` from t = 0.5 on.
    public func interpolated(to other: Transform3D, progress t: Double) -> Transform3D {
        if t <= 0 { return self }
        if t >= 1 { return other }
        guard let a = decomposed(), let b = other.decomposed() else { return t < 0.5 ? self : other }
        return Transform3D(a.interpolated(to: b, t))
    }
}
