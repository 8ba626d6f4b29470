import TrellisCore

/// Writes a layout back as its protocol object (`{type:"flow", …}`, `{type:"circle", …}`), the
/// inverse of `LayoutSpec.layout`: decoding the result gives a layout with equal configuration.
/// Every value is written, defaults included, so the object does not depend on today's defaults.
public enum LayoutEncoding {
    /// The protocol object of `layout`, or nil for a layout type this encoder does not know
    /// (the caller decides what to do without it; a snapshot, for one, waits).
    public static func json(_ layout: any Layout) -> JSONValue? {
        switch layout {
        case let flow as FlowLayout: return json(flow.metrics)
        case let circle as CircleLayout: return json(circle)
        default: return nil
        }
    }

    /// `{type:"flow", …}` with every key `LayoutSpec` reads.
    public static func json(_ m: FlowLayoutMetrics) -> JSONValue {
        var members: [String: JSONValue] = [
            "type": .string("flow"),
            "itemSize": size(m.itemSize),
            "minimumLineSpacing": .number(m.minimumLineSpacing),
            "minimumInteritemSpacing": .number(m.minimumInteritemSpacing),
            "sectionInset": insets(m.sectionInset),
            "headerSize": size(m.headerReferenceSize),
            "footerSize": size(m.footerReferenceSize),
            "scrollDirection": .string(m.scrollDirection.rawValue),
            "pinHeaders": .bool(m.sectionHeadersPinToVisibleBounds),
            "pinFooters": .bool(m.sectionFootersPinToVisibleBounds),
            "sectionBackground": .bool(m.sectionBackgroundDecoration),
        ]
        if !m.sectionOverrides.isEmpty {
            var sections: [String: JSONValue] = [:]
            for (index, o) in m.sectionOverrides {
                var s: [String: JSONValue] = [:]
                if let v = o.inset { s["sectionInset"] = insets(v) }
                if let v = o.minimumLineSpacing { s["minimumLineSpacing"] = .number(v) }
                if let v = o.minimumInteritemSpacing { s["minimumInteritemSpacing"] = .number(v) }
                if let v = o.headerReferenceSize { s["headerSize"] = size(v) }
                if let v = o.footerReferenceSize { s["footerSize"] = size(v) }
                sections[String(index)] = .object(s)
            }
            members["sections"] = .object(sections)
        }
        return .object(members)
    }

    /// `{type:"circle", itemSize, radius?}` (no radius: the sample's min(width, height) / 2.5).
    public static func json(_ layout: CircleLayout) -> JSONValue {
        var members: [String: JSONValue] = ["type": .string("circle"), "itemSize": size(layout.itemSize)]
        if let radius = layout.radius { members["radius"] = .number(radius) }
        return .object(members)
    }

    static func size(_ s: Size) -> JSONValue { .array([.number(s.width), .number(s.height)]) }

    /// `[top, left, bottom, right]`, the order `LayoutSpec` reads.
    static func insets(_ i: EdgeInsets) -> JSONValue {
        .array([.number(i.top), .number(i.left), .number(i.bottom), .number(i.right)])
    }
}

/// Writes a data set back as the protocol's `sections` array (`[{id, items:[{id, size?,
/// reuseId?, data?}]}]`), the inverse of `WireDecoding.data`.
public enum DataEncoding {
    public static func sections(_ data: CollectionData) -> JSONValue {
        .array(data.sections.map { section in
            .object(["id": .string(section.id.rawValue), "items": .array(section.items.map(item))])
        })
    }

    /// `{id, size?, reuseId?, data?}`: optional keys only when they differ from the decoder's default.
    public static func item(_ item: Item) -> JSONValue {
        var members: [String: JSONValue] = ["id": .string(item.id.rawValue)]
        if let size = item.size { members["size"] = LayoutEncoding.size(size) }
        if item.reuseIdentifier != Item.defaultReuseIdentifier { members["reuseId"] = .string(item.reuseIdentifier) }
        if let data = item.data { members["data"] = data }
        return .object(members)
    }
}
