import TrellisCore

/// A chunked `data.reload` or `data.apply` being staged (`data.reload.begin` … `commit`, the same
/// for `data.apply`): the sections and items received so far, kept apart from the session until
/// the commit swaps them in (or applies them) whole.
/// Section identifiers are checked as each chunk arrives (there are few); item identifiers
/// once, at the commit, as one `data.reload` checks them: a set of every staged id kept up to
/// date chunk by chunk cost more than the rest of staging together (hashing a million ids
/// twice over, perf), and a duplicate refused at the commit changes nothing all the same.
struct ReloadUpload {
    /// The token the client names the upload by ("u7"), unique for the server's lifetime.
    let token: String
    /// The session the upload replaces the data of.
    let sessionName: String
    /// Whether the commit reloads or applies the staged data.
    let purpose: UploadPurpose
    /// The session at `begin` (weak: a pending upload does not keep a closed session alive): a
    /// session closed and made again under the same name meanwhile is another, and the commit
    /// is refused.
    private(set) weak var session: Session?
    private(set) var sectionIDs: [SectionID] = []
    private(set) var sectionItems: [ItemList] = []
    private var knownSections = Set<SectionID>()
    private(set) var itemCount = 0
    /// What the staged items hold in memory, about (`estimatedBytes(of:)`): the limit is on this.
    private(set) var stagedBytes = 0
    /// Chunks appended so far.
    private(set) var chunks = 0

    init(token: String, sessionName: String, session: Session, purpose: UploadPurpose = .reload) {
        self.token = token
        self.sessionName = sessionName
        self.purpose = purpose
        self.session = session
    }

    /// What one chunk adds, before it is added: its items' count and estimated bytes.
    static func cost(of sections: [Section]) -> (items: Int, bytes: Int) {
        var items = 0, bytes = 0
        for section in sections {
            items += section.items.count
            bytes += MemoryLayout<Section>.stride + estimatedBytes(of: section.id.rawValue)
            for item in section.items { bytes += estimatedBytes(of: item) }
        }
        return (items, bytes)
    }

    /// An item's bytes while staged: its stride, the heap bytes of strings too long to be stored
    /// inline (over 15 UTF-8 bytes) and its payload's bytes.
    static func estimatedBytes(of item: Item) -> Int {
        MemoryLayout<Item>.stride
            + estimatedBytes(of: item.id.rawValue) + estimatedBytes(of: item.reuseIdentifier)
            + (item.data.map { 32 + $0.bytes.count } ?? 0)
    }

    private static func estimatedBytes(of string: String) -> Int {
        let count = string.utf8.count
        return count <= 15 ? 0 : 32 + count
    }

    /// Adds a chunk's sections: a first section whose id is the last staged section's continues
    /// it (a section split across chunks), every other one starts a new section. Refused whole,
    /// staging nothing of it, when a section identifier is already staged or repeats in the chunk.
    mutating func append(_ sections: [Section], bytes: Int) throws(DataError) {
        var newSections = Set<SectionID>()
        var duplicates: [SectionID] = []
        for (k, section) in sections.enumerated() where !(k == 0 && section.id == sectionIDs.last) {
            if knownSections.contains(section.id) || !newSections.insert(section.id).inserted { duplicates.append(section.id) }
        }
        if !duplicates.isEmpty { throw .duplicateSectionIdentifiers(duplicates) }
        knownSections.formUnion(newSections)
        for (k, section) in sections.enumerated() {
            if k == 0 && section.id == sectionIDs.last {
                // The chunk's item lists are shared, not copied item by item (a million items
                // copied twice more cost a tenth of a second in retains and releases).
                sectionItems[sectionItems.count - 1].append(contentsOf: section.items, range: 0..<section.items.count)
            } else {
                sectionIDs.append(section.id)
                sectionItems.append(section.items)
            }
            itemCount += section.items.count
        }
        stagedBytes += bytes
        chunks += 1
    }

    /// The staged sections, leaving the upload empty: a value that can go to another thread,
    /// where `StagedSections.data()` checks and joins them.
    mutating func takeStaged() -> StagedSections {
        let staged = StagedSections(ids: sectionIDs, items: sectionItems)
        sectionIDs = []
        sectionItems = []
        knownSections = []
        return staged
    }
}

/// An upload's sections taken out of it for its commit.
struct StagedSections: Sendable {
    let ids: [SectionID]
    let items: [ItemList]

    /// The staged data as one data set, its item identifiers checked across every chunk (the
    /// error names the duplicates). A million items take a good part of a second: a commit on
    /// the server's loop does this on libuv's thread pool.
    func data() throws(DataError) -> CollectionData {
        var sections: [Section] = []
        sections.reserveCapacity(ids.count)
        for k in ids.indices { sections.append(Section(id: ids[k], items: items[k])) }
        return try CollectionData(sections: sections)
    }
}
