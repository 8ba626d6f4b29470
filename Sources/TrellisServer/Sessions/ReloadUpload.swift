import TrellisCore

/// A chunked `data.reload` being staged (`data.reload.begin` … `commit`): the sections and
/// items received so far, kept apart from the session until the commit swaps them in whole.
/// Identifiers are checked as each chunk arrives, so a duplicate is refused at the chunk that
/// brings it, naming it, rather than after the whole upload was sent.
struct ReloadUpload {
    /// The token the client names the upload by ("u7"), unique for the server's lifetime.
    let token: String
    /// The session the upload replaces the data of.
    let sessionName: String
    /// The session object at `begin`: a session closed and made again under the same name
    /// meanwhile is another session, and the commit is refused.
    let session: ObjectIdentifier
    private(set) var sectionIDs: [SectionID] = []
    private(set) var sectionItems: [[Item]] = []
    private var knownSections = Set<SectionID>()
    private var knownItems = Set<ItemID>()
    private(set) var itemCount = 0
    /// What the staged items hold in memory, about (`estimatedBytes(of:)`): the limit is on this.
    private(set) var stagedBytes = 0
    /// Chunks appended so far.
    private(set) var chunks = 0

    init(token: String, sessionName: String, session: ObjectIdentifier) {
        self.token = token
        self.sessionName = sessionName
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
    /// inline (over 15 UTF-8 bytes), its payload's bytes, and its entry in the identifier set.
    static func estimatedBytes(of item: Item) -> Int {
        MemoryLayout<Item>.stride + MemoryLayout<ItemID>.stride * 2
            + estimatedBytes(of: item.id.rawValue) + estimatedBytes(of: item.reuseIdentifier)
            + (item.data.map { 32 + $0.bytes.count } ?? 0)
    }

    private static func estimatedBytes(of string: String) -> Int {
        let count = string.utf8.count
        return count <= 15 ? 0 : 32 + count
    }

    /// Adds a chunk's sections: a first section whose id is the last staged section's continues
    /// it (a section split across chunks), every other one starts a new section. Refused whole,
    /// staging nothing of it, when an identifier is already staged or repeats in the chunk.
    mutating func append(_ sections: [Section], bytes: Int) throws(DataError) {
        var newSections = Set<SectionID>(), newItems = Set<ItemID>()
        var duplicateSections: [SectionID] = [], duplicateItems: [ItemID] = []
        for (k, section) in sections.enumerated() {
            let continues = k == 0 && section.id == sectionIDs.last
            if !continues && (knownSections.contains(section.id) || !newSections.insert(section.id).inserted) {
                duplicateSections.append(section.id)
            }
            for item in section.items where knownItems.contains(item.id) || !newItems.insert(item.id).inserted {
                duplicateItems.append(item.id)
            }
        }
        if !duplicateSections.isEmpty { throw .duplicateSectionIdentifiers(duplicateSections) }
        if !duplicateItems.isEmpty { throw .duplicateItemIdentifiers(duplicateItems) }
        knownSections.formUnion(newSections)
        knownItems.formUnion(newItems)
        for (k, section) in sections.enumerated() {
            if k == 0 && section.id == sectionIDs.last {
                sectionItems[sectionItems.count - 1].append(contentsOf: section.items)
            } else {
                sectionIDs.append(section.id)
                sectionItems.append(section.items)
            }
            itemCount += section.items.count
        }
        stagedBytes += bytes
        chunks += 1
    }

    /// The staged data as one data set (identifiers were checked chunk by chunk), leaving the
    /// upload empty.
    mutating func takeData() throws(DataError) -> CollectionData {
        let sections = zip(sectionIDs, sectionItems).map { Section(id: $0, items: $1) }
        sectionIDs = []
        sectionItems = []
        knownItems = []
        knownSections = []
        return try CollectionData(sections: sections)
    }
}
