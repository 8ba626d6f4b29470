#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisGeometry

extension DynamicAnimator {
    /// Seconds of travel a velocity arrow shows: an item at 1000 pt/s gets a 100 pt arrow.
    public static let debugVelocitySeconds = 0.1
    /// A velocity arrow's end is kept on a grid this many points apart (in the view's own
    /// coordinates when it is drawn on one), and an arrow that rounds to nothing is not drawn:
    /// an item's arrow is sent again only when its velocity moved by a step, not
    /// every frame it accelerates a little (100 pt/s).
    public static let debugVelocityStep = 10.0
    /// A field's direction arrows are sampled on a grid this many points apart (at most
    /// `debugFieldSamples` per side over the field's region, or the reference bounds when unbounded).
    public static let debugFieldSpacing = 80.0
    public static let debugFieldSamples = 8

    /// Builds what acts on the items, as UIKit's debug view draws it, into `layer`: the reference
    /// bounds and each behaviour's boundaries, attachments, snap points, field regions and
    /// directions appended to its shapes (after those already there, in id order); a record
    /// per item (collision shape, centre of mass, velocity); the contacts touching now.
    /// `views[k]`, when given, is the number of the view showing the item at index `k` of
    /// `bodies` (-1: none): that item's shapes are then in the view's own coordinates (origin
    /// at its centre, unturned), so they stay the same while only the view moves; an item
    /// without a view has them in content coordinates. Contacts are rounded to whole points,
    /// and made again only when a touch began or ended since `layer`'s were made.
    public func buildDebugLayer(into layer: inout DebugLayerContents, views: [Int] = []) {
        let start = layer.shapes.count
        layer.shapes.append(DebugShape(DebugShapeID(.bounds, 0), .bounds, .box(center: referenceBounds.center, size: referenceBounds.size, angle: 0)))
        for (id, behavior) in behaviors {
            appendDebugShapes(of: behavior, number: id.rawValue, to: &layer.shapes)
        }
        // Behaviours' numbers mostly come in order already; a sort only when not.
        let sorted = layer.shapes.withUnsafeBufferPointer { all in
            var k = start + 1
            while k < all.count, all[k - 1].id < all[k].id { k += 1 }
            return k >= all.count
        }
        if !sorted {
            layer.shapes[start...].sort { $0.id < $1.id }
        }
        buildDebugItems(into: &layer.items, views: views)
        buildDebugContacts(into: &layer)
    }

    /// A record per item, sorted by owner: plain numbers, no shape made, written in place in
    /// one pass over the bodies (no per-item append).
    private func buildDebugItems(into items: inout [DebugItemRecord], views: [Int]) {
        let step = Self.debugVelocityStep, travel = Self.debugVelocitySeconds
        let halfStepSquared = 0.25 * step * step
        var inOrder = true
        let count = bodies.count
        items = [DebugItemRecord](unsafeUninitializedCapacity: count) { out, written in
            bodies.ids.withUnsafeBufferPointer { ids in
                bodies.bodies.withUnsafeBufferPointer { all in
                    views.withUnsafeBufferPointer { views in
                        var last = Int.min
                        let viewed = min(views.count, all.count)
                        for k in 0..<all.count {
                            let owner = ids[k].rawValue
                            let view = k < viewed ? views[k] : -1
                            var arrow = all[k].velocity * travel
                            var ax = 0.0, ay = 0.0
                            // An arrow shorter than half a step rounds to nothing however it is turned.
                            let lengthSquared = arrow.lengthSquared
                            if lengthSquared >= halfStepSquared || !lengthSquared.isFinite {
                                // On a view, the view's own coordinates: the velocity turned back by the item's angle.
                                if view >= 0, all[k].angle != 0 { arrow = rotated(arrow, by: -all[k].angle) }
                                ax = DebugItemRecord.gridSteps(arrow.dx, step: step)
                                ay = DebugItemRecord.gridSteps(arrow.dy, step: step)
                            }
                            let onView = view >= 0
                            out.initializeElement(at: k, to: DebugItemRecord(owner: owner, view: onView ? view : -1, size: all[k].size,
                                                                             center: onView ? .zero : all[k].center,
                                                                             angle: onView ? 0 : all[k].angle, arrowX: ax, arrowY: ay))
                            if owner <= last { inOrder = false }
                            last = owner
                        }
                    }
                }
            }
            written = count
        }
        // Items' numbers come in the order they were added, mostly ascending.
        if !inOrder { items.sort { $0.owner < $1.owner } }
    }

