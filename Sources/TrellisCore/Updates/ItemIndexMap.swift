/// The old ↔ new item index paths of one batch, stored per section so that sections the batch did
/// not touch cost nothing and a touched section of n items costs one array of n integers per side.
///
/// An item's entry is its index inside the section its section maps to; an item that crossed to
/// another section is marked `elsewhere` and looked up in a small dictionary (there are at most as
/// many of those as move operations).
struct ItemIndexMap: Hashable, Sendable {
    enum Table: Hashable, Sendable {
        /// Every item keeps its index (`count` items).
        case identity(count: Int)
        /// No item maps (a deleted or inserted section).
        case none
        /// Per item: the index on the other side, `gone` or `elsewhere`.
        case table([Int])
    }

    static let gone = -1
    static let elsewhere = -2

    /// By old section: where its items go, inside `newSection[old]`.
    var oldTables: [Table]
    /// By new section: where its items come from, inside `oldSection[new]`.
    var newTables: [Table]
    /// Old section → new section.
    var newSection: [Int?]
    /// New section → old section.
    var oldSection: [Int?]
    /// Items that moved to another section: old path → new path, and back.
    var movedOut: [IndexPath: IndexPath] = [:]
    var movedIn: [IndexPath: IndexPath] = [:]

    func newIndexPath(for old: IndexPath) -> IndexPath? {
        guard oldTables.indices.contains(old.section), let section = newSection[old.section] else { return nil }
        return Self.look(up: old, in: oldTables[old.section], section: section, crossed: movedOut)
    }

    func oldIndexPath(for new: IndexPath) -> IndexPath? {
        guard newTables.indices.contains(new.section), let section = oldSection[new.section] else { return nil }
        return Self.look(up: new, in: newTables[new.section], section: section, crossed: movedIn)
    }

    private static func look(up path: IndexPath, in table: Table, section: Int,
                             crossed: [IndexPath: IndexPath]) -> IndexPath? {
        guard path.item >= 0 else { return nil }
        switch table {
        case .identity(let count):
            return path.item < count ? IndexPath(section, path.item) : nil
        case .none:
            return nil
        case .table(let indices):
            guard path.item < indices.count else { return nil }
            let index = indices[path.item]
            if index >= 0 { return IndexPath(section, index) }
            return index == elsewhere ? crossed[path] : nil
        }
    }
}
