import TrellisCore

/// Reads the protocol's domain values out of request params (see Protocol/PROTOCOL.md):
/// index paths `[section, item]`, sizes `[w, h]`, items, sections, layouts, batch operations
/// and animation options. Every failure names the key path and what was expected.
public enum WireDecoding {
    /// `[section, item]` with whole, non-negative numbers.
    public static func indexPath(_ value: JSONValue, path: String) throws(ParamError) -> IndexPath {
        guard case .array(let parts) = value, parts.count == 2,
              let s = wholeNumber(parts[0]), let i = wholeNumber(parts[1]) else {
            throw ParamError(path: path, .mismatch(expected: "an index path [section, item] of two whole numbers", found: value.kindDescription))
        }
        return IndexPath(s, i)
    }

    public static func indexPaths(_ values: [JSONValue], path: String) throws(ParamError) -> [IndexPath] {
        var result: [IndexPath] = []
        result.reserveCapacity(values.count)
        for (n, value) in values.enumerated() { result.append(try indexPath(value, path: "\(path)[\(n)]")) }
        return result
    }

    /// A whole number (a section index).
    public static func index(_ value: JSONValue, path: String) throws(ParamError) -> Int {
        guard let n = wholeNumber(value) else {
            throw ParamError(path: path, .mismatch(expected: "a whole number", found: value.kindDescription))
        }
        return n
    }

    public static func size(_ values: [Double]) -> Size { Size(values[0], values[1]) }

    /// `{id, size?, reuseId?, data?}`.
    public static func item(_ value: JSONValue, path: String) throws(ParamError) -> Item {
        try value.rejectUnknownKeys(allowed: ["id", "size", "reuseId", "data"], path: path)
        let id = try value.requireString("id", in: path)
        let size = try value.optionalNumbers("size", count: 2, labels: ["width", "height"], in: path)
        if let size, size[0] <= 0 || size[1] <= 0 {
            throw ParamError(path: "\(path).size", .mismatch(expected: "a positive width and height (UIKit: both values must be greater than 0)", found: "[\(size[0]), \(size[1])]"))
        }
        let reuseId = try value.optionalString("reuseId", in: path) ?? Item.defaultReuseIdentifier
        return Item(id: ItemID(id), size: size.map(Self.size), reuseIdentifier: reuseId, data: value.field("data").map(ItemPayload.init))
    }

    public static func items(_ values: [JSONValue], path: String) throws(ParamError) -> [Item] {
        var result: [Item] = []
        result.reserveCapacity(values.count)
        for (n, value) in values.enumerated() {
            // A million items come this way in a chunked reload: the common forms are read in
            // one pass over the members with no key path built; anything else (an error among
            // it) goes the checked way, which words the error.
            if let item = commonItem(value) {
                result.append(item)
            } else {
                result.append(try item(value, path: "\(path)[\(n)]"))
            }
        }
        return result
    }

    /// An item in a form `item(_:path:)` accepts as it is: a string id, a positive size of two
    /// numbers, a string reuse id, any data, and no other key; nil for anything else.
    static func commonItem(_ value: JSONValue) -> Item? {
        guard case .object(let members) = value else { return nil }
        var id: String?, size: Size?, reuseIdentifier = Item.defaultReuseIdentifier, data: ItemPayload?
        for (key, member) in members {
            switch key {
            case "id":
                guard case .string(let text) = member else { return nil }
                id = text
            case "size":
                guard case .array(let pair) = member, pair.count == 2, case .number(let width) = pair[0],
                      case .number(let height) = pair[1], width > 0, height > 0 else { return nil }
                size = Size(width, height)
            case "reuseId":
                guard case .string(let text) = member else { return nil }
                reuseIdentifier = text
            case "data":
                data = ItemPayload(member)
            default:
                return nil
            }
        }
        guard let id else { return nil }
        return Item(id: ItemID(id), size: size, reuseIdentifier: reuseIdentifier, data: data)
    }

    /// `{id, items:[…]}`.
    public static func section(_ value: JSONValue, path: String) throws(ParamError) -> Section {
        try value.rejectUnknownKeys(allowed: ["id", "items"], path: path)
        let id = try value.requireString("id", in: path)
        let items = try items(value.optionalArray("items", in: path) ?? [], path: "\(path).items")
        return Section(id: SectionID(id), items: items)
    }