    /// The contacts touching now, made again only when the tracker's touches changed. Against a
    /// boundary the part is −1 − its number, so that an item's touches of two boundaries are two
    /// contacts. The tracker lists each item's touches together (the other items', then the
    /// boundaries'): each is put in part order among its item's as it comes, so that the
    /// contacts come in id order without sorting them all.
    private func buildDebugContacts(into layer: inout DebugLayerContents) {
        let touches = debugTouches
        if let source = layer.contactsSource, source.count == touches.count,
           source.withUnsafeBufferPointer({ $0.baseAddress }) == touches.withUnsafeBufferPointer({ $0.baseAddress }) {
            return
        }
        layer.contactsSource = touches
        var inOrder = true
        // Touches of one behaviour are each there once: only two behaviours can list a pair twice.
        var behaviors = 1
        // Written in place over a buffer of the touches' count (read in place too: a touch
        // carries a string, and copying one retains it).
        layer.contacts = [DebugContactRecord](unsafeUninitializedCapacity: touches.count) { out, written in
            touches.withUnsafeBufferPointer { touches in
                for t in 0..<touches.count {
                    let key = touches[t].key, point = touches[t].point
                    if t > 0, key.behavior != touches[t - 1].key.behavior { behaviors += 1 }
                    // Whole points: a resting contact that wanders by a fraction is not sent again.
                    let contact = DebugContactRecord(first: key.first, part: key.second == .max ? -1 - key.boundary : key.second,
                                                     x: DebugItemRecord.gridSteps(point.x, step: 1),
                                                     y: DebugItemRecord.gridSteps(point.y, step: 1))
                    var k = written
                    while k > 0, out[k - 1].first == contact.first, contact.part < out[k - 1].part {
                        out[k] = out[k - 1]
                        k -= 1
                    }
                    out[k] = contact
                    written += 1
                    if k > 0, out[k - 1].first > contact.first { inOrder = false }
                }
            }
        }
        // Two collision behaviours list theirs one after the other; a pair in both is drawn once.
        if !inOrder { layer.contacts.sort { $0.precedes($1) } }
        guard behaviors > 1 else { return }
        var kept = 0
        for k in layer.contacts.indices where kept == 0 || !layer.contacts[k].sameContact(as: layer.contacts[kept - 1]) {
            layer.contacts[kept] = layer.contacts[k]
            kept += 1
        }
        layer.contacts.removeLast(layer.contacts.count - kept)
    }

    private func appendDebugShapes(of behavior: any DynamicBehavior, number: Int, to shapes: inout [DebugShape]) {
        switch behavior {
        case let composite as CompositeBehavior:
            // A composite's children share its number; their parts are told apart by child.
            for (k, child) in composite.childBehaviors.enumerated() {
                appendDebugShapes(of: child, number: number &* 1000 &+ k &+ 1, to: &shapes)
            }
        case let collision as CollisionBehavior:
            appendDebugShapes(of: collision, number: number, to: &shapes)
        case let attachment as AttachmentBehavior:
            appendDebugShapes(of: attachment, number: number, to: &shapes)
        case let snap as SnapBehavior:
            shapes.append(DebugShape(DebugShapeID(.snap, number, 0), .snap, .point(snap.snapPoint)))
            if let body = bodies[snap.item] {
                shapes.append(DebugShape(DebugShapeID(.snap, number, 1), .attachment, .polyline([body.center, snap.snapPoint])))
            }
        case let field as FieldBehavior:
            appendDebugShapes(of: field, number: number, to: &shapes)
        case let gravity as GravityBehavior:
            appendDirection(gravity.gravityDirection, label: "gravity", number: number, to: &shapes)
        case let push as PushBehavior where push.active:
            appendDirection(push.pushDirection, label: "push", number: number, to: &shapes)
        default:
            break
        }
    }

    /// A uniform force's direction: one arrow from the reference bounds' centre.
    private func appendDirection(_ direction: Vector, label: String, number: Int, to shapes: inout [DebugShape]) {
        guard direction.lengthSquared > 0 else { return }
        let c = referenceBounds.center
        shapes.append(DebugShape(DebugShapeID(.force, number, 0), .force,
                                 .arrow(from: c, to: c + direction.normalized * Self.debugFieldSpacing), label: label))
    }

