import TrellisCore
import TrellisProtocol

/// Builds the protocol's BEHAVIOR object (`dynamics.add`, `dynamics.update`) from the CLI's
/// words: a type, elements, and options whose protocol key depends on the type (`--direction`
/// is gravity's `gravityDirection` but push's `pushDirection`), so one table says which option
/// sets which key of which type, gathered from the behaviours' own declarations. `--merge JSON` and `--set` reach every key the table does not name;
/// they are applied last, so they win. Values are checked for their shape only (a point, a
/// number): ranges are the server's to refuse, in one place.
public struct BehaviorBuilder: Sendable {
    /// The behaviour types of the protocol (its decoders' table).
    public static var types: [String] { BehaviorSpec.typeNames }

    /// The shape an option's text must have (declared with the behaviour's keys).
    typealias ValueKind = BehaviorOption.Kind

    /// An option's protocol key and value shape, per behaviour type.
    struct Target: Sendable {
        var key: String
        var kind: ValueKind
    }

    /// Option name (without `--`) → type → where it goes: the options each registered
    /// behaviour declares (`RegisteredBehavior.options`), gathered by name.
    static let table: [String: [String: Target]] = {
        var table: [String: [String: Target]] = [:]
        for type in BehaviorRegistry.all {
            for option in type.options { table[option.name, default: [:]][type.typeName] = Target(key: option.key, kind: option.kind) }
        }
        return table
    }()

    /// The option names the behaviours declare: what the executable's `BehaviorOptions` must
    /// declare too (ArgumentParser needs them as properties; its test compares the two).
    public static var optionNames: [String] { table.keys.sorted() }

    /// The names an enumerated option takes for each type that has it, for help:
    /// `collision: everything, items or boundaries; push: continuous or instantaneous`.
    public static func choicesHelp(option: String) -> String {
        let byType = table[option] ?? [:]
        return types.compactMap { type in
            guard case .choice(let names)? = byType[type]?.kind else { return nil }
            return "\(type): \(Choices.list(names))"
        }.joined(separator: "; ")
    }

    /// The behaviour's type: one of `types`.
    public var type: String
    /// The elements it acts on, as written (`i3`, `item:i3`, `body:panel`).
    public var elements: [String] = []
    /// Options in the order given: name without `--`, and the text (empty for a flag).
    public var options: [(name: String, value: String)] = []
    /// `--merge` objects, merged in order after the options.
    public var merges: [String] = []
    /// `--set key=value`, applied last.
    public var sets: [String] = []
    /// For `dynamics.update`: elements replace `items` (for every type), and nothing requires one.
    public var isUpdate = false

    public init(type: String) { self.type = type }