    public static func sections(_ values: [JSONValue], path: String) throws(ParamError) -> [Section] {
        var result: [Section] = []
        for (n, value) in values.enumerated() { result.append(try section(value, path: "\(path)[\(n)]")) }
        return result
    }

    /// The `sections` key as a whole data set; duplicate identifiers are refused by name.
    public static func data(_ params: JSONValue, key: String = "sections", path: String = "params") throws(WireError) -> CollectionData {
        let list: [JSONValue]
        do { list = try params.requireArray(key, in: path) } catch { throw .params(error) }
        let parsed: [Section]
        do { parsed = try sections(list, path: "\(path).\(key)") } catch { throw .params(error) }
        do { return try CollectionData(sections: parsed) } catch { throw .data(error) }
    }

    /// Animation options: `animated?` (default true), `duration?` (seconds, default 0.3),
    /// `delay?`, `curve?` ("linear", "easeIn", "easeOut", "easeInEaseOut", "spring"),
    /// `damping?` and `velocity?` for springs.
    /// `base` gives the duration and curve of keys that are missing.
    /// An animation's duration and delay, in seconds: ten minutes is far past any animation
    /// people watch, and keeps a spring's settling search and every end time finite (ours).
    public static let timingRange: ClosedRange<Double> = 0...600

    /// The animation options every animated method takes, one set for all of them.
    public static let timingKeys: [String] = ["animated", "duration", "delay", "curve", "damping", "velocity"]

    /// `timingKeys` read into a timing: not animated unless `animated` (default
    /// `defaultAnimated`), else `base` with what the params change.
    public static func timing(_ params: JSONValue, defaultAnimated: Bool = true,
                              base: AnimationTiming = .default) throws(ParamError) -> AnimationTiming {
        // Every option is checked even when the change is not animated: a bad value is an error
        // whatever else the request says.
        let animated = try params.optionalBool("animated") ?? defaultAnimated
        let duration = try params.optionalNumber("duration") ?? base.duration
        let delay = try params.optionalNumber("delay") ?? 0
        guard timingRange.contains(duration) else {
            throw ParamError(path: "params.duration", .mismatch(expected: "a duration from 0 to 600 seconds", found: "\(duration)"))
        }
        guard timingRange.contains(delay) else {
            throw ParamError(path: "params.delay", .mismatch(expected: "a delay from 0 to 600 seconds", found: "\(delay)"))
        }
        let damping = try params.optionalNumber("damping") ?? 1
        let velocity = try params.optionalNumber("velocity") ?? 0
        guard damping > 0, damping <= 100 else {
            throw ParamError(path: "params.damping", .mismatch(expected: "a damping ratio above 0 and at most 100 (1 is critically damped)", found: "\(damping)"))
        }
        guard abs(velocity) <= 1000 else {
            throw ParamError(path: "params.velocity", .mismatch(expected: "an initial velocity between -1000 and 1000 (in whole changes per second)", found: "\(velocity)"))
        }
        var curve = base.curve
        if let name = try params.optionalString("curve") {
            guard let parsed = TimingCurve(name: name, dampingRatio: damping, initialVelocity: velocity) else {
                throw ParamError(path: "params.curve", .mismatch(expected: "one of \(TimingCurve.names.joined(separator: ", "))", found: "\"\(name)\""))
            }
            curve = parsed
        }
        return animated ? AnimationTiming(duration: duration, delay: delay, curve: curve) : .immediate
    }

    static func wholeNumber(_ value: JSONValue) -> Int? {
        guard case .number(let n) = value, n >= 0, n == n.rounded(), n < 1e15 else { return nil }
        return Int(n)
    }
}

/// A request whose params are wrong (JSON-RPC -32602) or whose data is refused (duplicates).
public enum WireError: Error, Sendable, CustomStringConvertible {
    case params(ParamError)
    case data(DataError)

    public var description: String {
        switch self {
        case .params(let e): return e.message
        case .data(let e): return e.description
        }
    }
}
