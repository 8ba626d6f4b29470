/// Without `dataAfter` the new data is built from the items and sections the operations carry, so
/// the identifier rules a `CollectionData` enforces are checked here, after UIKit's checks: a
/// reload keeps its identifier, and no identifier appears twice in the result. (With `dataAfter`
/// nothing is needed: a `CollectionData` cannot hold duplicates, and its content is the client's.)
extension BatchPlan {
    func checkIdentifiers(against old: CollectionData) throws(UpdateError) {
        for reload in itemReloads {
            if let item = reload.item, item.id != old[reload.path].id {
                throw .reloadChangesItemIdentifier(reload.path, old: old[reload.path].id, new: item.id)
            }
        }
        for reload in sectionReloads {
            let current = old.sections[reload.index].id
            if let section = reload.section, section.id != current {
                throw .reloadChangesSectionIdentifier(reload.index, old: current, new: section.id)
            }
        }
        try checkSectionIdentifiers(against: old)
        try checkItemIdentifiers(against: old)
    }

    private func checkSectionIdentifiers(against old: CollectionData) throws(UpdateError) {
        guard !sectionInserts.isEmpty else { return }
        let deleted = Set(sectionDeletes)
        var taken = Set<SectionID>()
        for (index, section) in old.sections.enumerated() where !deleted.contains(index) { taken.insert(section.id) }
        var duplicates = Set<SectionID>()
        for insert in sectionInserts {
            guard let id = insert.section?.id else { continue }
            if !taken.insert(id).inserted { duplicates.insert(id) }
        }
        if !duplicates.isEmpty { throw .duplicateSectionIdentifiers(duplicates.sorted()) }
    }

    /// Only identifiers that arrive with the batch can collide; each is compared with the others
    /// and with the items that stay. A few arriving identifiers are compared only with the chunks
    /// whose filter might hold them (O(arriving × chunks), not O(items)); many go through one
    /// pass over every item that stays, with `IdentifierFilter` ruling most out first.
    private func checkItemIdentifiers(against old: CollectionData) throws(UpdateError) {
        var arriving: [ItemID] = itemInserts.compactMap { $0.item?.id }
        for insert in sectionInserts { arriving += insert.section?.items.map(\.id) ?? [] }
        var replaced = Set(sectionDeletes)
        for reload in sectionReloads {
            guard let section = reload.section else { continue }
            replaced.insert(reload.index)
            arriving += section.items.map(\.id)
        }
        guard !arriving.isEmpty else { return }

        var incoming = Set<ItemID>(minimumCapacity: arriving.count)
        var duplicates = Set<ItemID>()
        for id in arriving where !incoming.insert(id).inserted { duplicates.insert(id) }
        let filter = IdentifierFilter(incoming)
        let digests = incoming.map(ItemIDDigest.of)
        let deleted = Set(itemDeletes)
        for (sectionIndex, section) in old.sections.enumerated() where !replaced.contains(sectionIndex) {
            // Borrowing the identifiers through the buffer avoids building every Item (and retaining its strings).
            func check(start: Int, ids: UnsafeBufferPointer<ItemID>) {
                for index in ids.indices where filter.mightContain(ids[index]) {
                    let id = ids[index]
                    if incoming.contains(id) && !deleted.contains(IndexPath(sectionIndex, start + index)) {
                        duplicates.insert(id)
                    }
                }
            }
            if digests.count * section.items.chunkCount <= section.count {
                section.items.forEachChunk(mightHoldAnyOf: digests, check)
            } else {
                section.items.forEachChunk(check)
            }
        }
        if !duplicates.isEmpty { throw .duplicateItemIdentifiers(duplicates.sorted()) }
    }
}

/// A quick "might this identifier be in that small set?" for the scan of every item that stays.
/// Running the standard hasher (SipHash) on 100,000 identifiers costs milliseconds; the length
/// mask and a multiply-xor fingerprint of the UTF-8 bytes rule out nearly all of them for a
/// fraction of that, and only the rest are looked up in the real set.
private struct IdentifierFilter {
    private var lengths: UInt64 = 0
    private var slots: [UInt64]
    private let mask: Int

    init(_ ids: Set<ItemID>) {
        var capacity = 16
        while capacity < ids.count * 4 { capacity <<= 1 }
        slots = [UInt64](repeating: 0, count: capacity)
        mask = capacity - 1
        for id in ids {
            lengths |= Self.lengthBit(id)
            let fingerprint = Self.fingerprint(id)
            var slot = Int(truncatingIfNeeded: fingerprint) & mask
            while slots[slot] != 0 && slots[slot] != fingerprint { slot = (slot + 1) & mask }
            slots[slot] = fingerprint
        }
    }

    func mightContain(_ id: ItemID) -> Bool {
        guard lengths & Self.lengthBit(id) != 0 else { return false }
        let fingerprint = Self.fingerprint(id)
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        while slots[slot] != 0 {
            if slots[slot] == fingerprint { return true }
            slot = (slot + 1) & mask
        }
        return false
    }

    private static func lengthBit(_ id: ItemID) -> UInt64 { 1 << UInt64(min(id.rawValue.utf8.count, 63)) }

    /// Never 0, which marks a free slot.
    private static func fingerprint(_ id: ItemID) -> UInt64 { ItemIDDigest.of(id) }
}
