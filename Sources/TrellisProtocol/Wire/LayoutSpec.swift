import TrellisCore

/// Builds a layout from its protocol object: `{type:"flow", …}` or `{type:"circle", …}`, with
/// UIKit's defaults for every missing key; unknown keys and wrong types are refused by name.
public enum LayoutSpec {
    public static let flowKeys: Set<String> = [
        "type", "itemSize", "minimumLineSpacing", "minimumInteritemSpacing", "sectionInset", "headerSize",
        "footerSize", "scrollDirection", "pinHeaders", "pinFooters", "sectionBackground", "sections",
    ]
    static let sectionKeys: Set<String> = ["sectionInset", "minimumLineSpacing", "minimumInteritemSpacing", "headerSize", "footerSize"]

    public static func layout(_ value: JSONValue, path: String = "params.layout") throws(ParamError) -> any Layout {
        let type = try value.requireString("type", in: path)
        switch type {
        case "flow": return try flow(value, path: path)
        case "circle": return try circle(value, path: path)
        default:
            throw ParamError(path: "\(path).type", .mismatch(expected: "one of \"flow\", \"circle\"", found: "\"\(type)\""))
        }
    }

    static func flow(_ value: JSONValue, path: String) throws(ParamError) -> FlowLayout {
        try value.rejectUnknownKeys(allowed: flowKeys, path: path)
        var m = FlowLayoutMetrics()
        if let s = try value.optionalNumbers("itemSize", count: 2, labels: ["width", "height"], in: path) {
            guard s[0] > 0, s[1] > 0 else {
                throw ParamError(path: "\(path).itemSize", .mismatch(expected: "a positive width and height", found: "[\(s[0]), \(s[1])]"))
            }
            m.itemSize = Size(s[0], s[1])
        }
        if let v = try nonNegative(value, "minimumLineSpacing", path) { m.minimumLineSpacing = v }
        if let v = try nonNegative(value, "minimumInteritemSpacing", path) { m.minimumInteritemSpacing = v }
        if let i = try insets(value, "sectionInset", path) { m.sectionInset = i }
        if let s = try referenceSize(value, "headerSize", path) { m.headerReferenceSize = s }
        if let s = try referenceSize(value, "footerSize", path) { m.footerReferenceSize = s }
        if let d = try value.optionalString("scrollDirection", in: path) {
            guard let direction = FlowLayout.ScrollDirection(rawValue: d) else {
                throw ParamError(path: "\(path).scrollDirection", .mismatch(expected: "\"vertical\" or \"horizontal\"", found: "\"\(d)\""))
            }
            m.scrollDirection = direction
        }
        m.sectionHeadersPinToVisibleBounds = try value.optionalBool("pinHeaders", in: path) ?? false
        m.sectionFootersPinToVisibleBounds = try value.optionalBool("pinFooters", in: path) ?? false
        m.sectionBackgroundDecoration = try value.optionalBool("sectionBackground", in: path) ?? false
        if let sections = try value.optionalObject("sections", in: path), case .object(let members) = sections {
            for (key, spec) in members {
                let sectionPath = "\(path).sections.\(key)"
                guard let index = Int(key), index >= 0 else {
                    throw ParamError(path: sectionPath, .mismatch(expected: "a section index as the key (\"0\", \"1\", …)", found: "\"\(key)\""))
                }
                guard case .object = spec else {
                    throw ParamError(path: sectionPath, .mismatch(expected: "an object", found: spec.kindDescription))
                }
                try spec.rejectUnknownKeys(allowed: sectionKeys, path: sectionPath)
                var o = FlowSectionOverrides()
                o.inset = try insets(spec, "sectionInset", sectionPath)
                o.minimumLineSpacing = try nonNegative(spec, "minimumLineSpacing", sectionPath)
                o.minimumInteritemSpacing = try nonNegative(spec, "minimumInteritemSpacing", sectionPath)
                o.headerReferenceSize = try referenceSize(spec, "headerSize", sectionPath)
                o.footerReferenceSize = try referenceSize(spec, "footerSize", sectionPath)
                m.sectionOverrides[index] = o
            }
        }
        return FlowLayout(metrics: m)
    }

    static func circle(_ value: JSONValue, path: String) throws(ParamError) -> CircleLayout {
        try value.rejectUnknownKeys(allowed: ["type", "itemSize", "radius"], path: path)
        var layout = CircleLayout()
        if let s = try value.optionalNumbers("itemSize", count: 2, labels: ["width", "height"], in: path) {
            guard s[0] > 0, s[1] > 0 else {
                throw ParamError(path: "\(path).itemSize", .mismatch(expected: "a positive width and height", found: "[\(s[0]), \(s[1])]"))
            }
            layout.itemSize = Size(s[0], s[1])
        }
        layout.radius = try nonNegative(value, "radius", path)
        return layout
    }

    private static func nonNegative(_ value: JSONValue, _ key: String, _ path: String) throws(ParamError) -> Double? {
        guard let v = try value.optionalNumber(key, in: path) else { return nil }
        guard v >= 0 else { throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a number of 0 or more", found: "\(v)")) }
        return v
    }

    /// A header/footer reference size: zero along the scroll axis means none; negative is refused.
    private static func referenceSize(_ value: JSONValue, _ key: String, _ path: String) throws(ParamError) -> Size? {
        guard let s = try value.optionalNumbers(key, count: 2, labels: ["width", "height"], in: path) else { return nil }
        guard s[0] >= 0, s[1] >= 0 else {
            throw ParamError(path: "\(path).\(key)", .mismatch(expected: "a width and height of 0 or more (0 along the scroll axis means none)", found: "[\(s[0]), \(s[1])]"))
        }
        return Size(s[0], s[1])
    }

    private static func insets(_ value: JSONValue, _ key: String, _ path: String) throws(ParamError) -> EdgeInsets? {
        guard let i = try value.optionalNumbers(key, count: 4, labels: ["top", "left", "bottom", "right"], in: path) else { return nil }
        return EdgeInsets(top: i[0], left: i[1], bottom: i[2], right: i[3])
    }
}
