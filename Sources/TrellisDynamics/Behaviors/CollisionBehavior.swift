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

    /// A named boundary's shape.
    public enum Boundary: Hashable, Sendable {
        case segment(Point, Point)
        /// Its four sides.
        case rect(Rect)

        var segments: [(Point, Point)] {
            switch self {
            case .segment(let from, let to): return [(from, to)]
            case .rect(let r):
                let corners = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)]
                return (0..<4).map { (corners[$0], corners[($0 + 1) % 4]) }
            }
        }
    }

    public var items: [DynamicItemID]
    public var mode: Mode = .everything
    public var translatesReferenceBoundsIntoBoundary = false
    /// Moves the reference-bounds boundary in from the bounds' edges.
    public var boundaryInsets = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
    /// Named boundaries, kept in the order they were added.
    public var boundaries: [(identifier: String, boundary: Boundary)] = []

    public init(items: [DynamicItemID]) { self.items = items }

    public func addConstraints(to constraints: inout ConstraintSet, bodies: DynamicBodies) {
        let indices = items.compactMap { bodies.index(of: $0) }
        let shapes = indices.map { BoxShape(bodies[index: $0]) }
        let h = DynamicAnimator.step
        if mode.contains(.boundaries) {
            for (k, b) in indices.enumerated() {
                let body = bodies[index: b], shape = shapes[k], id = bodies.ids[b]
                let margin = Self.margin(speed: body.velocity.length, shape: shape)
                let material = (body.properties.friction, body.properties.elasticity)
                func add(_ point: Point, _ normal: Vector, _ separation: Double, boundary: Int, feature: Int) {
                    let key = Contact.Key(a: nil, b: id, boundary: boundary, feature: feature)
                    constraints.contacts.append(Contact(key: key, a: nil, b: b, point: point, normal: normal, separation: separation,
                                                        friction: material.0, restitution: material.1))
                }
                if translatesReferenceBoundsIntoBoundary {
                    let r = constraints.referenceBounds
                    let planes = [(Vector(1, 0), r.minX + boundaryInsets.left), (Vector(-1, 0), -(r.maxX - boundaryInsets.right)),
                                  (Vector(0, 1), r.minY + boundaryInsets.top), (Vector(0, -1), -(r.maxY - boundaryInsets.bottom))]
                    for (plane, (normal, offset)) in planes.enumerated() {
                        ContactFinder.box(shape, inside: normal, offset: offset, margin: margin) {
                            add($0, normal, $1, boundary: plane, feature: $2)
                        }
                    }
                }
                var boundary = 4
                for (_, named) in boundaries {
                    for (from, to) in named.segments {
                        let number = boundary
                        ContactFinder.box(shape, segment: from, to, margin: margin) {
                            add($0, $1, $2, boundary: number, feature: $3)
                        }
                        boundary += 1
                    }
                }
            }
        }
        guard mode.contains(.items), indices.count > 1 else { return }
        for i in 0..<indices.count {
            for j in (i + 1)..<indices.count {
                let a = bodies[index: indices[i]], b = bodies[index: indices[j]]
                guard a.inverseMass > 0 || b.inverseMass > 0 else { continue }
                let margin = Self.margin(speed: (b.velocity - a.velocity).length, shape: shapes[i].halfWidth < shapes[j].halfWidth ? shapes[i] : shapes[j])
                let friction = (a.properties.friction * b.properties.friction).squareRoot()
                let restitution = max(a.properties.elasticity, b.properties.elasticity)
                ContactFinder.boxes(shapes[i], shapes[j], margin: margin) { point, normal, separation, feature in
                    let key = Contact.Key(a: bodies.ids[indices[i]], b: bodies.ids[indices[j]], boundary: -1, feature: feature)
                    constraints.contacts.append(Contact(key: key, a: indices[i], b: indices[j], point: point, normal: normal,
                                                        separation: separation, friction: friction, restitution: restitution))
                }
            }
        }
    }

    /// Contacts are looked for this far apart: Box2D's speculative distance (4 × slop), or
    /// for an item fast enough to cross half its own size in a step, the distance it covers
    /// (so it cannot pass through a thin boundary or item between two steps; such a fling
    /// then stops at the surface and bounces less than it would).
    static func margin(speed: Double, shape: BoxShape) -> Double {
        let travel = speed * DynamicAnimator.step
        return travel > min(shape.halfWidth, shape.halfHeight) ? travel * 2 : 4 * Contact.slop
    }
}
