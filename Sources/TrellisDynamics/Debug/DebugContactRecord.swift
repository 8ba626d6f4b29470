import TrellisGeometry

/// One contact of the debug layer as plain numbers: the first item's number, the part (the
/// other item's number, or −1 − the boundary's against a boundary) and the point, rounded to
/// whole points. Kept sorted by (first, part) in a contiguous array and diffed by a merge.
public struct DebugContactRecord: Equatable, Sendable {
    public var first: Int
    public var part: Int
    public var x: Double
    public var y: Double

    public init(first: Int, part: Int, x: Double, y: Double) {
        self.first = first; self.part = part; self.x = x; self.y = y
    }

    @inlinable public static func == (a: DebugContactRecord, b: DebugContactRecord) -> Bool {
        a.first == b.first && a.part == b.part && a.x == b.x && a.y == b.y
    }

    /// The order of the contacts' shape ids.
    @inlinable public func precedes(_ other: DebugContactRecord) -> Bool {
        first != other.first ? first < other.first : part < other.part
    }

    @inlinable public func sameContact(as other: DebugContactRecord) -> Bool {
        first == other.first && part == other.part
    }

    /// At most a point from `other` on each axis: viewers keep the point they have.
    @inlinable public func isWithinStep(of other: DebugContactRecord) -> Bool {
        abs(x - other.x) <= 1 && abs(y - other.y) <= 1
    }

    public var id: DebugShapeID { DebugShapeID(.contact, first, part) }

    public var shape: DebugShape { DebugShape(id, .contact, .point(Point(x: x, y: y))) }
}
