#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisCore
import TrellisDynamics

/// The debug layer on the wire: each shape as `{"id":"item.3.0","kind":"collision","polygon":[x0,y0,…]}`
/// (or `polyline`, `ellipse` [cx,cy,rx,ry], `point` [x,y], `arrow` [x0,y0,x1,y1]) with an optional
/// `label`, numbers rounded as views' geometry is.
extension WireEncoding {
    public static func writeDebugShape(_ shape: DebugShape, into b: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &b)
        o.key("id", into: &b)
        writeDebugShapeID(shape.id, into: &b)
        o.key("kind", into: &b)
        JSONWriter.writeString(shape.kind.rawValue, into: &b)
        switch shape.geometry {
        case .polygon(let points):
            o.key("polygon", into: &b)
            writeFlat(points, into: &b)
        case .polyline(let points):
            o.key("polyline", into: &b)
            writeFlat(points, into: &b)
        case .box(let c, let s, let angle):
            o.key("polygon", into: &b)
            // The corners clockwise on screen from the top left, as `Geometry.corners` gives
            // them, without an array (every dynamic item of every frame has one).
            let hw = s.width / 2, hh = s.height / 2
            if angle == 0 {
                writeNumbers(c.x - hw, c.y - hh, c.x + hw, c.y - hh, c.x + hw, c.y + hh, c.x - hw, c.y + hh, into: &b)
            } else {
                let sn = sin(angle), cs = cos(angle)
                let ax = hw * cs, ay = hw * sn, bx = -hh * sn, by = hh * cs
                writeNumbers(c.x - ax - bx, c.y - ay - by, c.x + ax - bx, c.y + ay - by,
                             c.x + ax + bx, c.y + ay + by, c.x - ax + bx, c.y - ay + by, into: &b)
            }
        case .ellipse(let c, let r):
            o.key("ellipse", into: &b)
            writeNumbers(c.x, c.y, r.width, r.height, into: &b)
        case .point(let p):
            o.key("point", into: &b)
            writeNumbers(p.x, p.y, into: &b)
        case .arrow(let from, let to):
            o.key("arrow", into: &b)
            writeNumbers(from.x, from.y, to.x, to.y, into: &b)
        }
        if let label = shape.label { o.field("label", label, into: &b) }
        o.end(into: &b)
    }

    /// "group.owner.part", written without building the string.
    public static func writeDebugShapeID(_ id: DebugShapeID, into b: inout ByteBuffer) {
        b.append(UInt8(ascii: "\""))
        b.append(id.group.name)
        b.append(UInt8(ascii: "."))
        JSONWriter.writeInt(id.owner, into: &b)
        b.append(UInt8(ascii: "."))
        JSONWriter.writeInt(id.part, into: &b)
        b.append(UInt8(ascii: "\""))
    }

    /// A keyframe's debug layer: `{"shapes":[…]}`, every shape.
    public static func writeDebugLayer(_ shapes: [DebugShape], into b: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &b)
        o.key("shapes", into: &b)
        var a = JSONArrayWriter(into: &b)
        for shape in shapes {
            a.element(into: &b)
            writeDebugShape(shape, into: &b)
        }
        a.end(into: &b)
        o.end(into: &b)
    }

    private static func writeFlat(_ points: [Point], into b: inout ByteBuffer) {
        b.append(UInt8(ascii: "["))
        for (k, p) in points.enumerated() {
            b.appendScratch(maximumCount: 2 * ScratchWriter.maximumNumberBytes + 2) { s in
                if k > 0 { s.byte(UInt8(ascii: ",")) }
                s.rounded(p.x, places: geometryPlaces)
                s.byte(UInt8(ascii: ","))
                s.rounded(p.y, places: geometryPlaces)
            }
        }
        b.append(UInt8(ascii: "]"))
    }

    // Fixed counts rather than a variadic list: that allocated an array per shape.
    private static func writeNumbers(_ a: Double, _ b: Double, into buffer: inout ByteBuffer) {
        buffer.appendScratch(maximumCount: 2 * (ScratchWriter.maximumNumberBytes + 1) + 2) { s in
            s.byte(UInt8(ascii: "[")); number(a, &s, first: true); number(b, &s); s.byte(UInt8(ascii: "]"))
        }
    }

    private static func writeNumbers(_ a: Double, _ b: Double, _ c: Double, _ d: Double, into buffer: inout ByteBuffer) {
        buffer.appendScratch(maximumCount: 4 * (ScratchWriter.maximumNumberBytes + 1) + 2) { s in
            s.byte(UInt8(ascii: "[")); number(a, &s, first: true); number(b, &s); number(c, &s); number(d, &s)
            s.byte(UInt8(ascii: "]"))
        }
    }

    private static func writeNumbers(_ a: Double, _ b: Double, _ c: Double, _ d: Double,
                                     _ e: Double, _ f: Double, _ g: Double, _ h: Double, into buffer: inout ByteBuffer) {
        buffer.appendScratch(maximumCount: 8 * (ScratchWriter.maximumNumberBytes + 1) + 2) { s in
            s.byte(UInt8(ascii: "[")); number(a, &s, first: true); number(b, &s); number(c, &s); number(d, &s)
            number(e, &s); number(f, &s); number(g, &s); number(h, &s)
            s.byte(UInt8(ascii: "]"))
        }
    }

    @inline(__always)
    private static func number(_ v: Double, _ s: inout ScratchWriter, first: Bool = false) {
        if !first { s.byte(UInt8(ascii: ",")) }
        s.rounded(v, places: geometryPlaces)
    }
}
