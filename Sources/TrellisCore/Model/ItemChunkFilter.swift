/// A Bloom filter of the identifiers one chunk of an `ItemList` holds: "might this chunk hold
/// that id?" in three bit tests, so a check of a few arriving identifiers reads only the chunks
/// that might hold them instead of every item. Removing an item leaves its bits set (a false
/// positive costs one scan of the chunk, never a wrong answer); the bits are rebuilt whenever the
/// chunk is split or merged. About 16 bits per item the chunk can hold: with 3 hashes, ~0.2 %
/// false positives when full.
struct ItemChunkFilter: Sendable {
    private var words: [UInt64]
    private let mask: UInt64

    init(capacity: Int) {
        var bits = 64
        while bits < capacity * 16 { bits <<= 1 }
        words = [UInt64](repeating: 0, count: bits / 64)
        mask = UInt64(bits - 1)
    }

    @inline(__always)
    mutating func insert(digest: UInt64) {
        let a = digest & mask, b = (digest >> 21) & mask, c = (digest >> 42) & mask
        words[Int(a >> 6)] |= 1 << (a & 63)
        words[Int(b >> 6)] |= 1 << (b & 63)
        words[Int(c >> 6)] |= 1 << (c & 63)
    }

    @inline(__always)
    func mightContain(digest: UInt64) -> Bool {
        let a = digest & mask, b = (digest >> 21) & mask, c = (digest >> 42) & mask
        return words[Int(a >> 6)] & (1 << (a & 63)) != 0
            && words[Int(b >> 6)] & (1 << (b & 63)) != 0
            && words[Int(c >> 6)] & (1 << (c & 63)) != 0
    }
}
