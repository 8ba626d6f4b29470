/// Last step's contact impulses, to warm-start this step's contacts of the same key.
///
/// The behaviours find contacts in the same order from step to step (behaviours as added, each
/// item's boundaries, then pairs by index), so each contact is looked for just after the last
/// one that matched, a few places on; only when that fails (contacts came and went) is a
/// dictionary built, once for the step. A settled pile matches in order, without hashing.
struct ContactCache: Sendable {
    private var keys: [Contact.Key] = []
    private var impulses: [(normal: Double, tangent: Double)] = []
    /// Where each key first is in `keys`, when the in-order search misses (kept for its capacity).
    private var firstIndex = KeyIndex()

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

    mutating func warmStart(_ contacts: inout [Contact]) {
        guard !keys.isEmpty else { return }
        var cursor = 0
        var indexed = false
        for k in contacts.indices {
            let key = contacts[k].key
            var found: Int?
            for probe in cursor..<min(keys.count, cursor + Self.lookahead) where keys[probe] == key {
                found = probe
                break
            }
            if found == nil {
                if !indexed {
                    firstIndex.rebuild(keys)
                    indexed = true
                }
                found = firstIndex.find(key, in: keys)
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

/// Where each contact key first is in a list of keys: open addressing (linear probing, a
/// power-of-two table at most half full) of positions, the key mixed by a few multiplications.
/// Dictionary's seeded hashing of a step's 4,000 keys, whenever contacts came and went, was a
/// tenth of dynamics.pile.1k's step; this finds the same first position for a fraction of it.
private struct KeyIndex: Sendable {
    /// Positions in the keys, -1 for an empty slot.
    private var slots: [Int] = []
    private var shift = 64

    @inline(__always)
    private static func home(_ key: Contact.Key, shift: Int) -> Int {
        var x = UInt64(bitPattern: Int64(key.a?.rawValue ?? -1)) &* 0x9E37_79B9_7F4A_7C15
        x = (x ^ UInt64(bitPattern: Int64(key.b.rawValue))) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ UInt64(bitPattern: Int64(key.boundary))) &* 0x94D0_49BB_1331_11EB
        x = (x ^ UInt64(bitPattern: Int64(key.feature))) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: x >> UInt64(shift))
    }

    /// Indexes `keys` afresh; of equal keys, the first.
    mutating func rebuild(_ keys: [Contact.Key]) {
        var size = 16
        while size < 2 * keys.count { size *= 2 }
        if slots.count == size {
            for k in slots.indices { slots[k] = -1 }
        } else {
            slots = Array(repeating: -1, count: size)
        }
        shift = 64 - size.trailingZeroBitCount
        let mask = size - 1, shift = shift
        slots.withUnsafeMutableBufferPointer { slots in
            for (position, key) in keys.enumerated() {
                var slot = Self.home(key, shift: shift)
                while slots[slot] >= 0 && keys[slots[slot]] != key { slot = (slot + 1) & mask }
                if slots[slot] < 0 { slots[slot] = position }
            }
        }
    }

    func find(_ key: Contact.Key, in keys: [Contact.Key]) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Self.home(key, shift: shift)
        while true {
            let position = slots[slot]
            if position < 0 { return nil }
            if keys[position] == key { return position }
            slot = (slot + 1) & mask
        }
    }
}
