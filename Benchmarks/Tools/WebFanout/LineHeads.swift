#if canImport(Glibc)
import Glibc
#endif

/// Splits a byte stream into lines without copying them: only the first bytes of each line
/// are kept (enough for `FrameSeq`), so a 100 KB frame costs one memchr.
struct LineHeads {
    private var head: [UInt8] = []
    private var length = 0

    init() { head.reserveCapacity(FrameSeq.headBytes) }

    /// Calls `onLine` with the head and the length of every line that ends in `raw`.
    mutating func feed(_ raw: UnsafeRawBufferPointer, onLine: (UnsafeRawBufferPointer, Int) -> Void) {
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let hit = memchr(base + offset, 10, raw.count - offset)
            let end = hit.map { UnsafeRawPointer($0) - base } ?? raw.count
            let room = FrameSeq.headBytes - head.count
            if room > 0 { head.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[offset..<min(end, offset + room)])) }
            length += end - offset
            guard hit != nil else { return }
            head.withUnsafeBytes { onLine($0, length) }
            head.removeAll(keepingCapacity: true)
            length = 0
            offset = end + 1
        }
    }
}
