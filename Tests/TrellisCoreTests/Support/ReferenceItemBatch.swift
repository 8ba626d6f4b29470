import TrellisCore

/// UIKit's batch semantics for item operations, written the plain way as a reference for the
/// engine's `BatchUpdate.apply` (the tests' property check and the `fuzz-batch` target both
/// compare the two: the same data after, or both refuse). It answers only "accepted, giving
/// these items" or "refused"; which fault is reported first, and its text, are the engine's
/// own tests' business. Section operations and `dataAfter` are not modelled.
///
/// The rules, as UIKit's performBatchUpdates applies them without the data source's counts:
/// every delete, reload and move source is an index path before the update, and no path is
/// used twice among them (exact duplicate moves count once); inserted and moved items land at
/// index paths after the update, each path taken once, inside the counts the operations imply
/// (before − deleted − moved out + inserted + moved in); the items that stay keep their order
/// and fill the places left; a reload keeps the item's identity; identifiers stay unique.
enum ReferenceItemBatch {
    /// The items of each section after `operations`, or nil when the batch is refused.
    static func apply(_ operations: [UpdateOperation], to sections: [Section]) -> [[Item]]? {
        let old = sections.map(\.items)
        var deletes: [IndexPath] = [], reloads: [(path: IndexPath, item: Item?)] = []
        var inserts: [(path: IndexPath, item: Item)] = []
        var moves: [(from: IndexPath, to: IndexPath)] = []
        for operation in operations {
            switch operation {
            case .insertItems(let paths, let items):
                guard paths.count == items.count else { return nil }
                inserts += zip(paths, items).map { ($0, $1) }
            case .deleteItems(let paths):
                deletes += paths
            case .moveItem(let from, let to):
                if !moves.contains(where: { $0.from == from && $0.to == to }) { moves.append((from, to)) }
            case .reloadItems(let paths, let items):
                if let items, items.count != paths.count { return nil }
                reloads += paths.enumerated().map { ($1, items?[$0]) }
            default:
                return nil
            }
        }
        func isBefore(_ path: IndexPath) -> Bool {
            path.section >= 0 && path.section < old.count && path.item >= 0 && path.item < old[path.section].count
        }
        let sources = deletes + reloads.map(\.path) + moves.map(\.from)
        guard sources.allSatisfy(isBefore), Set(sources).count == sources.count else { return nil }

        // The counts after, as the operations imply them.
        var counts = old.map(\.count)
        for path in deletes { counts[path.section] -= 1 }
        for insert in inserts {
            guard insert.path.section >= 0 && insert.path.section < old.count else { return nil }
            counts[insert.path.section] += 1
        }
        for move in moves {
            guard move.to.section >= 0 && move.to.section < old.count else { return nil }
            counts[move.from.section] -= 1
            counts[move.to.section] += 1
        }
        let destinations = inserts.map(\.path) + moves.map(\.to)
        guard Set(destinations).count == destinations.count,
              destinations.allSatisfy({ $0.item >= 0 && $0.item < counts[$0.section] }) else { return nil }

        // Placed items at their places, the rest in order around them.
        var placed = counts.map { [Item?](repeating: nil, count: $0) }
        for insert in inserts { placed[insert.path.section][insert.path.item] = insert.item }
        for move in moves { placed[move.to.section][move.to.item] = old[move.from.section][move.from.item] }
        let leaving = Set(deletes + moves.map(\.from))
        var replaced: [IndexPath: Item] = [:]
        for reload in reloads {
            guard let item = reload.item else { continue }
            guard item.id == old[reload.path.section][reload.path.item].id else { return nil }
            replaced[reload.path] = item
        }
        var result: [[Item]] = []
        for section in old.indices {
            var staying = old[section].indices.compactMap { item -> Item? in
                let path = IndexPath(section, item)
                return leaving.contains(path) ? nil : (replaced[path] ?? old[section][item])
            }[...]
            var items: [Item] = []
            for slot in placed[section] {
                if let slot { items.append(slot) } else if let next = staying.popFirst() { items.append(next) } else { return nil }
            }
            guard staying.isEmpty else { return nil }
            result.append(items)
        }
        let ids = result.flatMap { $0.map(\.id) }
        guard Set(ids).count == ids.count else { return nil }
        return result
    }
}

/// A batch scenario read from bytes (a fuzzer's input, or a property check's generated array):
/// some sections of items, then item operations with small, sometimes invalid, index paths and
/// identifiers drawn from a small pool so that duplicates happen.
struct ItemBatchScenario {
    var sections: [Section]
    var operations: [UpdateOperation]

    init(bytes: [UInt8]) {
        var reader = bytes.makeIterator()
        func next() -> Int { Int(reader.next() ?? 0) }
        // Indices from -1 to 9, most inside small sections.
        func index() -> Int { next() % 11 - 1 }
        func path() -> IndexPath { IndexPath(next() % 4 - (next() % 8 == 0 ? 1 : 0), index()) }
        func item() -> Item {
            let n = next()
            return Item(id: ItemID("x\(n % 24)"), size: n & 0x80 == 0 ? nil : Size(width: 10, height: Double(n % 7 + 1)))
        }
        var counter = 0
        sections = (0..<(next() % 4 + 1)).map { s in
            Section(id: SectionID("s\(s)"), items: (0..<(next() % 8)).map { _ in
                counter += 1
                return Item(id: ItemID("o\(counter)"))
            })
        }
        operations = []
        while let kind = reader.next() {
            let count = next() % 3 + 1
            switch kind % 4 {
            case 0:
                let paths = (0..<count).map { _ in path() }
                // Sometimes a payload of the wrong length.
                let items = (0..<(next() % 16 == 0 ? count + 1 : count)).map { _ in item() }
                operations.append(.insertItems(at: paths, items: items))
            case 1:
                operations.append(.deleteItems(at: (0..<count).map { _ in path() }))
            case 2:
                operations.append(.moveItem(from: path(), to: path()))
            default:
                let paths = (0..<count).map { _ in path() }
                // Without a payload, or with the same identifiers and new sizes (or, rarely, another id).
                let payload: [Item]? = next() % 2 == 0 ? nil : paths.map { p in
                    let known = sections.indices.contains(p.section) && sections[p.section].items.indices.contains(p.item)
                    let id = known && next() % 8 != 0 ? sections[p.section].items[p.item].id : ItemID("x\(next() % 24)")
                    return Item(id: id, size: Size(width: 5, height: 5))
                }
                operations.append(.reloadItems(at: paths, items: payload))
            }
        }
    }

    /// Nil when engine and reference agree, else what differs.
    func disagreement() -> String? {
        let reference = ReferenceItemBatch.apply(operations, to: sections)
        let engine: [[Item]]?
        do {
            engine = try BatchUpdate(operations).apply(to: CollectionData(sections: sections)).data.sections.map { Array($0.items) }
        } catch {
            engine = nil
        }
        guard engine != reference else { return nil }
        func describe(_ result: [[Item]]?) -> String {
            result.map { "\($0.map { $0.map(\.id.rawValue) })" } ?? "refused"
        }
        return "sections \(sections.map { $0.items.map(\.id.rawValue) }), operations \(operations): engine \(describe(engine)), reference \(describe(reference))"
    }
}
