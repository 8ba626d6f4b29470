/// Last step's contact impulses, to warm-start this step's contacts of the same key.
///
/// The behaviours find contacts in the same order from step to step (behaviours as added, each
/// item's boundaries, then pairs by index), so each contact is looked for just after the last
/// one that matched, a few places on; only when that fails (contacts came and went) is a
/// dictionary built, once for the step. A settled pile matches in order, without hashing.
struct ContactCache: Sendable {
    private var keys: [Contact.Key] = []
    private var impulses: [(normal: Double, tangent: Double)] = []

    /// How many contacts the last step had (to reserve room for this step's).
    var count: Int { keys.count }

    init() {}

    /// A cache as a snapshot kept it.
    init(entries: [CachedContact]) {
        for e in entries {
            keys.append(Contact.Key(a: e.a.map(DynamicItemID.init), b: DynamicItemID(e.b), boundary: e.boundary, feature: e.feature))
            impulses.append((e.normalImpulse, e.tangentImpulse))
        }
    }

    /// The cache as plain numbers, for a snapshot.
    var entries: [CachedContact] {
        zip(keys, impulses).map { key, impulse in
            CachedContact(a: key.a?.rawValue, b: key.b.rawValue, boundary: key.boundary, feature: key.feature,
                          normalImpulse: impulse.normal, tangentImpulse: impulse.tangent)
        }
    }

    /// How far past the last match to look before hashing.
    static let lookahead = 4

    func warmStart(_ contacts: inout [Contact]) {
        guard !keys.isEmpty else { return }
        var cursor = 0
        var byKey: [Contact.Key: Int]?
        for k in contacts.indices {
            let key = contacts[k].key
            var found: Int?
            for probe in cursor..<min(keys.count, cursor + Self.lookahead) where keys[probe] == key {
                found = probe
                break
            }
            if found == nil {
                if byKey == nil { byKey = Dictionary(zip(keys, keys.indices), uniquingKeysWith: { first, _ in first }) }
                found = byKey![key]
            }
            guard let found else { continue }
            contacts[k].normalImpulse = impulses[found].normal
            contacts[k].tangentImpulse = impulses[found].tangent
            cursor = found + 1
        }
    }

    mutating func store(_ contacts: [Contact]) {
        keys.removeAll(keepingCapacity: true)
        impulses.removeAll(keepingCapacity: true)
        for contact in contacts {
            keys.append(contact.key)
            impulses.append((contact.normalImpulse, contact.tangentImpulse))
        }
    }
}
