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

    /// The `sections` array written straight into `buffer`, the same bytes as writing
    /// `sections(data)`: a snapshot of a million items is written without building a million
    /// JSON objects first (keys in JSONWriter's order: data, id, reuseId, size).
    public static func write(sections data: CollectionData, into buffer: inout ByteBuffer) {
        buffer.append(UInt8(ascii: "["))
        for (n, section) in data.sections.enumerated() {
            if n > 0 { buffer.append(UInt8(ascii: ",")) }
            var s = JSONObjectWriter(into: &buffer)
            s.field("id", section.id.rawValue, into: &buffer)
            s.key("items", into: &buffer)
            buffer.append(UInt8(ascii: "["))
            for (k, item) in section.items.enumerated() {
                if k > 0 { buffer.append(UInt8(ascii: ",")) }
                write(item, into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
            s.end(into: &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    private static func write(_ item: Item, into buffer: inout ByteBuffer) {
        var o = JSONObjectWriter(into: &buffer)
        if let data = item.data {
            o.key("data", into: &buffer)
            data.write(into: &buffer)
        }
        o.field("id", item.id.rawValue, into: &buffer)
        if item.reuseIdentifier != Item.defaultReuseIdentifier { o.field("reuseId", item.reuseIdentifier, into: &buffer) }
        if let size = item.size {
            o.key("size", into: &buffer)
            buffer.append(UInt8(ascii: "["))
            JSONWriter.writeNumber(size.width, into: &buffer)
            buffer.append(UInt8(ascii: ","))
            JSONWriter.writeNumber(size.height, into: &buffer)
            buffer.append(UInt8(ascii: "]"))
        }
        o.end(into: &buffer)
    }
}
