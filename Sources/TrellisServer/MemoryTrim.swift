#if canImport(Glibc)
/// glibc's malloc_trim(3) and mallopt(3), declared in malloc.h, which the Glibc module does not export.
@_silgen_name("malloc_trim") private func mallocTrim(_ pad: Int) -> Int32
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// Gives the C heap's free memory back to the system after churn (clients coming and going, a
/// snapshot encoded), at most once every `interval` ms. The soak showed why: the heap itself
/// peaked at 20 MB with nothing leaked (heaptrack), yet the resident size doubled in ten
/// minutes of viewers reconnecting, as glibc keeps freed pages and raises its mmap threshold
/// after each large buffer is freed. `malloc_trim` hands back what is free; it takes about a
/// millisecond on a heap this size. (**ours**; Redis relies on jemalloc's purging instead.)
public struct MemoryTrim {
    /// Milliseconds between two trims at the most.
    var interval = 5000.0
    private var last = -Double.infinity
    private(set) var trims = 0

    /// Trims when the last trim is at least `interval` old (`now` in loop milliseconds).
    mutating func afterChurn(now: Double) {
        guard now - last >= interval else { return }
        trim(now: now)
    }

    /// Trims now, whatever the interval: after one piece of work freed hundreds of megabytes (a
    /// chunked reload's commit: the old data, the staged chunks, the snapshot's encoding, whose
    /// own trim ran before its buffers were freed), which no churn might trim for a long while.
    mutating func trim(now: Double) {
        last = now
        trims += 1
        #if canImport(Glibc)
        _ = mallocTrim(0)
        #endif
    }
}

extension MemoryTrim {
    /// Fixes glibc's thresholds for the server's process (**ours**): a buffer of 1 MiB or more is
    /// mapped on its own and unmapped when freed, and an arena's free top past 4 MiB is given
    /// back. glibc otherwise raises both thresholds after each large buffer is freed, so a
    /// million-item commit's snapshot encoding (a 16 MB first buffer on a pool thread) stayed
    /// resident in that thread's arena, where `malloc_trim` never shrinks the top: 69 B per item
    /// after a reload instead of 54. Called once, before any thread starts.
    public static func fixAllocatorThresholds() {
        #if canImport(Glibc)
        let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3
        _ = mallopt(mmapThreshold, 1 << 20)
        _ = mallopt(trimThreshold, 4 << 20)
        #endif
    }
}
