import TrellisGeometry

/// Finds contact points between boxes and boundaries, within a speculative margin (contacts
/// that are about to happen are solved too, so nothing passes through in one step).
enum ContactFinder {
    /// A box against a half-plane: the points `p` with `normal·p ≥ offset` are inside.
    static func box(_ box: BoxShape, inside normal: Vector, offset: Double, margin: Double,
                    emit: (Point, Double, Int) -> Void) {
        for (k, corner) in box.corners.enumerated() {
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
        for (k, corner) in box.corners.enumerated() {
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
    static func boxes(_ a: BoxShape, _ b: BoxShape, margin: Double, tie: UInt64 = 0, emit: (Point, Vector, Double, Int) -> Void) {
        var d = b.center.vector(from: a.center)
        if d == .zero {
            let axis = tie & 2 == 0 ? a.axisX : a.axisY
            d = tie & 1 == 0 ? axis : axis * -1
        }
        var best: (separation: Double, normal: Vector, referenceIsA: Bool, feature: Int)?
        for (k, (axis, referenceIsA)) in [(a.axisX, true), (a.axisY, true), (b.axisX, false), (b.axisY, false)].enumerated() {
            var normal = axis
            if normal.dot(d) < 0 { normal = normal * -1 }
            let separation = abs(d.dot(axis)) - a.radius(along: axis) - b.radius(along: axis)
            if separation > margin { return }
            // Prefer A's faces unless B's are clearly better (stable choice between steps).
            if best == nil || separation > best!.separation + (referenceIsA ? 0 : 0.01) {
                best = (separation, normal, referenceIsA, k * 4 + (normal.dot(axis) > 0 ? 0 : 2))
            }
        }
        guard let best else { return }
        let reference = best.referenceIsA ? a : b, incident = best.referenceIsA ? b : a
        let referenceNormal = best.referenceIsA ? best.normal : best.normal * -1
        let face = reference.face(towards: referenceNormal)
        let incidentFace = incident.face(towards: referenceNormal * -1)
        // Clip the incident face to the reference face's extent.
        let side = face.to.vector(from: face.from)
        let sideLength = side.length
        guard sideLength > 0 else { return }
        let tangent = side / sideLength
        var points = [incidentFace.from, incidentFace.to]
        for (origin, direction) in [(face.from, tangent), (face.to, tangent * -1)] {
            let distances = points.map { direction.dot($0.vector(from: origin)) }
            if distances[0] < 0 && distances[1] < 0 { return }
            if distances[0] < 0 || distances[1] < 0 {
                let t = distances[0] / (distances[0] - distances[1])
                let cut = points[0] + points[1].vector(from: points[0]) * t
                points = distances[0] < 0 ? [cut, points[1]] : [points[0], cut]
            }
        }
        for (k, point) in points.enumerated() {
            let separation = face.normal.dot(point.vector(from: face.from))
            if separation < margin { emit(point, best.normal, separation, best.feature + k) }
        }
    }
}
