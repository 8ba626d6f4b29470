#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import TrellisGeometry

/// A tiny deterministic generator (SplitMix64) so the "random" transforms are the same on every run.

private let degrees = Double.pi / 180

/// Entry-wise closeness, relative for large entries (translations) and absolute for small ones.
private func matricesClose(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
    zip(a.values, b.values).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($0), abs($1)) }
}

private func pointsClose(_ a: Point?, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a.x - b.x) <= tolerance * max(1, abs(b.x)) && abs(a.y - b.y) <= tolerance * max(1, abs(b.y))
}

private func quaternionsClose(_ a: Quaternion, _ b: Quaternion, _ tolerance: Double = 1e-9) -> Bool {
    // q and -q are the same rotation.
    let same = abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
        && abs(a.z - b.z) <= tolerance && abs(a.w - b.w) <= tolerance
    let opposite = abs(a.x + b.x) <= tolerance && abs(a.y + b.y) <= tolerance
        && abs(a.z + b.z) <= tolerance && abs(a.w + b.w) <= tolerance
    return same || opposite
}

private func scalarClose(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

/// Random but well-conditioned: scales in ±[0.5, 2], any rotation, translations within ±200,
/// and (when asked) a perspective with the eye 400–2000 pt away, in a random order.
private func randomTransform(_ rng: inout SplitMix64, perspective: Bool) -> Transform3D {
    func signedScale() -> Double {
        Double.random(in: 0.5...2, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
    }
    var parts = [
        Transform3D.scale(x: signedScale(), y: signedScale(), z: signedScale()),
        Transform3D.rotation(angle: Double.random(in: -Double.pi...Double.pi, using: &rng),
                             x: Double.random(in: -1...1, using: &rng), y: Double.random(in: -1...1, using: &rng),
                             z: Double.random(in: -1...1, using: &rng)),
        Transform3D.translation(x: Double.random(in: -200...200, using: &rng), y: Double.random(in: -200...200, using: &rng),
                                z: Double.random(in: -200...200, using: &rng)),
    ]
    parts.shuffle(using: &rng)
    var m = parts.reduce(Transform3D.identity) { $0.concatenating($1) }
    if perspective { m = m.concatenating(.perspective(eyeDistance: Double.random(in: 400...2000, using: &rng))) }
    return m
}

@Suite struct Transform3DTests {
    // MARK: Building and applying

    @Test func identityLeavesPointsAlone() {
        let p = Point(12.5, -7)
        #expect(Transform3D.identity.apply(to: p) == p)
        #expect(Transform3D.identity.isIdentity)
        #expect(Transform3D.identity.determinant == 1)
        #expect(Transform3D.identity.inverted() == .identity)
        #expect(Transform3D.identity.decomposed() == DecomposedTransform3D())
        #expect(Transform3D(DecomposedTransform3D()) == .identity)
    }

    @Test func translateScaleRotateMovePoints() {
        #expect(Transform3D.translation(x: 10, y: -4).apply(to: Point(1, 2)) == Point(11, -2))
        #expect(Transform3D.scale(x: 2, y: 3).apply(to: Point(1, 2)) == Point(2, 6))
        // 90° about z: +x goes to +y, i.e. clockwise on a y-down screen.
        let r = Transform3D.rotation(angle: 90 * degrees, x: 0, y: 0, z: 1)
        #expect(pointsClose(r.apply(to: Point(1, 0)), Point(0, 1), 1e-15))
        #expect(pointsClose(r.apply(to: Point(0, 1)), Point(-1, 0), 1e-15))
        let r30 = Transform3D.rotation(angle: 30 * degrees, x: 0, y: 0, z: 1)
        #expect(pointsClose(r30.apply(to: Point(2, 0)), Point(3.0.squareRoot(), 1), 1e-15))
    }

    @Test func perspectiveDividesByW() {
        // 60° about y then perspective 500: (100, 0) → x = 100·cos60 / (1 + 100·sin60/500).
        let m = Transform3D.rotation(angle: 60 * degrees, x: 0, y: 1, z: 0)
            .concatenating(.perspective(eyeDistance: 500))
        let expectedX = 50 / (1 + 100 * 3.0.squareRoot() / 2 / 500)
        #expect(pointsClose(m.apply(to: Point(100, 0)), Point(expectedX, 0), 1e-12))
        #expect(pointsClose(m.apply(to: Point(0, 80)), Point(0, 80), 1e-12))
    }

    @Test func concatenationAppliesTheReceiverFirst() {
        let translate = Transform3D.translation(x: 10, y: 0)
        let rotate = Transform3D.rotation(angle: 90 * degrees, x: 0, y: 0, z: 1)
        // Translate then rotate: (1, 0) → (11, 0) → (0, 11).
        #expect(pointsClose(translate.concatenating(rotate).apply(to: Point(1, 0)), Point(0, 11), 1e-14))
        // Rotate then translate: (1, 0) → (0, 1) → (10, 1).
        #expect(pointsClose(rotate.concatenating(translate).apply(to: Point(1, 0)), Point(10, 1), 1e-14))
    }

    @Test func translatedScaledRotatedMatchCoreAnimationOrder() {
        let rotate = Transform3D.rotation(angle: 90 * degrees, x: 0, y: 0, z: 1)
        // CATransform3DTranslate(r, 10, 0, 0) translates in r's frame: translate first, then rotate.
        let t = rotate.translated(x: 10, y: 0)
        #expect(matricesClose(t, Transform3D.translation(x: 10, y: 0).concatenating(rotate)))
        #expect(scalarClose(t.m41, 0, 1e-14) && scalarClose(t.m42, 10, 1e-14))
        #expect(pointsClose(t.apply(to: Point(1, 0)), Point(0, 11), 1e-14))

        // CATransform3DScale(translation, 2, 2, 1): scale first, so the translation is not scaled.
        let s = Transform3D.translation(x: 10, y: 5).scaled(x: 2, y: 2)
        #expect(s == Transform3D(m11: 2, m12: 0, m13: 0, m14: 0, m21: 0, m22: 2, m23: 0, m24: 0,
                                 m31: 0, m32: 0, m33: 1, m34: 0, m41: 10, m42: 5, m43: 0, m44: 1))
        #expect(s.apply(to: Point(1, 1)) == Point(12, 7))

        // CATransform3DRotate(translation, 90°, 0, 0, 1): rotate first, then translate.
        let r = Transform3D.translation(x: 10, y: 0).rotated(angle: 90 * degrees, x: 0, y: 0, z: 1)
        #expect(pointsClose(r.apply(to: Point(1, 0)), Point(10, 1), 1e-14))
    }

    // MARK: Inversion

    @Test func determinantsOfKnownTransforms() {
        #expect(scalarClose(Transform3D.scale(x: 2, y: 3, z: 4).determinant, 24))
        #expect(scalarClose(Transform3D.rotation(angle: 1.1, x: 1, y: 2, z: 3).determinant, 1, 1e-14))
        #expect(Transform3D.translation(x: 5, y: 6, z: 7).determinant == 1)
        #expect(Transform3D.perspective(eyeDistance: 500).determinant == 1)
        #expect(scalarClose(Transform3D.scale(x: -1, y: 1).determinant, -1))
    }

    @Test func inverseOfSimpleTransforms() {
        #expect(matricesClose(Transform3D.translation(x: 10, y: 20, z: 30).inverted()!,
                              .translation(x: -10, y: -20, z: -30)))
        #expect(matricesClose(Transform3D.scale(x: 2, y: 4, z: 0.5).inverted()!, .scale(x: 0.5, y: 0.25, z: 2)))
        #expect(matricesClose(Transform3D.rotation(angle: 0.7, x: 0, y: 1, z: 1).inverted()!,
                              .rotation(angle: -0.7, x: 0, y: 1, z: 1)))
        // The inverse of a perspective with m34 = -1/d has m34 = +1/d.
        #expect(matricesClose(Transform3D.perspective(eyeDistance: 500).inverted()!, .perspective(eyeDistance: -500)))
    }

    @Test func inverseRoundTripsForRandomTransforms() {
        var rng = SplitMix64(seed: 0x7E11_15)
        for i in 0..<200 {
            let m = randomTransform(&rng, perspective: i % 2 == 1)
            guard let inverse = m.inverted() else {
                Issue.record("well-conditioned transform \(i) did not invert: \(m)")
                continue
            }
            #expect(matricesClose(m.concatenating(inverse), .identity, 1e-9), "transform \(i)")
            #expect(matricesClose(inverse.concatenating(m), .identity, 1e-9), "transform \(i)")
            #expect(scalarClose(m.determinant * inverse.determinant, 1, 1e-9))
        }
    }

    @Test func singularTransformsDoNotInvert() {
        #expect(Transform3D.scale(x: 1, y: 1, z: 0).inverted() == nil)
        #expect(Transform3D.scale(x: 0, y: 2).inverted() == nil)
        let zero = Transform3D([Double](repeating: 0, count: 16))!
        #expect(zero.inverted() == nil)
        #expect(zero.determinant == 0)
        // Two equal rows.
        var repeated = Transform3D.rotation(angle: 0.3, x: 1, y: 0, z: 0)
        repeated.m31 = repeated.m21; repeated.m32 = repeated.m22; repeated.m33 = repeated.m23
        #expect(repeated.inverted() == nil)
    }

    // MARK: Unprojection

    @Test func unprojectUndoesApplyForAffineTransforms() {
        let transforms = [
            Transform3D.identity,
            .rotation(angle: 30 * degrees, x: 0, y: 0, z: 1),
            .rotation(angle: -135 * degrees, x: 0, y: 0, z: 1),
            .scale(x: 2, y: 0.5),
            .scale(x: -1.5, y: 3).concatenating(.rotation(angle: 0.4, x: 0, y: 0, z: 1))
                .concatenating(.translation(x: 12, y: -30)),
            // Flattened z: not invertible as a 4×4, but its plane still maps one to one.
            .scale(x: 2, y: 2, z: 0).concatenating(.rotation(angle: 20 * degrees, x: 0, y: 0, z: 1)),
        ]
        let points = [Point(0, 0), Point(1, 0), Point(-40, 25), Point(100, -100), Point(3.5, 77)]
        for m in transforms {
            for p in points {
                #expect(pointsClose(m.unproject(m.apply(to: p)), p), "\(m) at \(p)")
            }
        }
        // An explicit value: under a 90° turn the screen point (0, 1) came from (1, 0).
        #expect(pointsClose(Transform3D.rotation(angle: 90 * degrees, x: 0, y: 0, z: 1).unproject(Point(0, 1)),
                            Point(1, 0)))
        #expect(pointsClose(Transform3D.scale(x: 2, y: 4).unproject(Point(10, 10)), Point(5, 2.5)))
    }

    @Test func unprojectUndoesApplyWithPerspective() {
        let tiltY = Transform3D.rotation(angle: 60 * degrees, x: 0, y: 1, z: 0)
            .concatenating(.perspective(eyeDistance: 500))
        let tiltXZ = Transform3D.rotation(angle: 40 * degrees, x: 1, y: 0, z: 0)
            .concatenating(.rotation(angle: 25 * degrees, x: 0, y: 0, z: 1))
            .concatenating(.translation(x: 0, y: 0, z: -80))
            .concatenating(.perspective(eyeDistance: 800))
        for m in [tiltY, tiltXZ] {
            for u in stride(from: -150.0, through: 150, by: 50) {
                for v in stride(from: -150.0, through: 150, by: 75) {
                    let p = Point(u, v)
                    #expect(pointsClose(m.unproject(m.apply(to: p)), p, 1e-9), "\(p)")
                }
            }
        }
        // An explicit value for the 60° tilt: screen x = 50 / (1 + 100·sin60/500) came from u = 100.
        let screenX = 50 / (1 + 100 * 3.0.squareRoot() / 2 / 500)
        #expect(pointsClose(tiltY.unproject(Point(screenX, 0)), Point(100, 0), 1e-12))
    }

    @Test func unprojectFailsEdgeOnAndBeyondTheHorizon() {
        let edgeOn = Transform3D.rotation(angle: 90 * degrees, x: 0, y: 1, z: 0)
        #expect(edgeOn.unproject(Point(0, 0)) == nil)
        #expect(edgeOn.concatenating(.perspective(eyeDistance: 500)).unproject(Point(10, 5)) == nil)
        #expect(Transform3D.scale(x: 0, y: 1).unproject(Point(0, 0)) == nil)

        // Tilted 60° about y with the eye 500 pt away, the plane's horizon is at screen
        // x = 500·cos60/sin60 ≈ 288.7; screen points past it would need a plane point behind the eye.
        let tilt = Transform3D.rotation(angle: 60 * degrees, x: 0, y: 1, z: 0)
            .concatenating(.perspective(eyeDistance: 500))
        #expect(tilt.unproject(Point(280, 0)) != nil)
        #expect(tilt.unproject(Point(400, 0)) == nil)
        #expect(tilt.unproject(Point(1000, -20)) == nil)
    }

    // MARK: Quaternions

    @Test func quaternionMatchesRotationMatrices() {
        let half = (0.5).squareRoot()
        let q = Quaternion(rotationMatrix: .rotation(angle: 90 * degrees, x: 0, y: 0, z: 1))
        #expect(quaternionsClose(q, Quaternion(x: 0, y: 0, z: half, w: half)))
        #expect(quaternionsClose(Quaternion(angle: 90 * degrees, x: 0, y: 0, z: 2), q))
        #expect(matricesClose(q.rotationMatrix, .rotation(angle: 90 * degrees, x: 0, y: 0, z: 1)))

        // Every branch of the matrix → quaternion conversion, including angles near 180°.
        var rng = SplitMix64(seed: 42)
        for _ in 0..<100 {
            let (x, y, z) = (Double.random(in: -1...1, using: &rng), Double.random(in: -1...1, using: &rng),
                             Double.random(in: -1...1, using: &rng))
            let angle = Double.random(in: -Double.pi...Double.pi, using: &rng)
            let m = Transform3D.rotation(angle: angle, x: x, y: y, z: z)
            let fromMatrix = Quaternion(rotationMatrix: m)
            #expect(quaternionsClose(fromMatrix, Quaternion(angle: angle, x: x, y: y, z: z)))
            #expect(matricesClose(fromMatrix.rotationMatrix, m))
            #expect(scalarClose(fromMatrix.length, 1, 1e-12))
        }
        for axis in [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (1.0, 1.0, 0.0)] {
            let m = Transform3D.rotation(angle: Double.pi, x: axis.0, y: axis.1, z: axis.2)
            #expect(matricesClose(Quaternion(rotationMatrix: m).rotationMatrix, m))
        }
    }

    @Test func slerpTakesTheShortArcAtConstantSpeed() {
        let a = Quaternion.identity
        let b = Quaternion(angle: 90 * degrees, x: 0, y: 0, z: 1)
        #expect(quaternionsClose(a.slerp(to: b, 0.5), Quaternion(angle: 45 * degrees, x: 0, y: 0, z: 1)))
        #expect(quaternionsClose(a.slerp(to: b, 1.0 / 3), Quaternion(angle: 30 * degrees, x: 0, y: 0, z: 1)))
        #expect(quaternionsClose(a.slerp(to: b, 0), a))
        #expect(quaternionsClose(a.slerp(to: b, 1), b))
        // -b is the same rotation; the path must still be the 45° one, not the long way round.
        let negB = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w)
        #expect(quaternionsClose(a.slerp(to: negB, 0.5), Quaternion(angle: 45 * degrees, x: 0, y: 0, z: 1)))
        // 350° about z is -10°: halfway is -5°.
        let c = Quaternion(angle: 350 * degrees, x: 0, y: 0, z: 1)
        #expect(quaternionsClose(a.slerp(to: c, 0.5), Quaternion(angle: -5 * degrees, x: 0, y: 0, z: 1)))
        // Nearly parallel falls back to normalised lerp and stays unit length.
        let d = Quaternion(angle: 1e-4, x: 1, y: 0, z: 0)
        let mid = a.slerp(to: d, 0.5)
        #expect(scalarClose(mid.length, 1, 1e-15))
        #expect(quaternionsClose(mid, Quaternion(angle: 0.5e-4, x: 1, y: 0, z: 0), 1e-12))
        #expect(scalarClose(b.dot(b), 1, 1e-15))
        #expect(Quaternion(x: 0, y: 0, z: 0, w: 2).normalized == .identity)
    }

    // MARK: Decomposition

    @Test func decomposeReadsOffKnownParts() throws {
        // Scale, then rotate 30° about z, then translate, then perspective: exactly the order of the
        // parts. (No z translation, which would make m44 = 1 - z/d and the parts come out normalised.)
        let m = Transform3D.scale(x: 2, y: 3, z: 4)
            .concatenating(.rotation(angle: 30 * degrees, x: 0, y: 0, z: 1))
            .concatenating(.translation(x: 5, y: 6, z: 0))
            .concatenating(.perspective(eyeDistance: 500))
        let d = try #require(m.decomposed())
        #expect(scalarClose(d.scale.x, 2) && scalarClose(d.scale.y, 3) && scalarClose(d.scale.z, 4))
        #expect(scalarClose(d.translation.x, 5) && scalarClose(d.translation.y, 6) && scalarClose(d.translation.z, 0))
        #expect(scalarClose(d.skew.xy, 0) && scalarClose(d.skew.xz, 0) && scalarClose(d.skew.yz, 0))
        #expect(scalarClose(d.perspective.x, 0) && scalarClose(d.perspective.y, 0)
                && scalarClose(d.perspective.z, -1.0 / 500) && scalarClose(d.perspective.w, 1))
        #expect(quaternionsClose(d.rotation, Quaternion(angle: 30 * degrees, x: 0, y: 0, z: 1)))
        #expect(matricesClose(Transform3D(d), m, 1e-12))

        // A skewX of 45° (x += y) reads back as skew.xy = 1.
        var skew = Transform3D.identity
        skew.m21 = 1
        let ds = try #require(skew.decomposed())
        #expect(scalarClose(ds.skew.xy, 1) && scalarClose(ds.scale.x, 1) && scalarClose(ds.scale.y, 1))
        #expect(matricesClose(Transform3D(ds), skew, 1e-12))

        // A mirror becomes negative scales and a proper rotation.
        let mirror = Transform3D.scale(x: -1, y: 1)
        let dm = try #require(mirror.decomposed())
        #expect(dm.scale.x * dm.scale.y * dm.scale.z < 0)
        #expect(scalarClose(dm.rotation.rotationMatrix.determinant, 1, 1e-12))
        #expect(matricesClose(Transform3D(dm), mirror, 1e-12))
    }

    @Test func decomposeRecomposeRoundTrips() throws {
        var rng = SplitMix64(seed: 2024)
        for i in 0..<200 {
            var m = randomTransform(&rng, perspective: i % 2 == 0)
            // Half the time add a skew, which the other factories cannot make.
            if i % 4 < 2 {
                var k = Transform3D.identity
                k.m21 = Double.random(in: -1...1, using: &rng)
                k.m31 = Double.random(in: -1...1, using: &rng)
                k.m32 = Double.random(in: -1...1, using: &rng)
                m = k.concatenating(m)
            }
            let d = try #require(m.decomposed(), "transform \(i)")
            // Recomposition gives the matrix normalised to m44 = 1.
            let normalised = Transform3D(m.values.map { $0 / m.m44 })!
            #expect(matricesClose(Transform3D(d), normalised, 1e-9), "transform \(i)")
            #expect(scalarClose(d.rotation.length, 1, 1e-12))
        }
    }

    @Test func decomposeNormalisesByM44() throws {
        // Moving toward the eye before the perspective makes m44 = 1 - z/d = 0.8.
        let m = Transform3D.translation(x: 0, y: 0, z: 100).concatenating(.perspective(eyeDistance: 500))
        #expect(scalarClose(m.m44, 0.8))
        let d = try #require(m.decomposed())
        let recomposed = Transform3D(d)
        #expect(matricesClose(recomposed, Transform3D(m.values.map { $0 / 0.8 })!, 1e-12))
        // Same projective transform, so the same screen points.
        #expect(pointsClose(recomposed.apply(to: Point(30, -40)), m.apply(to: Point(30, -40)), 1e-12))
    }

    @Test func undecomposableTransforms() {
        #expect(Transform3D.scale(x: 1, y: 1, z: 0).decomposed() == nil)
        var noW = Transform3D.identity
        noW.m44 = 0
        #expect(noW.decomposed() == nil)
    }

    // MARK: Interpolation

    @Test func endpointsAreExact() {
        let a = Transform3D.rotation(angle: 0.3, x: 1, y: 1, z: 0).concatenating(.translation(x: 3, y: 4))
        let b = Transform3D.scale(x: 2, y: 2).concatenating(.perspective(eyeDistance: 700))
        #expect(a.interpolated(to: b, progress: 0) == a)
        #expect(a.interpolated(to: b, progress: -0.5) == a)
        #expect(a.interpolated(to: b, progress: 1) == b)
        #expect(a.interpolated(to: b, progress: 1.5) == b)
    }

    @Test func rotationMidpointKeepsUnitScale() throws {
        let quarter = Transform3D.rotation(angle: 90 * degrees, x: 0, y: 0, z: 1)
        let mid = Transform3D.identity.interpolated(to: quarter, progress: 0.5)
        #expect(matricesClose(mid, .rotation(angle: 45 * degrees, x: 0, y: 0, z: 1), 1e-12))
        let half = (0.5).squareRoot()
        #expect(pointsClose(mid.apply(to: Point(1, 0)), Point(half, half), 1e-12))
        let d = try #require(mid.decomposed())
        #expect(scalarClose(d.scale.x, 1, 1e-12) && scalarClose(d.scale.y, 1, 1e-12))
        // An entry-wise lerp would give m11 = 0.5, a 0.707 shrink.
        #expect(scalarClose(mid.m11, half, 1e-12))
        // A third of the way is 30°.
        #expect(matricesClose(Transform3D.identity.interpolated(to: quarter, progress: 1.0 / 3),
                              .rotation(angle: 30 * degrees, x: 0, y: 0, z: 1), 1e-12))
    }

    @Test func scaleTranslationAndPerspectiveInterpolateLinearly() {
        #expect(matricesClose(Transform3D.identity.interpolated(to: .scale(x: 3, y: 3, z: 3), progress: 0.5),
                              .scale(x: 2, y: 2, z: 2), 1e-12))
        #expect(matricesClose(Transform3D.translation(x: 0, y: 0).interpolated(to: .translation(x: 100, y: -50, z: 8),
                                                                               progress: 0.25),
                              .translation(x: 25, y: -12.5, z: 2), 1e-12))
        let p = Transform3D.identity.interpolated(to: .perspective(eyeDistance: 500), progress: 0.5)
        #expect(matricesClose(p, .perspective(eyeDistance: 1000), 1e-12))
    }

    @Test func combinedInterpolation() {
        func make(_ s: Double, _ angle: Double, _ tx: Double) -> Transform3D {
            Transform3D.scale(x: s, y: s)
                .concatenating(.rotation(angle: angle * degrees, x: 0, y: 0, z: 1))
                .concatenating(.translation(x: tx, y: 0))
        }
        let from = make(1, 0, 0), to = make(3, 90, 100)
        #expect(matricesClose(from.interpolated(to: to, progress: 0.5), make(2, 45, 50), 1e-12))
        #expect(matricesClose(from.interpolated(to: to, progress: 0.25), make(1.5, 22.5, 25), 1e-12))

        // With a 3-D tilt and perspective on both sides.
        func tilt(_ angle: Double) -> Transform3D {
            Transform3D.rotation(angle: angle * degrees, x: 0, y: 1, z: 0).concatenating(.perspective(eyeDistance: 500))
        }
        #expect(matricesClose(tilt(0).interpolated(to: tilt(60), progress: 0.5), tilt(30), 1e-12))
    }

    @Test func undecomposableSidesSwitchAtHalfway() {
        let flat = Transform3D.scale(x: 1, y: 1, z: 0)
        let turned = Transform3D.rotation(angle: 1, x: 0, y: 0, z: 1)
        #expect(flat.interpolated(to: turned, progress: 0.49) == flat)
        #expect(flat.interpolated(to: turned, progress: 0.5) == turned)
        #expect(turned.interpolated(to: flat, progress: 0.2) == turned)
        #expect(turned.interpolated(to: flat, progress: 0.8) == flat)
    }
}
