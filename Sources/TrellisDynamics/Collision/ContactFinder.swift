import TrellisGeometry

/// Finds contact points between boxes and boundaries, within a speculative margin (contacts
/// that are about to happen are solved too, so nothing passes through in one step).
enum ContactFinder {
    /// A box against a half-plane: the points `p` with `normal·p ≥ offset` are inside.
    static func box(_ box: BoxShape, inside normal: Vector, offset: Double, margin: Double,
                    emit: (Point, Double, Int) -> Void) {
        for k in 0..<4 {
            let corner = box.corner(k)
            let separation = normal.dot(Vector(dx: corner.x, dy: corner.y)) - offset
            if separation < margin { emit(corner, separation, k) }
        }
    }

    /// A box against a segment, from the side the box's centre is on: the box's corners that
    /// fall across the segment's line within its length, and (`ends`) the segment's ends
    /// inside the box. A closed convex boundary's corners point away from an item inside it,
    /// and there an end at a box's corner would push it along the wall; so those skip them.
    static func box(_ box: BoxShape, segment from: Point, _ to: Point, margin: Double, ends: Bool = true,
                    emit: (Point, Vector, Double, Int) -> Void) {
        let along = to.vector(from: from)
        let length = along.length
        guard length > 0 else { return }
        let direction = along / length
        var normal = direction.perpendicular
        if normal.dot(box.center.vector(from: from)) < 0 { normal = normal * -1 }
        // Too far from the line to touch, along the normal.
        let centreDistance = normal.dot(box.center.vector(from: from))
        guard centreDistance - box.radius(along: normal) < margin else { return }
        for k in 0..<4 {
            let corner = box.corner(k)
            let t = direction.dot(corner.vector(from: from))
            guard t >= 0, t <= length else { continue }
            let separation = normal.dot(corner.vector(from: from))
            if separation < margin && separation > -box.radius(along: normal) * 2 { emit(corner, normal, separation, k) }
        }
        // The segment's ends poking into a face of the box.
        guard ends else { return }
        for (k, end) in [from, to].enumerated() {
            let local = end.vector(from: box.center)
            let x = local.dot(box.axisX), y = local.dot(box.axisY)
            let gapX = abs(x) - box.halfWidth, gapY = abs(y) - box.halfHeight
            guard gapX < margin, gapY < margin, max(gapX, gapY) < 0 || (gapX < margin && gapY < margin) else { continue }
            // The face it is nearest to; the normal points out of the box, towards the end (from
            // the boundary to the box, so negated).
            let faceNormal = gapX > gapY ? box.axisX * (x < 0 ? -1 : 1) : box.axisY * (y < 0 ? -1 : 1)
            emit(end, faceNormal * -1, max(gapX, gapY), 4 + k)
        }
    }

    /// Two boxes: the axis of least overlap among the four face normals, then the incident
    /// face of the other box clipped to the reference face (up to two points). The normal
    /// points from `a` to `b`. Boxes centred at one point (spawned there) have no side to part
    /// towards: `tie` (a hash of the pair) picks one of a's four faces, so a crowd spawned at a
    /// point spreads every way rather than all along +x.
    /// Called for every pair every step: no arrays (the axes, faces and clipped points are
    /// locals), which allocating made a tenth of a pile's step.
    static func boxes(_ a: BoxShape, _ b: BoxShape, margin: Double, tie: UInt64 = 0, emit: (Point, Vector, Double, Int) -> Void) {
        var d = b.center.vector(from: a.center)
        if d == .zero {
            let axis = tie & 2 == 0 ? a.axisX : a.axisY
            d = tie & 1 == 0 ? axis : axis * -1
        }
        var bestSeparation = 0.0, bestNormal = Vector.zero, referenceIsA = true, bestFeature = 0, found = false
        // The four axes in order: a's x and y, then b's (features 0…3 and 4…7, 8…11, 12…15).
        @inline(__always) func consider(_ axis: Vector, _ isA: Bool, _ k: Int) -> Bool {
            var normal = axis
            if normal.dot(d) < 0 { normal = normal * -1 }
            let separation = abs(d.dot(axis)) - a.radius(along: axis) - b.radius(along: axis)
            if separation > margin { return false }
            // Prefer A's faces unless B's are clearly better (stable choice between steps).
            if !found || separation > bestSeparation + (isA ? 0 : 0.01) {
                found = true
                bestSeparation = separation; bestNormal = normal; referenceIsA = isA
                bestFeature = k * 4 + (normal.dot(axis) > 0 ? 0 : 2)
            }
            return true
        }
        guard consider(a.axisX, true, 0), consider(a.axisY, true, 1), consider(b.axisX, false, 2), consider(b.axisY, false, 3)
        else { return }
        let reference = referenceIsA ? a : b, incident = referenceIsA ? b : a
        let referenceNormal = referenceIsA ? bestNormal : bestNormal * -1
        let face = reference.face(towards: referenceNormal)
        let incidentFace = incident.face(towards: referenceNormal * -1)
        // Clip the incident face to the reference face's extent.
        let side = face.to.vector(from: face.from)
        let sideLength = side.length
        guard sideLength > 0 else { return }
        let tangent = side / sideLength
        var p0 = incidentFace.from, p1 = incidentFace.to
        @inline(__always) func clip(_ origin: Point, _ direction: Vector) -> Bool {
            let d0 = direction.dot(p0.vector(from: origin)), d1 = direction.dot(p1.vector(from: origin))
            if d0 < 0 && d1 < 0 { return false }
            if d0 < 0 || d1 < 0 {
                let t = d0 / (d0 - d1)
                let cut = p0 + p1.vector(from: p0) * t
                if d0 < 0 { p0 = cut } else { p1 = cut }
            }
            return true
        }
        guard clip(face.from, tangent), clip(face.to, tangent * -1) else { return }
        let separation0 = face.normal.dot(p0.vector(from: face.from))
        if separation0 < margin { emit(p0, bestNormal, separation0, bestFeature) }
        let separation1 = face.normal.dot(p1.vector(from: face.from))
        if separation1 < margin { emit(p1, bestNormal, separation1, bestFeature + 1) }
    }
}
