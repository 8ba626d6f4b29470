/// The section provider as data: which section description each data section uses
/// (UIKit's sectionProvider closure, called per section index).
public enum CompositionalSectionRule: Hashable, Sendable {
    /// Data section i uses description i; sections past the last use the last.
    case byIndex
    /// Data section i uses description i modulo their count.
    case cycling
    /// By the data section's identifier: identifier → description name; `fallback` (a
    /// description name) for identifiers not listed, else the first description.
    case byIdentifier([String: String], fallback: String?)

    /// The description index for data section `index` with identifier `id` among `sections`.
    public func pick(section index: Int, id: String, in sections: [CompositionalSection]) -> Int {
        let n = sections.count
        switch self {
        case .byIndex: return Swift.min(index, n - 1)
        case .cycling: return index % n
        case .byIdentifier(let map, let fallback):
            if let name = map[id] ?? fallback, let found = sections.firstIndex(where: { $0.name == name }) { return found }
            return 0
        }
    }

    /// The description names the rule refers to (each must exist).
    public var namesUsed: [String] {
        guard case .byIdentifier(let map, let fallback) = self else { return [] }
        return map.values.sorted() + (fallback.map { [$0] } ?? [])
    }
}