    private func appendDebugShapes(of collision: CollisionBehavior, number: Int, to shapes: inout [DebugShape]) {
        guard collision.mode.contains(.boundaries) else { return }
        if collision.translatesReferenceBoundsIntoBoundary {
            let r = referenceBounds, i = collision.boundaryInsets
            let inset = Rect(x: r.minX + i.left, y: r.minY + i.top, width: r.width - i.left - i.right, height: r.height - i.top - i.bottom)
            shapes.append(DebugShape(DebugShapeID(.boundary, number, 0), .boundary, .box(center: inset.center, size: inset.size, angle: 0)))
        }
        for (k, named) in collision.boundaries.enumerated() {
            let geometry: DebugShape.Geometry
            switch named.boundary {
            case .segment(let a, let b): geometry = .polyline([a, b])
            case .rect(let r): geometry = .box(center: r.center, size: r.size, angle: 0)
            // The polygon the items collide with, not the curve.
            case .ellipse: geometry = .polygon(named.boundary.segments.map(\.0))
            }
            shapes.append(DebugShape(DebugShapeID(.boundary, number, k + 1), .boundary, geometry, label: named.identifier))
        }
    }

    private func appendDebugShapes(of attachment: AttachmentBehavior, number: Int, to shapes: inout [DebugShape]) {
        guard let body = bodies[attachment.item] else { return }
        func id(_ part: Int) -> DebugShapeID { DebugShapeID(.joint, number, part) }
        let end = body.center + rotated(attachment.offset, by: body.angle)
        var other: DynamicBody?
        let anchorEnd: Point
        switch attachment.anchor {
        case .point(let p): anchorEnd = p
        case .item(let o, let offset):
            guard let b = bodies[o] else { return }
            other = b
            anchorEnd = b.center + rotated(offset, by: b.angle)
        }
        switch attachment.kind {
        case .spring, .limit:
            let isLimit = attachment.kind == .limit
            let length = attachment.length ?? attachment.currentDistance(bodies) ?? 0
            let label = (isLimit ? "limit " : "spring ") + Self.debugNumber(length)
            shapes.append(DebugShape(id(0), .attachment, .polyline([anchorEnd, end]), label: label))
            shapes.append(DebugShape(id(1), .anchor, .point(anchorEnd)))
            shapes.append(DebugShape(id(2), .anchor, .point(end)))
            // A rope's reach: the circle its end may not leave.
            if isLimit { shapes.append(DebugShape(id(3), .range, .ellipse(center: anchorEnd, radii: Size(width: length, height: length)))) }
        case .sliding, .fixed, .pin:
            guard let frame = attachment.frame ?? attachment.jointFrame(bodies) else { return }
            // The joint's point and axis in reference coordinates, carried by the anchor item.
            let joint: Point, axis: Vector, baseAngle: Double
            if let other {
                joint = other.center + rotated(frame.localA, by: other.angle)
                axis = rotated(frame.axis, by: other.angle)
                baseAngle = other.angle
            } else {
                joint = Point(x: frame.localA.dx, y: frame.localA.dy)
                axis = frame.axis
                baseAngle = 0
            }
            let itemPoint = body.center + rotated(frame.localB, by: body.angle)
            let kindName: String
            switch attachment.kind {
            case .sliding: kindName = "sliding"
            case .fixed: kindName = "fixed"
            default: kindName = "pin"
            }
            shapes.append(DebugShape(id(0), .attachment, .polyline([joint, body.center]), label: kindName))
            shapes.append(DebugShape(id(1), .anchor, .point(joint)))
            shapes.append(DebugShape(id(2), .anchor, .point(itemPoint)))
            let range = attachment.attachmentRange
            if case .sliding = attachment.kind {
                let reach = max(referenceBounds.width, referenceBounds.height)
                shapes.append(DebugShape(id(3), .axis, .polyline([joint - axis * reach, joint + axis * reach])))
                if range.minimum.isFinite || range.maximum.isFinite {
                    let lo = max(range.minimum, -reach), hi = min(range.maximum, reach)
                    // The range is the item's travel from where it was added, along the axis.
                    let origin = joint
                    shapes.append(DebugShape(id(4), .range, .polyline([origin + axis * lo, origin + axis * hi])))
                }
            } else if case .pin = attachment.kind, range.minimum.isFinite || range.maximum.isFinite {
                // The angles the item may turn to: an arc about the joint.
                let lo = max(range.minimum, -Double.pi), hi = min(range.maximum, Double.pi)
                let radius = 0.5 * min(body.size.width, body.size.height)
                let start = baseAngle + frame.referenceAngle
                let arc = (0...16).map { k -> Point in
                    let a = start + lo + (hi - lo) * Double(k) / 16
                    return joint + Vector(angle: a, length: radius)
                }
                shapes.append(DebugShape(id(4), .range, .polyline([joint] + arc + [joint])))
            }
        }
    }

