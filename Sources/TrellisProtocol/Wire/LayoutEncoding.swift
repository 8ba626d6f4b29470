import TrellisCore

/// Writes a layout back as its protocol object through the layout registry, the inverse of
/// `LayoutSpec.layout`: decoding the result gives a layout with equal configuration. Every
/// parameter is written, defaults included, so the object does not depend on today's defaults
/// (an optional parameter that is unset is left out).
public enum LayoutEncoding {
    /// The protocol object of `layout`, or nil for a layout the registry does not know (a
    /// test's, say): the caller decides what to do without it.
    public static func json(_ layout: any Layout) -> JSONValue? {
        guard let registered = layout as? any RegisteredLayout else { return nil }
        return object(registered)
    }

    /// Every parameter of a registered layout, by name, and its type.
    static func object<L: RegisteredLayout>(_ layout: L) -> JSONValue {
        var members: [String: JSONValue] = ["type": .string(L.typeName)]
        for parameter in L.parameters {
            if let value = parameter.get(layout) { members[parameter.description.name] = LayoutParameterCoding.json(value) }
        }
        return .object(members)
    }

    static func size(_ s: Size) -> JSONValue { .array([.number(s.width), .number(s.height)]) }
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
        if let data = item.data { members["data"] = data.json }
        return .object(members)
    }
}
