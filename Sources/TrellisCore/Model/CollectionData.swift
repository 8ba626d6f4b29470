/// The data source's state: sections of items, with identifiers unique across the whole set.
public struct CollectionData: Hashable, Sendable {
    public internal(set) var sections: [Section]

    /// An empty data set (no sections), like a collection view before its first reload.
    public init() { sections = [] }

    /// Checks that section identifiers are unique and item identifiers are unique across all sections.
    public init(sections: [Section]) throws(DataError) {
        var sectionIDs = Set<SectionID>(minimumCapacity: sections.count)
        var duplicateSections: [SectionID] = []
        for section in sections where !sectionIDs.insert(section.id).inserted { duplicateSections.append(section.id) }
        if !duplicateSections.isEmpty { throw .duplicateSectionIdentifiers(duplicateSections) }
        let duplicateItems = Self.duplicateItemIDs(in: sections)
        if !duplicateItems.isEmpty { throw .duplicateItemIdentifiers(duplicateItems) }
        self.sections = sections
    }

    /// Every item identifier met again after its first time, in order. Distinct digests
    /// (`ItemIDDigest`, in an open-addressed table) prove distinct identifiers; only the
    /// identifiers whose digest came twice are compared as strings. A `Set<ItemID>` of a
    /// million (SipHash, and a string compare per probe) was a fifth of a reload's server time.
    /// `digest` is `ItemIDDigest.of` but in tests, which force collisions with a weak one
    /// (it must never be 0).
    static func duplicateItemIDs(in sections: [Section], digest: (ItemID) -> UInt64 = ItemIDDigest.of) -> [ItemID] {
        let total = sections.reduce(0) { $0 + $1.count }
        guard total > 1 else { return [] }
        var slots = 1
        while slots < 2 * total { slots <<= 1 }
        let mask = UInt64(slots - 1)
        var table = [UInt64](repeating: 0, count: slots)
        var twice: Set<UInt64> = []
        table.withUnsafeMutableBufferPointer { table in
            for section in sections {
                section.items.forEachChunk { _, ids in
                    for id in ids {
                        let digest = digest(id)   // never 0: 0 is a free slot
                        var slot = Int(digest & mask)
                        while true {
                            let held = table[slot]
                            if held == 0 { table[slot] = digest; break }
                            if held == digest { twice.insert(digest); break }
                            slot = (slot + 1) & Int(mask)
                        }
                    }
                }
            }
        }
        guard !twice.isEmpty else { return [] }
        var seen: Set<ItemID> = [], duplicates: [ItemID] = []
        for section in sections {
            section.items.forEachChunk { _, ids in
                for id in ids where twice.contains(digest(id)) && !seen.insert(id).inserted { duplicates.append(id) }
            }
        }
        return duplicates
    }

    /// Sections already known to have unique identifiers (the result of a validated update).
    init(uncheckedSections sections: [Section]) { self.sections = sections }

    /// One section of `count` generated items with ids "<prefix>0", "<prefix>1", … (for demos, tests, benchmarks).
    public static func generated(count: Int, sectionID: SectionID = "s0", prefix: String = "i",
                                 size: ((Int) -> Size?)? = nil) -> CollectionData {
        var items = ItemList()
        for i in 0..<count { items.append(Item(id: ItemID(prefix + String(i)), size: size?(i))) }
        var data = CollectionData()
        data.sections = [Section(id: sectionID, items: items)]
        return data
    }

    @inlinable public var numberOfSections: Int { sections.count }
    @inlinable public func numberOfItems(inSection section: Int) -> Int { sections[section].count }
    @inlinable public var totalItemCount: Int { sections.reduce(0) { $0 + $1.count } }

    /// True when `indexPath` names an existing item.
    @inlinable public func contains(_ indexPath: IndexPath) -> Bool {
        indexPath.section >= 0 && indexPath.section < sections.count
            && indexPath.item >= 0 && indexPath.item < sections[indexPath.section].count
    }

    @inlinable public subscript(indexPath: IndexPath) -> Item { sections[indexPath.section].items[indexPath.item] }

    // One field of the item at `indexPath` (which must exist), without building the item: a
    // scene reads the identifier and payload of every cell every frame, layouts read sizes.

    @inlinable public func idAndPayload(at indexPath: IndexPath) -> (id: ItemID, data: ItemPayload?) {
        sections[indexPath.section].items.idAndPayload(at: indexPath.item)
    }

    @inlinable public func id(at indexPath: IndexPath) -> ItemID { sections[indexPath.section].items.id(at: indexPath.item) }

    @inlinable public func size(at indexPath: IndexPath) -> Size? { sections[indexPath.section].items.size(at: indexPath.item) }

    @inlinable public func reuseIdentifier(at indexPath: IndexPath) -> String {
        sections[indexPath.section].items.reuseIdentifier(at: indexPath.item)
    }

    /// The index path of the item with `id` (a linear search; the engine keeps its own index).
    public func indexPath(of id: ItemID) -> IndexPath? {
        for (s, section) in sections.enumerated() {
            if let i = section.items.firstIndex(where: { $0.id == id }) { return IndexPath(s, i) }
        }
        return nil
    }
}

/// Why a data set was refused.
public enum DataError: Error, Hashable, Sendable, CustomStringConvertible {
    case duplicateSectionIdentifiers([SectionID])
    case duplicateItemIdentifiers([ItemID])

    public var description: String {
        switch self {
        case .duplicateSectionIdentifiers(let ids):
            return "section identifiers must be unique; duplicated: \(ids.map(\.rawValue).joined(separator: ", "))"
        case .duplicateItemIdentifiers(let ids):
            return "item identifiers must be unique across all sections; duplicated: \(ids.map(\.rawValue).joined(separator: ", "))"
        }
    }
}