    private func appendDebugShapes(of field: FieldBehavior, number: Int, to shapes: inout [DebugShape]) {
        func id(_ part: Int) -> DebugShapeID { DebugShapeID(.field, number, part) }
        var outlines: [DebugShape.Geometry] = []
        Self.appendOutlines(of: field.region, at: field.position, into: &outlines)
        // The region's label sits on its first outline; an unbounded field is labelled at its position.
        if outlines.isEmpty {
            shapes.append(DebugShape(id(0), .field, .point(field.position), label: Self.name(of: field.kind)))
        }
        for (k, outline) in outlines.enumerated() {
            shapes.append(DebugShape(id(k), .field, outline, label: k == 0 ? Self.name(of: field.kind) : nil))
        }
        // Direction arrows on a grid over the region's bounds (the reference bounds when unbounded).
        let area = Self.bounds(of: field.region, at: field.position) ?? referenceBounds
        guard area.width > 0, area.height > 0 else { return }
        let columns = min(Self.debugFieldSamples, max(1, Int(area.width / Self.debugFieldSpacing)))
        let rows = min(Self.debugFieldSamples, max(1, Int(area.height / Self.debugFieldSpacing)))
        let cell = Size(width: area.width / Double(columns), height: area.height / Double(rows))
        let arrowLength = 0.4 * min(cell.width, cell.height)
        var probe = DynamicBody(center: .zero, size: Size(width: 100, height: 100))
        probe.properties.charge = 1
        var part = 100
        for row in 0..<rows {
            for column in 0..<columns {
                let p = Point(x: area.minX + (Double(column) + 0.5) * cell.width, y: area.minY + (Double(row) + 0.5) * cell.height)
                part += 1
                guard field.region.contains(p.vector(from: field.position)) else { continue }
                probe.center = p
                var direction: Vector
                if case .velocity(let d) = field.kind { direction = d * field.strength } else { direction = field.force(on: probe, step: step) }
                guard direction.lengthSquared > 0, direction.dx.isFinite, direction.dy.isFinite else { continue }
                direction = direction.normalized
                shapes.append(DebugShape(id(part), .fieldArrow,
                                         .arrow(from: p - direction * (arrowLength / 2), to: p + direction * (arrowLength / 2))))
            }
        }
    }

    /// The outlines of a region's parts (an inverse region's is its inner part's).
    static func appendOutlines(of region: FieldRegion, at c: Point, into outlines: inout [DebugShape.Geometry]) {
        switch region {
        case .infinite: break
        case .rect(let s): outlines.append(.box(center: c, size: s, angle: 0))
        case .circle(let r): outlines.append(.ellipse(center: c, radii: Size(width: r, height: r)))
        case .ellipse(let s): outlines.append(.ellipse(center: c, radii: Size(width: s.width / 2, height: s.height / 2)))
        case .inverse(let inner): appendOutlines(of: inner, at: c, into: &outlines)
        case .union(let a, let b), .difference(let a, let b), .intersection(let a, let b):
            appendOutlines(of: a, at: c, into: &outlines)
            appendOutlines(of: b, at: c, into: &outlines)
        }
    }

    /// The rect a region lies in, nil when it is unbounded.
    static func bounds(of region: FieldRegion, at c: Point) -> Rect? {
        func around(_ w: Double, _ h: Double) -> Rect { Rect(x: c.x - w / 2, y: c.y - h / 2, width: w, height: h) }
        switch region {
        case .infinite, .inverse: return nil
        case .rect(let s), .ellipse(let s): return around(s.width, s.height)
        case .circle(let r): return around(2 * r, 2 * r)
        case .union(let a, let b):
            guard let x = bounds(of: a, at: c), let y = bounds(of: b, at: c) else { return nil }
            return x.union(y)
        case .difference(let a, _): return bounds(of: a, at: c)
        case .intersection(let a, let b): return bounds(of: a, at: c) ?? bounds(of: b, at: c)
        }
    }

    /// A field kind's name as `dynamics.add` spells it.
    public static func name(of kind: FieldKind) -> String {
        switch kind {
        case .linearGravity: "linearGravity"
        case .radialGravity: "radialGravity"
        case .velocity: "velocity"
        case .drag: "drag"
        case .noise: "noise"
        case .turbulence: "turbulence"
        case .spring: "spring"
        case .electric: "electric"
        case .magnetic: "magnetic"
        case .vortex: "vortex"
        }
    }

    /// A length in a label: whole points, or tenths below 10.
    static func debugNumber(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        return value >= 10 ? "\(Int(value.rounded()))" : "\((value * 10).rounded() / 10)"
    }
}
