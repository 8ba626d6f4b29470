/// A fast 64-bit digest of an item identifier's UTF-8 bytes (multiply-xor, not SipHash) for the
/// filters that rule identifiers out before a real comparison. Never 0, so a table can use 0 for
/// a free slot. Unseeded: equal identifiers digest alike in every process and run.
enum ItemIDDigest {
    @inline(__always)
    static func of(_ id: ItemID) -> UInt64 {
        var raw = id.rawValue
        return raw.withUTF8(hash) | 1
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var offset = 0
        if let base = bytes.baseAddress {
            while offset + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
                hash = (hash ^ word) &* 0x0000_0100_0000_01b3
                hash ^= hash >> 29
                offset += 8
            }
        }
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* 0x0000_0100_0000_01b3
            offset += 1
        }
        hash ^= hash >> 32
        hash &*= 0x9e37_79b9_7f4a_7c15
        return hash ^ (hash >> 29)
    }
}
