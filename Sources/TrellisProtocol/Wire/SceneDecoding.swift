import TrellisCore

/// Reads scenes (`query.scene`, keyframes) and `frame` deltas back into domain values: the
/// viewer's side of `WireEncoding`.
public enum WireScene {
    public static func scene(_ value: JSONValue) throws(ParamError) -> Scene {
        let offset = try value.requireNumbers("contentOffset", count: 2, in: "scene")
        let size = try value.requireNumbers("contentSize", count: 2, in: "scene")
        let bounds = try value.requireNumbers("bounds", count: 2, in: "scene")
        var views: [SceneView] = []
        for (n, v) in try value.requireArray("views", in: "scene").enumerated() {
            views.append(try sceneView(v, path: "scene.views[\(n)]"))
        }
        let orthogonal = try orthogonalOffsets(value, path: "scene") ?? [:]
        return Scene(time: try value.requireNumber("time", in: "scene") / 1000, contentOffset: Point(offset[0], offset[1]),
                     contentSize: Size(size[0], size[1]), boundsSize: Size(bounds[0], bounds[1]), views: views,
                     orthogonalOffsets: orthogonal)
    }

    /// The `orthogonal` list of a scene or a frame by section index; nil when absent.
    static func orthogonalOffsets(_ value: JSONValue, path: String) throws(ParamError) -> [Int: Double]? {
        guard let list = try value.optionalArray("orthogonal", in: path) else { return nil }
        var orthogonal: [Int: Double] = [:]
        for (n, entry) in list.enumerated() {
            let entryPath = "\(path).orthogonal[\(n)]"
            let section = try entry.requireNumber("section", in: entryPath)
            guard section >= 0, section == section.rounded(), section <= Double(Int32.max) else {
                throw ParamError(path: "\(entryPath).section", .mismatch(expected: "a section index", found: "\(section)"))
            }
            orthogonal[Int(section)] = try entry.requireNumber("offset", in: entryPath)
        }
        return orthogonal
    }

    public static func sceneView(_ v: JSONValue, path: String) throws(ParamError) -> SceneView {
        let (element, itemID) = try self.element(try v.requireObject("element", in: path), path: "\(path).element")
        let frame = try v.requireNumbers("frame", count: 4, in: path)
        var transform = Transform3D.identity
        if let t = try v.optionalNumbers("transform", count: 16, in: path), let parsed = Transform3D(t) { transform = parsed }
        let attributes = LayoutAttributes(element: element, frame: Rect(frame[0], frame[1], frame[2], frame[3]),
                                          transform: transform, alpha: try v.requireNumber("alpha", in: path),
                                          zIndex: try v.requireInt("zIndex", in: path), isHidden: try v.requireBool("hidden", in: path))
        return SceneView(view: ViewID(try v.requireInt("view", in: path)), reuseIdentifier: try v.requireString("reuseId", in: path),
                         element: element, itemID: itemID, attributes: attributes, data: v.field("data").map(ItemPayload.init))
    }

    public static func element(_ e: JSONValue, path: String) throws(ParamError) -> (ElementID, ItemID?) {
        let section = try e.requireInt("section", in: path)
        switch try e.requireString("kind", in: path) {
        case "cell":
            return (.cell(section, try e.requireInt("item", in: path)), try e.optionalString("id", in: path).map { ItemID($0) })
        case "supplementary":
            let item = e.field("item") == nil ? 0 : try e.requireInt("item", in: path)
            return (ElementID(kind: .supplementary(ElementKindName(try e.requireString("elementKind", in: path))), indexPath: IndexPath(section, item)), nil)
        case "body":
            return (.body(try e.requireInt("item", in: path)), try e.optionalString("id", in: path).map { ItemID($0) })
        case "decoration":
            return (ElementID(kind: .decoration(ElementKindName(try e.requireString("elementKind", in: path))), indexPath: IndexPath(section, 0)), nil)
        case let other:
            throw ParamError(path: "\(path).kind", .mismatch(expected: "cell, supplementary, decoration or body", found: "\"\(other)\""))
        }
    }

    /// The params of a `frame` notification.
    public static func delta(_ p: JSONValue) throws(ParamError) -> SceneDelta {
        let path = "frame"
        var d = SceneDelta(time: try p.requireNumber("time", in: path) / 1000)
        if let o = try p.optionalNumbers("contentOffset", count: 2, in: path) { d.contentOffset = Point(o[0], o[1]) }
        if let s = try p.optionalNumbers("contentSize", count: 2, in: path) { d.contentSize = Size(s[0], s[1]) }
        if let s = try p.optionalNumbers("bounds", count: 2, in: path) { d.boundsSize = Size(s[0], s[1]) }
        d.orthogonalOffsets = try orthogonalOffsets(p, path: path)
        for c in try p.optionalArray("created", in: path) ?? [] {
            d.created.append(.init(view: ViewID(try c.requireInt("view", in: "frame.created")), reuseIdentifier: try c.requireString("reuseId", in: "frame.created")))
        }
        for (n, b) in (try p.optionalArray("bound", in: path) ?? []).enumerated() {
            d.bound.append(.init(view: try sceneView(b, path: "frame.bound[\(n)]"), order: try b.requireInt("order", in: "frame.bound[\(n)]")))
        }
        for (n, c) in (try p.optionalArray("changed", in: path) ?? []).enumerated() {
            let cp = "frame.changed[\(n)]"
            var change = SceneDelta.ChangedView(view: ViewID(try c.requireInt("view", in: cp)))
            if let f = try c.optionalNumbers("frame", count: 4, in: cp) { change.frame = Rect(f[0], f[1], f[2], f[3]) }
            change.alpha = try c.optionalNumber("alpha", in: cp)
            change.zIndex = try c.optionalInt("zIndex", in: cp)
            change.isHidden = try c.optionalBool("hidden", in: cp)
            if let t = try c.optionalNumbers("transform", count: 16, in: cp) { change.transform = Transform3D(t) }
            if let e = try c.optionalObject("element", in: cp) {
                let (element, itemID) = try element(e, path: "\(cp).element")
                change.element = element
                change.itemID = .some(itemID)
            } else if let id = c.field("id") {
                change.itemID = .some(id.stringValue.map { ItemID($0) })
            }
            if let data = c.field("data") { change.data = .some(data == .null ? nil : ItemPayload(data)) }
            change.order = try c.optionalInt("order", in: cp)
            d.changed.append(change)
        }
        for id in try p.optionalArray("unbound", in: path) ?? [] { d.unbound.append(ViewID(Int(id.numberValue ?? -1))) }
        for id in try p.optionalArray("destroyed", in: path) ?? [] { d.destroyed.append(ViewID(Int(id.numberValue ?? -1))) }
        return d
    }
}
