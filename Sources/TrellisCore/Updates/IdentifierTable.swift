/// Integer values by item identifier, for the snapshot diff's old positions: open addressing
/// over a seeded hash of the identifier's bytes.
///
/// `Dictionary<ItemID, Int>` spent about two thirds of a 100,000-item diff in SipHash and its
/// probing (perf, `tools/bench diff`). Identifiers are short strings: a multiply–xorshift over
/// their bytes in words, a 32-bit tag per slot checked before any string compare, and linear
/// probing in flat arrays do the same lookups several times faster (a hand-written table: no
/// package on the machine offers a faster hashed map).
///
/// It gives exactly `Dictionary`'s answers. Swift's `String` equality is canonical equivalence,
/// so bytes decide only while every identifier is ASCII (an ASCII string equals no other
/// bytes; "K" does equal the Kelvin sign, U+212A): the first identifier that is not makes the
/// table rehash everything with Swift's own hash, which agrees with that equality. It also
/// does so when a probe runs long, so identifiers crafted to collide cost what they cost a
/// `Dictionary` (SipHash with a per-process seed), not quadratic time.
struct IdentifierTable {
    private var keys: [ItemID] = []
    private var values: [Int] = []
    /// Per slot: the entry's index + 1, or 0 for an empty slot.
    private var slots: [Int32]
    /// Per slot: the high half of its key's hash, compared before the key itself.
    private var tags: [UInt32]
    private var mask: Int
    /// True while every key is hashed by its bytes; false once Swift's hash took over.
    private var bytewise = true

    /// Probes past this many slots mean clustering (or crafted keys): Swift's hash takes over.
    private static let longProbe = 48

    /// A table for up to `capacity` keys (it grows past them).
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: 0, count: size)
        tags = [UInt32](repeating: 0, count: size)
        mask = size - 1
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// Adds `id` (not in the table yet: identifiers are unique in a `CollectionData`).
    mutating func insert(_ id: ItemID, _ value: Int) {
        keys.append(id)
        values.append(value)
        if keys.count * 2 > slots.count { return rehash(bytewise: bytewise, size: slots.count * 2) }
        place(entry: keys.count - 1)
    }

    /// The value stored for `id`, if any.
    mutating func value(for id: ItemID) -> Int? {
        guard let hash = hash(id) else {
            rehash(bytewise: false, size: slots.count)
            return value(for: id)
        }
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        var slot = Int(truncatingIfNeeded: hash) & mask, probes = 0
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if tags[slot] == tag && keys[entry - 1] == id { return values[entry - 1] }
            slot = (slot + 1) & mask
            probes += 1
            if probes > Self.longProbe && bytewise {
                rehash(bytewise: false, size: slots.count)
                return value(for: id)
            }
        }
    }

    private mutating func place(entry: Int) {
        guard let hash = hash(keys[entry]) else { return rehash(bytewise: false, size: slots.count) }
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        var slot = Int(truncatingIfNeeded: hash) & mask, probes = 0
        while slots[slot] != 0 {
            slot = (slot + 1) & mask
            probes += 1
            if probes > Self.longProbe && bytewise { return rehash(bytewise: false, size: slots.count) }
        }
        slots[slot] = Int32(entry + 1)
        tags[slot] = tag
    }

    /// Places every entry again in `size` slots, hashing as `bytewise` says.
    private mutating func rehash(bytewise: Bool, size: Int) {
        self.bytewise = bytewise
        slots = [Int32](repeating: 0, count: size)
        tags = [UInt32](repeating: 0, count: size)
        mask = size - 1
        for entry in keys.indices {
            place(entry: entry)
            // A key that is not ASCII turned the table over to Swift's hash, which placed all.
            if self.bytewise != bytewise { return }
        }
    }

    /// The key's hash; nil when hashing by bytes and the key is not ASCII (the caller then
    /// turns the table over to Swift's hash).
    @inline(__always)
    private func hash(_ id: ItemID) -> UInt64? {
        guard bytewise else { return UInt64(bitPattern: Int64(id.hashValue)) }
        var text = id.rawValue
        return text.withUTF8 { bytes -> UInt64? in
            let raw = UnsafeRawBufferPointer(bytes)
            var h = Self.seed ^ UInt64(raw.count), seen: UInt64 = 0, at = 0
            while at + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                seen |= word
                h = Self.mix(h ^ word)
                at += 8
            }
            if at < raw.count {
                var word: UInt64 = 0
                for k in at..<raw.count { word |= UInt64(raw[k]) << UInt64((k - at) * 8) }
                seen |= word
                h = Self.mix(h ^ word)
            }
            return seen & 0x8080_8080_8080_8080 == 0 ? Self.mix(h) : nil
        }
    }

    /// SplitMix64's finaliser: every input bit reaches every output bit.
    @inline(__always)
    private static func mix(_ x: UInt64) -> UInt64 {
        var z = (x ^ (x >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// Per process, from Swift's own randomly seeded hasher, so colliding identifiers cannot be
    /// prepared in advance.
    private static let seed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x7472_656c_6c69_73)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }()
}
