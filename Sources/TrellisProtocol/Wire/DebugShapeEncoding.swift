#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisCore
import TrellisDynamics

/// The debug layer on the wire: each shape as `{"id":"item.3.0","kind":"collision","polygon":[x0,y0,…]}`
/// (or `polyline`, `ellipse` [cx,cy,rx,ry], `point` [x,y], `arrow` [x0,y0,x1,y1]) with an optional
/// `label`, numbers rounded as views' geometry is; `"view":N` after the kind when the geometry
/// is in that view's own coordinates.
extension WireEncoding {
    public static func writeDebugShape(_ shape: DebugShape, into b: inout ByteBuffer) {
        // The id, kind and geometry of all but paths go through one scratch write: a frame of a
        // moving pile writes thousands of shapes, and each append of its own was most of the cost.
        let room = 160 + 8 * (ScratchWriter.maximumNumberBytes + 1)
        switch shape.geometry {
        case .polygon(let points), .polyline(let points):
            b.appendScratch(maximumCount: room) { s in head(shape, &s) }
            if case .polygon = shape.geometry { b.append("\"polygon\":") } else { b.append("\"polyline\":") }
            writeFlat(points, into: &b)
        case .box(let c, let size, let angle):
            b.appendScratch(maximumCount: room) { s in
                head(shape, &s)
                s.raw("\"polygon\":[")
                // The corners clockwise on screen from the top left, as `Geometry.corners` gives
                // them, without an array.
                let hw = size.width / 2, hh = size.height / 2
                if angle == 0 {
                    numbers(&s, c.x - hw, c.y - hh, c.x + hw, c.y - hh)
                    s.byte(UInt8(ascii: ","))
                    numbers(&s, c.x + hw, c.y + hh, c.x - hw, c.y + hh)
                } else {
                    let sn = sin(angle), cs = cos(angle)
                    let ax = hw * cs, ay = hw * sn, bx = -hh * sn, by = hh * cs
                    numbers(&s, c.x - ax - bx, c.y - ay - by, c.x + ax - bx, c.y + ay - by)
                    s.byte(UInt8(ascii: ","))
                    numbers(&s, c.x + ax + bx, c.y + ay + by, c.x - ax + bx, c.y - ay + by)
                }
                s.byte(UInt8(ascii: "]"))
            }
        case .ellipse(let c, let r):
            b.appendScratch(maximumCount: room) { s in
                head(shape, &s)
                s.raw("\"ellipse\":[")
                numbers(&s, c.x, c.y, r.width, r.height)
                s.byte(UInt8(ascii: "]"))
            }
        case .point(let p):
            b.appendScratch(maximumCount: room) { s in
                head(shape, &s)
                s.raw("\"point\":[")
                s.rounded(p.x, places: geometryPlaces)
                s.byte(UInt8(ascii: ","))
                s.rounded(p.y, places: geometryPlaces)
                s.byte(UInt8(ascii: "]"))
            }
        case .arrow(let from, let to):
            b.appendScratch(maximumCount: room) { s in
                head(shape, &s)
                s.raw("\"arrow\":[")
                numbers(&s, from.x, from.y, to.x, to.y)
                s.byte(UInt8(ascii: "]"))
            }
        }
        if let label = shape.label {
            b.append(",\"label\":")
            JSONWriter.writeString(label, into: &b)
        }
        b.append(UInt8(ascii: "}"))
    }

    /// `{"id":"group.owner.part","kind":"KIND",` and `"view":N,` (at most 128 bytes: the names are short).
    @inline(__always)
    private static func head(_ shape: DebugShape, _ s: inout ScratchWriter) {
        s.raw("{\"id\":\"")
        s.raw(shape.id.group.name)
        s.byte(UInt8(ascii: "."))
        s.int(shape.id.owner)
        s.byte(UInt8(ascii: "."))
        s.int(shape.id.part)
        s.raw("\",\"kind\":\"")
        s.raw(shape.kind.name)
        s.raw("\",")
        if let view = shape.view {
            s.raw("\"view\":")
            s.int(view)
            s.byte(UInt8(ascii: ","))
        }
    }

    /// Four numbers, comma-separated.
    @inline(__always)
    private static func numbers(_ s: inout ScratchWriter, _ a: Double, _ b: Double, _ c: Double, _ d: Double) {
        s.rounded(a, places: geometryPlaces); s.byte(UInt8(ascii: ","))
        s.rounded(b, places: geometryPlaces); s.byte(UInt8(ascii: ","))
        s.rounded(c, places: geometryPlaces); s.byte(UInt8(ascii: ","))
        s.rounded(d, places: geometryPlaces)
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

}
