import TrellisCore
import TrellisDynamics

/// Reads the debug layer back (a keyframe's `debug`, a frame's `debug`): the viewer's side of
/// `WireEncoding.writeDebugShape`. A turned box arrives as the polygon of its corners; a shape
/// with `view` keeps it (`DebugLayerPlacement` puts it in content coordinates).
public enum WireDebug {
    /// Every shape of a keyframe's `debug` member.
    public static func layer(_ value: JSONValue, path: String = "debug") throws(ParamError) -> [DebugShape] {
        var shapes: [DebugShape] = []
        for (n, s) in (try value.optionalArray("shapes", in: path) ?? []).enumerated() {
            shapes.append(try shape(s, path: "\(path).shapes[\(n)]"))
        }
        return shapes
    }

    /// A frame's `debug` member, or nil when the frame has none.
    public static func delta(_ frame: JSONValue) throws(ParamError) -> DebugLayerDelta? {
        guard let debug = try frame.optionalObject("debug", in: "frame") else { return nil }
        var d = DebugLayerDelta()
        d.shapes = try layer(debug, path: "frame.debug")
        for (n, id) in (try debug.optionalArray("removed", in: "frame.debug") ?? []).enumerated() {
            d.removed.append(try shapeID(id, path: "frame.debug.removed[\(n)]"))
        }
        return d
    }

    public static func shape(_ s: JSONValue, path: String) throws(ParamError) -> DebugShape {
        let id = try shapeID(s.field("id") ?? .null, path: "\(path).id")
        let kindName = try s.requireString("kind", in: path)
        guard let kind = DebugShape.Kind(rawValue: kindName) else {
            throw ParamError(path: "\(path).kind", .mismatch(expected: "one of \(DebugShape.Kind.allCases.map(\.rawValue).joined(separator: ", "))", found: "\"\(kindName)\""))
        }
        func points(_ key: String) throws(ParamError) -> [Point]? {
            guard let array = try s.optionalArray(key, in: path) else { return nil }
            var numbers: [Double] = []
            for v in array {
                guard let n = v.numberValue else { throw ParamError(path: "\(path).\(key)", .mismatch(expected: "numbers", found: "\(v)")) }
                numbers.append(n)
            }
            guard numbers.count % 2 == 0 else { throw ParamError(path: "\(path).\(key)", .mismatch(expected: "x, y pairs", found: "\(numbers.count) numbers")) }
            return stride(from: 0, to: numbers.count, by: 2).map { Point(numbers[$0], numbers[$0 + 1]) }
        }
        let geometry: DebugShape.Geometry
        if let p = try points("polygon") {
            geometry = .polygon(p)
        } else if let p = try points("polyline") {
            geometry = .polyline(p)
        } else if let e = try s.optionalNumbers("ellipse", count: 4, in: path) {
            geometry = .ellipse(center: Point(e[0], e[1]), radii: Size(e[2], e[3]))
        } else if let p = try s.optionalNumbers("point", count: 2, in: path) {
            geometry = .point(Point(p[0], p[1]))
        } else if let a = try s.optionalNumbers("arrow", count: 4, in: path) {
            geometry = .arrow(from: Point(a[0], a[1]), to: Point(a[2], a[3]))
        } else {
            throw ParamError(path: path, .mismatch(expected: "one of polygon, polyline, ellipse, point, arrow", found: "none"))
        }
        var view: Int?
        if let v = s.field("view"), v != .null {
            guard let n = v.numberValue, n.isFinite, n >= 0, n == n.rounded(), n < 9e15 else {
                throw ParamError(path: "\(path).view", .mismatch(expected: "a view number", found: "\(v)"))
            }
            view = Int(n)
        }
        return DebugShape(id, kind, geometry, label: try s.optionalString("label", in: path), view: view)
    }

    static func shapeID(_ v: JSONValue, path: String) throws(ParamError) -> DebugShapeID {
        guard let text = v.stringValue, let id = DebugShapeID(text: text) else {
            throw ParamError(path: path, .mismatch(expected: "a shape id \"group.owner.part\"", found: "\(v)"))
        }
        return id
    }
}
