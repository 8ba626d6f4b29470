import TrellisCore
import TrellisProtocol

/// Items and sections the CLI makes up: `reload --items N` (ids `item0…`, label `#i`) and
/// inserts without explicit ids (a per-invocation prefix keeps them unique in the session).
public enum GeneratedData {
    /// Sections `s0, s1, …` holding `counts[k]` items each; ids `item0…` run across sections.
    public static func sections(counts: [Int]) -> JSONValue {
        var next = 0
        var sections: [JSONValue] = []
        for (k, count) in counts.enumerated() {
            var items: [JSONValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count {
                items.append(.object(["id": .string("item\(next)"), "data": .object(["label": .string("#\(next)")])]))
                next += 1
            }
            sections.append(.object(["id": .string("s\(k)"), "items": .array(items)]))
        }
        return .array(sections)
    }

    /// A new item with an id and its id as the label.
    public static func item(_ id: String) -> JSONValue {
        .object(["id": .string(id), "data": .object(["label": .string(id)])])
    }

    /// A prefix for generated ids: the given one, else a short random one ("n3k9x-") so two
    /// invocations do not collide.
    public static func idPrefix(_ explicit: String?) -> String {
        if let explicit { return explicit }
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return "n" + String((0..<5).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] }) + "-"
    }

    /// The `sections` of a data file: `{"sections":[…]}` (data.reload's params), an array of
    /// sections (objects with `items`), or an array of items (ids or objects) for one section.
    public static func sections(fromFile value: JSONValue) throws(SyntaxError) -> JSONValue {
        if case .object = value {
            guard let sections = value["sections"], case .array = sections else {
                throw SyntaxError("a data file object must have \"sections\": [{\"id\": …, \"items\": […]}, …]")
            }
            return sections
        }
        guard case .array(let elements) = value else {
            throw SyntaxError("a data file must hold {\"sections\": […]}, an array of sections or an array of items")
        }
        let areSections = !elements.isEmpty && elements.allSatisfy { $0["items"] != nil }
        if areSections { return value }
        let items: [JSONValue] = elements.map { element in
            if case .string(let id) = element { return .object(["id": .string(id)]) }
            return element
        }
        return .array([.object(["id": .string("s0"), "items": .array(items)])])
    }
}
