import TrellisGeometry

/// UICollisionBehavior: its items collide with each other and/or with boundaries: the
/// reference bounds (with insets) and named boundaries made of segments and rectangles.
/// Items are their bounds, turned with them. Materials combine as Box2D combines them (Apple
/// does not say): friction √(f₁·f₂), elasticity the larger; against a boundary, the item's own.
public struct CollisionBehavior: DynamicBehavior {
    public struct Mode: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let items = Mode(rawValue: 1 << 0)
        public static let boundaries = Mode(rawValue: 1 << 1)
        public static let everything: Mode = [.items, .boundaries]
    }

    /// A named boundary's shape (UIKit's segment, or a UIBezierPath of a rect or an oval).
    public enum Boundary: Hashable, Sendable {
        case segment(Point, Point)
        /// Its four sides.
        case rect(Rect)
        /// The ellipse inscribed in the rect (UIBezierPath(ovalIn:)), as a closed convex polygon
        /// of `ellipseSides` sides with its corners on the ellipse. An item collides from the
        /// side its centre is on: inside it stays in, outside it stays out.
        case ellipse(Rect)
    }

    public var items: [DynamicItemID]
    public var mode: Mode = .everything
    public var translatesReferenceBoundsIntoBoundary = false
    /// Moves the reference-bounds boundary in from the bounds' edges.
    public var boundaryInsets = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
    /// Named boundaries, kept in the order they were added.
    public var boundaries: [(identifier: String, boundary: Boundary)] = []

    public init(items: [DynamicItemID]) { self.items = items }

    /// The identifier of a boundary by the number the contacts give it (`Contact.Key`): nil
    /// for the reference bounds (number 0, as UIKit passes nil) and for a number it no longer has.
    public func boundaryIdentifier(_ number: Int) -> String? {
        number >= 1 && number <= boundaries.count ? boundaries[number - 1].identifier : nil
    }

    public var phases: StepPhases { .constraints }

    public func addConstraints(to constraints: inout ConstraintSet, bodies: DynamicBodies) {
        addConstraints(to: &constraints, bodies: bodies, allPairs: false)
    }

    /// `allPairs`: tests every pair of items rather than the broadphase's (to check the broadphase).
    /// `crowds` false: every overlapping pair, crowded or not (to compare with every pair).
    func addConstraints(to constraints: inout ConstraintSet, bodies: DynamicBodies, allPairs: Bool, crowds: Bool = true) {
        let indices = items.compactMap { bodies.index(of: $0) }
        let shapes = indices.map { BoxShape(bodies[index: $0]) }
        if mode.contains(.boundaries) {
            addBoundaryContacts(to: &constraints, bodies: bodies, indices: indices, shapes: shapes)
        }
        guard mode.contains(.items), indices.count > 1 else { return }
        let pairs: [(Int, Int)]
        if allPairs {
            pairs = (0..<indices.count).flatMap { i in ((i + 1)..<indices.count).map { (i, $0) } }
        } else {
            // Fattened so that every pair the narrow phase would report overlaps: a pair's margin
            // is at most the sum of the two items' own, and two boxes whose face-axis gap is
            // within it are at most √2 times as far apart (their Minkowski sum's corners are at
            // least 90°).
            //
            // A pair's margin depends on the two items' relative speed only, so each item is
            // fattened for its speed relative to one common velocity v₀, whichever it is
            // (|vb − va| ≤ |vb − v₀| + |va − v₀|, so the sum of the two items' margins still
            // covers the pair's): the items' mean velocity when that leaves them less to cover
            // than standing still does, else zero (as before, bit for bit). Fattened by their
            // absolute speed, the boxes of a falling pile each reached many neighbours' bounds,
            // moving with them, and the narrow phase tested every such pair for nothing. Only
            // pairs that cannot touch are left out; and a falling pile no longer overflows the
            // broadphase's store of pairs (`Broadphase.pairs` keeps 2 × crowdLimit per item when
            // no item is crowded), which had silently dropped pairs that did touch.
            let velocities = indices.map { bodies[index: $0].velocity }
            let common = Self.commonVelocity(velocities)
            var dropped = Broadphase.Dropped()
            pairs = Broadphase.pairs(indices.indices.map { k in
                let fat = 1.5 * Self.margin(step: constraints.step, speed: (velocities[k] - common).length, shape: nil)
                return shapes[k].bounds(fattenedBy: fat)
            }, cores: crowds ? shapes.map {
                Broadphase.Core(x: $0.center.x, y: $0.center.y, radius: min($0.halfWidth, $0.halfHeight))
            } : nil, testBudget: &constraints.candidateTests, dropped: &dropped)
            constraints.dropped.crowdedPairs += dropped.crowdedPairs
            constraints.dropped.pairsPastStore += dropped.pastStore
            if dropped.exhausted { constraints.dropped.testsExhausted = true }
        }
        // On the buffers, read once: through `bodies` each pair retained and released its arrays.
        let step = constraints.step
        bodies.storage.withUnsafeBufferPointer { all in
            bodies.ids.withUnsafeBufferPointer { ids in
                shapes.withUnsafeBufferPointer { shapes in
                    indices.withUnsafeBufferPointer { indices in
                        for (i, j) in pairs {
                            Self.addContacts(i, j, all, ids, shapes, indices, step: step, to: &constraints)
                        }
                    }
                }
            }
        }
    }

    /// The contacts of the pair of items `i`, `j` (places in `indices` and `shapes`).
    @inline(__always)
    private static func addContacts(_ i: Int, _ j: Int, _ bodies: UnsafeBufferPointer<DynamicBody>, _ ids: UnsafeBufferPointer<DynamicItemID>,
                                    _ shapes: UnsafeBufferPointer<BoxShape>, _ indices: UnsafeBufferPointer<Int>, step: Double,
                                    to constraints: inout ConstraintSet) {
        let ia = indices[i], ib = indices[j]
        let a = bodies[ia], b = bodies[ib]
        guard a.inverseMass > 0 || b.inverseMass > 0 else { return }
        let margin = Self.margin(step: step, speed: (b.velocity - a.velocity).length, shape: shapes[i].halfWidth < shapes[j].halfWidth ? shapes[i] : shapes[j])
        let friction = (a.properties.friction * b.properties.friction).squareRoot()
        let restitution = max(a.properties.elasticity, b.properties.elasticity)
        let key = Contact.Key(a: ids[ia], b: ids[ib], boundary: -1, feature: 0)
        ContactFinder.boxes(shapes[i], shapes[j], margin: margin, tie: Broadphase.tie(ia, ib)) { point, normal, separation, feature in
            guard constraints.contacts.count < constraints.contactLimit else {
                constraints.dropped.points += 1
                return
            }
            var key = key
            key.feature = feature
            constraints.contacts.append(Contact(key: key, a: ia, b: ib, point: point, normal: normal,
                                                separation: separation, friction: friction, restitution: restitution))
        }
    }

    /// Each item against the reference bounds' sides (boundary 0) and the named boundaries'
    /// segments (boundary k + 1 for the k-th), in that order.
    private func addBoundaryContacts(to constraints: inout ConstraintSet, bodies: DynamicBodies, indices: [Int], shapes: [BoxShape]) {
        let r = constraints.referenceBounds
        let planes = [(Vector(1, 0), r.minX + boundaryInsets.left), (Vector(-1, 0), -(r.maxX - boundaryInsets.right)),
                      (Vector(0, 1), r.minY + boundaryInsets.top), (Vector(0, -1), -(r.maxY - boundaryInsets.bottom))]
        var segments: [(from: Point, to: Point, bounds: Broadphase.Bounds, number: Int, side: Int)] = []
        for (k, (_, boundary)) in boundaries.enumerated() {
            for (side, (from, to)) in boundary.segments.enumerated() {
                let bounds = Broadphase.Bounds(minX: min(from.x, to.x), minY: min(from.y, to.y), maxX: max(from.x, to.x), maxY: max(from.y, to.y))
                segments.append((from, to, bounds, k + 1, side))
            }
        }
        var found: [(Point, Double, Int)] = []
        for (k, b) in indices.enumerated() {
            let body = bodies[index: b], shape = shapes[k], id = bodies.ids[b]
            let margin = Self.boundaryMargin(step: constraints.step, speed: body.velocity.length)
            let material = (body.properties.friction, body.properties.elasticity)
            func add(_ point: Point, _ normal: Vector, _ separation: Double, number: Int, side: Int, feature: Int) {
                guard constraints.contacts.count < constraints.contactLimit else {
                    constraints.dropped.points += 1
                    return
                }
                let key = Contact.Key(b: id, boundary: number, side: side, feature: feature)
                var contact = Contact(key: key, a: nil, b: b, point: point, normal: normal, separation: separation,
                                      friction: material.0, restitution: material.1)
                // Features 0…3 are the box's corners (4 and 5 a segment's ends).
                if feature < 4 { contact.cornerOfB = (shape.cornerOffset(feature), shape.center) }
                constraints.contacts.append(contact)
            }
            if translatesReferenceBoundsIntoBoundary {
                for (side, (normal, offset)) in planes.enumerated() {
                    found.removeAll(keepingCapacity: true)
                    ContactFinder.box(shape, inside: normal, offset: offset, margin: margin) { found.append(($0, $1, $2)) }
                    // Where the contact limit cuts, the deepest corners are the ones kept: a
                    // corner only about to touch (the margin covers a step's travel) must not
                    // take the place of the one sinking into the floor.
                    if constraints.contacts.count + found.count > constraints.contactLimit { found.sort { $0.1 < $1.1 } }
                    for (point, separation, feature) in found {
                        add(point, normal, separation, number: 0, side: side, feature: feature)
                    }
                }
            }
            guard !segments.isEmpty else { continue }
            // A segment's contacts are within the box's diagonal (a corner across it) or the
            // margin (an end near a face) of the box's bounds.
            let reach = 2 * (shape.halfWidth * shape.halfWidth + shape.halfHeight * shape.halfHeight).squareRoot() + 1.5 * margin
            let bounds = shape.bounds(fattenedBy: reach)
            var enclosing = -1, inside = false
            for segment in segments where bounds.overlaps(segment.bounds) {
                if segment.number != enclosing {
                    enclosing = segment.number
                    inside = boundaries[segment.number - 1].boundary.encloses(shape.center)
                }
                ContactFinder.box(shape, segment: segment.from, segment.to, margin: margin, ends: !inside) {
                    add($0, $1, $2, number: segment.number, side: segment.side, feature: $3)
                }
            }
        }
    }

    /// The velocity the broadphase fattens the items' bounds relative to: their mean, when the
    /// sum of their speeds relative to it is smaller than the sum of their speeds; else zero.
    static func commonVelocity(_ velocities: [Vector]) -> Vector {
        guard !velocities.isEmpty else { return .zero }
        var sum = Vector.zero
        for v in velocities { sum = sum + v }
        let mean = Vector(dx: sum.dx / Double(velocities.count), dy: sum.dy / Double(velocities.count))
        var relative = 0.0, absolute = 0.0
        for v in velocities {
            relative += (v - mean).length
            absolute += v.length
        }
        return relative < absolute ? mean : .zero
    }

    /// Contacts between items are looked for this far apart: Box2D's speculative distance
    /// (4 × slop), or for an item fast enough to cross half its own size in a step, the distance
    /// it covers (so it cannot pass through a thin item between two steps; such a fling then
    /// stops at the surface and bounces less than it would).
    /// Without a shape: the largest margin for that speed, whatever the size.
    static func margin(step: Double, speed: Double, shape: BoxShape?) -> Double {
        let travel = speed * step
        guard let shape else { return max(travel * 2, 4 * Contact.slop) }
        return travel > min(shape.halfWidth, shape.halfHeight) ? travel * 2 : 4 * Contact.slop
    }

    /// Against a boundary, always the distance the item covers in a step and the speculative
    /// distance beyond it: an item falling onto a floor is caught at its surface, never inside
    /// it (a step's gravity adds at most g·h², a quarter of a point at 60 Hz, within the 2 pt).
    static func boundaryMargin(step: Double, speed: Double) -> Double {
        4 * Contact.slop + speed * step
    }
}