    /// The BEHAVIOR object (with `type` for an add; an update sends its keys without it).
    public func behavior() throws(SyntaxError) -> [String: JSONValue] {
        try Choices.check(type, among: Self.types, what: "behaviour type")
        var object: [String: JSONValue] = isUpdate ? [:] : ["type": .string(type)]
        let parsed = try elements.map { text throws(SyntaxError) in try DynamicElement.parse(text) }
        switch type {
        case "attachment" where !isUpdate:
            // attachment A [B]: the item, and what it hangs from when that is another item.
            guard (1...2).contains(parsed.count) else {
                throw SyntaxError("attachment: expected one element (with --anchor X,Y) or two (item, and the one it is attached to)")
            }
            object["item"] = parsed[0].wire
            if parsed.count == 2 { object["attachedTo"] = parsed[1].wire }
        case "snap" where !isUpdate:
            guard parsed.count == 1 else { throw SyntaxError("snap: expected one element (snap ELEMENT --to X,Y)") }
            object["item"] = parsed[0].wire
        case "attachment", "snap":
            guard parsed.isEmpty else { throw SyntaxError("\(type): the elements of a behaviour that exists cannot change; remove it and add another") }
        case "composite":
            guard parsed.isEmpty else { throw SyntaxError("composite: give its children with --merge '{\"children\":[…]}', not elements") }
        default:
            if !parsed.isEmpty { object["items"] = .array(parsed.map(\.wire)) }
        }
        for (name, text) in options {
            guard let byType = Self.table[name] else { throw SyntaxError("--\(name): not a behaviour option") }
            guard let target = byType[type] else {
                let owners = Self.types.filter { byType[$0] != nil }
                throw SyntaxError("--\(name) applies to \(owners.joined(separator: " and ")) behaviours, not \(type)")
            }
            let value = try Self.value(text, kind: target.kind, option: name)
            if case .boundary = target.kind {
                object[target.key] = .array((object[target.key]?.arrayValue ?? []) + [value])
            } else {
                object[target.key] = value
            }
        }
        for text in merges {
            guard case .object(let members) = try Self.parseJSON(text, what: "--merge") else {
                throw SyntaxError("--merge '\(text)': expected a JSON object, e.g. '{\"magnitude\": 2}'")
            }
            object.merge(members) { $1 }
        }
        for text in sets {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw SyntaxError("--set '\(text)': expected KEY=VALUE, e.g. --set magnitude=2")
            }
            let key = String(text[..<equals]), raw = String(text[text.index(after: equals)...])
            // JSON when it reads as JSON (numbers, true, [1,2], {…}), else the text as a string.
            object[key] = (try? Self.parseJSON(raw, what: "--set")) ?? .string(raw)
        }
        if isUpdate { object["type"] = nil }
        return object
    }

    /// Checks what can be checked without the type (for `dynamics.update`, whose type the
    /// server knows): elements, that each option exists and its value fits one of the shapes
    /// it takes, `--merge` and `--set`.
    public func shapesChecked() throws(SyntaxError) {
        for text in elements { _ = try DynamicElement.parse(text) }
        for (name, text) in options {
            guard let byType = Self.table[name] else { throw SyntaxError("--\(name): not a behaviour option") }
            var firstError: SyntaxError?
            for type in Self.types {
                guard let target = byType[type] else { continue }
                do { _ = try Self.value(text, kind: target.kind, option: name); firstError = nil; break } catch { firstError = firstError ?? error }
            }
            if let firstError { throw firstError }
        }
        var probe = BehaviorBuilder(type: "composite")
        probe.merges = merges
        probe.sets = sets
        _ = try probe.behavior()
    }

    // MARK: Values

    static func value(_ text: String, kind: ValueKind, option: String) throws(SyntaxError) -> JSONValue {
        func pair(_ a: Double, _ b: Double) -> JSONValue { .array([.number(a), .number(b)]) }
        switch kind {
        case .number:
            guard let n = CommandSyntax.number(Substring(text)) else { throw SyntaxError("--\(option) '\(text)': expected a number") }
            return .number(n)
        case .point, .vector, .pair:
            let n = try CommandSyntax.numbers(text, count: 2, example: kind.isPair ? "MIN,MAX, e.g. 0,100" : "X,Y, e.g. 0,1")
            return pair(n[0], n[1])
        case .insets:
            let i = try CommandSyntax.insets(text)
            return .array([i.top, i.left, i.bottom, i.right].map { .number($0) })
        case .element:
            return try DynamicElement.parse(text).wire
        case .choice(let names):
            return .string(try Choices.check(text, among: names, what: "--\(option)"))
        case .bool:
            return .bool(try Choices.check(text, among: ["true", "false"], what: "--\(option)") == "true")
        case .flag(let value):
            return value
        case .boundary:
            return try boundary(text)
        case .region:
            return try region(text)
        }
    }

    /// `ID:x1,y1,x2,y2` (a segment), `ID:rect:x,y,w,h` or `ID:ellipse:x,y,w,h`.
    static func boundary(_ text: String) throws(SyntaxError) -> JSONValue {
        let usage = "expected --boundary ID:x1,y1,x2,y2, ID:rect:x,y,w,h or ID:ellipse:x,y,w,h"
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { throw SyntaxError("'\(text)': \(usage)") }
        let id = JSONValue.string(String(text[..<colon]))
        let shape = String(text[text.index(after: colon)...])
        for name in ["rect", "ellipse"] where shape.hasPrefix(name + ":") {
            let r = try CommandSyntax.rect(String(shape.dropFirst(name.count + 1)))
            return .object(["id": id, name: .array([r.minX, r.minY, r.width, r.height].map { .number($0) })])
        }
        let n: [Double]
        do { n = try CommandSyntax.numbers(shape, count: 4, example: "") } catch { throw SyntaxError("'\(text)': \(usage)") }
        return .object(["id": id, "from": .array([.number(n[0]), .number(n[1])]), "to": .array([.number(n[2]), .number(n[3])])])
    }

    /// `infinite`, `rect:W,H`, `ellipse:W,H`, `circle:R`, each optionally after `inverse:`
    /// (unions and the rest through `--merge '{"region": …}'`).
    static func region(_ text: String) throws(SyntaxError) -> JSONValue {
        if text.hasPrefix("inverse:") { return .object(["inverse": try region(String(text.dropFirst(8)))]) }
        if text == "infinite" { return .object(["shape": .string("infinite")]) }
        for name in ["rect", "ellipse"] where text.hasPrefix(name + ":") {
            let s = try CommandSyntax.size(String(text.dropFirst(name.count + 1)))
            return .object(["shape": .string(name), "size": .array([.number(s.width), .number(s.height)])])
        }
        if text.hasPrefix("circle:"), let r = CommandSyntax.number(text.dropFirst(7)), r > 0 {
            return .object(["shape": .string("circle"), "radius": .number(r)])
        }
        throw SyntaxError("'\(text)': expected a region infinite, rect:W,H, ellipse:W,H or circle:R (inverse:… inverts it)")
    }

    static func parseJSON(_ text: String, what: String) throws(SyntaxError) -> JSONValue {
        try CommandSyntax.json(text, what: what)
    }
}

extension BehaviorOption.Kind {
    var isPair: Bool { if case .pair = self { return true } else { return false } }
}
