#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisGeometry

/// One shape of the debug layer (UIKit Dynamics' `debugEnabled` view, Box2D's debug draw):
/// something that acts on the scene, drawn in content coordinates or, when it belongs to an item
/// shown by a view, in that view's own coordinates (`view`), under a stable id so that frames
/// carry only the shapes that changed.
public struct DebugShape: Hashable, Sendable {
    /// What the shape shows; viewers style by it.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A dynamic item's collision shape, as it collides.
        case collision
        case centerOfMass
        case velocity
        /// The animator's reference bounds.
        case bounds
        /// A collision boundary: the reference bounds as a boundary, or a named one.
        case boundary
        /// An attachment's line between its anchors (labelled with its kind and rest length).
        case attachment
        case anchor
        /// A sliding attachment's axis.
        case axis
        /// A sliding or pin attachment's limits, a limit attachment's reach.
        case range
        case snap
        /// A field's region (labelled with its kind).
        case field
        /// A field's direction, sampled over its region.
        case fieldArrow
        /// A gravity or push behaviour's direction.
        case force
        case contact
        /// The scroll view's content bounds.
        case content
        /// The edge a scroll is stretched past (rubber-banding) or bouncing back to.
        case rubberBand
        /// Where the visible bounds come to rest at the end of a fling (paging, snapping).
        case target
    }

    /// Where the shape is, in content coordinates.
    public enum Geometry: Hashable, Sendable {
        /// A closed path.
        case polygon([Point])
        /// An open path.
        case polyline([Point])
        /// A rectangle of `size` about `center`, turned by `angle` (radians, clockwise on screen):
        /// written as the polygon of its corners, kept as numbers so that building one allocates nothing.
        case box(center: Point, size: Size, angle: Double)
        /// An axis-aligned ellipse.
        case ellipse(center: Point, radii: Size)
        case point(Point)
        case arrow(from: Point, to: Point)
    }

    public var id: DebugShapeID
    public var kind: Kind
    public var geometry: Geometry
    /// A few words: a field's kind, an attachment's kind and rest length, a boundary's name.
    public var label: String?
    /// The view the geometry is relative to (its number), nil for content coordinates: then the
    /// geometry is in the view's own space, origin at its centre, before its transform, and
    /// viewers draw it through the view's centre and transform. An item's shapes that only
    /// follow the item are sent once this way and move with the view's frame.
    public var view: Int?

    public init(_ id: DebugShapeID, _ kind: Kind, _ geometry: Geometry, label: String? = nil, view: Int? = nil) {
        self.id = id; self.kind = kind; self.geometry = geometry; self.label = label; self.view = view
    }
}

extension DebugShape.Kind {
    /// The kind's name as a constant (the wire writes one per shape, every frame).
    public var name: StaticString {
        switch self {
        case .collision: "collision"
        case .centerOfMass: "centerOfMass"
        case .velocity: "velocity"
        case .bounds: "bounds"
        case .boundary: "boundary"
        case .attachment: "attachment"
        case .anchor: "anchor"
        case .axis: "axis"
        case .range: "range"
        case .snap: "snap"
        case .field: "field"
        case .fieldArrow: "fieldArrow"
        case .force: "force"
        case .contact: "contact"
        case .content: "content"
        case .rubberBand: "rubberBand"
        case .target: "target"
        }
    }
}

extension DebugShape.Geometry {
    /// The corners of a `box`, in order around it; the points of a path.
    public var points: [Point] {
        switch self {
        case .polygon(let p), .polyline(let p): return p
        case .box(let c, let s, let angle):
            return DebugShape.Geometry.corners(center: c, size: s, angle: angle)
        case .ellipse(let c, _), .point(let c): return [c]
        case .arrow(let a, let b): return [a, b]
        }
    }

    /// A turned rectangle's corners, clockwise on screen from its top left.
    public static func corners(center c: Point, size s: Size, angle: Double) -> [Point] {
        let (sn, cs) = (sin(angle), cos(angle))
        let hw = s.width / 2, hh = s.height / 2
        return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { x, y in
            Point(x: c.x + x * cs - y * sn, y: c.y + x * sn + y * cs)
        }
    }
}

/// A debug shape's identity: what it belongs to (`group` and `owner`, an item's or a behaviour's
/// number) and which of its shapes it is (`part`). Written as "group.owner.part".
public struct DebugShapeID: Hashable, Comparable, Sendable {
    /// What owns the shape; the order of the debug layer's shapes.
    public enum Group: UInt8, Hashable, Sendable, CaseIterable {
        case scroll, bounds, boundary, field, force, joint, snap, item, contact

        public var name: StaticString {
            switch self {
            case .scroll: "scroll"
            case .bounds: "bounds"
            case .boundary: "boundary"
            case .field: "field"
            case .force: "force"
            case .joint: "joint"
            case .snap: "snap"
            case .item: "item"
            case .contact: "contact"
            }
        }

        public init?(name: String) {
            guard let g = Group.allCases.first(where: { $0.name.description == name }) else { return nil }
            self = g
        }
    }

    public var group: Group
    public var owner: Int
    public var part: Int

    public init(_ group: Group, _ owner: Int, _ part: Int = 0) { self.group = group; self.owner = owner; self.part = part }

    public static func < (a: DebugShapeID, b: DebugShapeID) -> Bool {
        (a.group.rawValue, a.owner, a.part) < (b.group.rawValue, b.owner, b.part)
    }

    /// "group.owner.part".
    public var text: String { "\(group.name).\(owner).\(part)" }

    /// The id `text` names, or nil.
    public init?(text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let group = Group(name: String(parts[0])), let owner = Int(parts[1]), let part = Int(parts[2])
        else { return nil }
        self.init(group, owner, part)
    }
}
