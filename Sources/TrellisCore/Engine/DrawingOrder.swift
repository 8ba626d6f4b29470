import Synchronization

/// One view's place in drawing order: back to front by z-index, then by its position in the
/// layout's answer, then by view id (for a disappearing view that shares a position).
struct DrawingKey: Equatable {
    var zIndex: Int
    var order: Int
    var view: ViewID
    /// Into `bound` (its row) when below `bound.count`, else into `disappearing`.
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
/// which was 7% of a 64-viewer tick. A pure memo: any copy of the engine may share it.
final class DrawingOrderMemo: Sendable {
    // Locked although one engine is single-threaded: copies of the engine, a Sendable value,
    // share this memo and may draw on different threads.
    private let last = Mutex<(keys: [DrawingKey], sorted: [DrawingKey])>(([], []))

    /// `keys` in drawing order.
    func sorted(_ keys: [DrawingKey]) -> [DrawingKey] {
        last.withLock { last in
            if keys != last.keys { last = (keys, keys.sorted(by: DrawingKey.inDrawingOrder)) }
            return last.sorted
        }
    }
}
