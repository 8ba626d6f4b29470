#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One view's place in drawing order: back to front by z-index, then by its position in the
/// layout's answer, then by view id (for a disappearing view that shares a position).
struct DrawingKey: Equatable {
    var zIndex: Int
    var order: Int
    var view: ViewID
    /// Into `bound` (its storage order) when below `bound.count`, else into `disappearing`.
    var source: Int

    static func inDrawingOrder(_ a: DrawingKey, _ b: DrawingKey) -> Bool {
        if a.zIndex != b.zIndex { return a.zIndex < b.zIndex }
        if a.order != b.order { return a.order < b.order }
        return a.view < b.view
    }
}

/// The last drawing order the scene settled: the keys it was given and their sorted result.
/// While views only move (nothing bound, unbound or re-ordered, the common frame) the keys
/// come out the same, and comparing them costs a fraction of sorting a thousand of them again,
/// which was a twentieth of a 64-viewer tick. A pure memo: any copy of the engine may share it.
final class DrawingOrderMemo: @unchecked Sendable {
    // Guarded by `lock`.
    private var keys: [DrawingKey] = []
    private var result: [DrawingKey] = []
    private let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// `keys` in drawing order.
    func sorted(_ keys: [DrawingKey]) -> [DrawingKey] {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if keys == self.keys { return result }
        let sorted = keys.sorted(by: DrawingKey.inDrawingOrder)
        self.keys = keys
        result = sorted
        return sorted
    }
}
