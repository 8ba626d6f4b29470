/// The views bound to elements: one contiguous array of rows, walked front to back by every
/// frame's animation step and scene, with an index by element beside it. A removal moves the
/// last row into the hole, so storage order carries no meaning: whatever must come out the
/// same everywhere (what feeds the pool, drawing order) sorts.
struct BoundViews: RandomAccessCollection, Sendable {
    typealias BoundView = CollectionView.BoundView

    /// The elements, row by row.
    private(set) var keys: [ElementID] = []
    private var rows: [BoundView] = []
    private var slots: [ElementID: Int] = [:]

    var startIndex: Int { 0 }
    var endIndex: Int { rows.count }

    subscript(position: Int) -> (key: ElementID, value: BoundView) { (keys[position], rows[position]) }

    /// The row at `position`, changed in place (a copy of a view carries its animation's two
    /// attribute sets).
    subscript(row position: Int) -> BoundView {
        _read { yield rows[position] }
        _modify { yield &rows[position] }
    }

    /// Calls `body` with the rows, in row order, read where they are kept.
    func withUnsafeRows<R>(_ body: (UnsafeBufferPointer<BoundView>) throws -> R) rethrows -> R {
        try rows.withUnsafeBufferPointer(body)
    }

    /// The row of `element`'s view, if it has one.
    func index(forKey element: ElementID) -> Int? { slots[element] }

    /// The view bound to `element`; setting nil unbinds it.
    subscript(element: ElementID) -> BoundView? {
        get { slots[element].map { rows[$0] } }
        set {
            if let slot = slots[element] {
                if let newValue { rows[slot] = newValue } else { remove(at: slot) }
            } else if let newValue {
                slots[element] = rows.count
                keys.append(element)
                rows.append(newValue)
            }
        }
    }

    mutating func removeAll(keepingCapacity: Bool) {
        keys.removeAll(keepingCapacity: keepingCapacity)
        rows.removeAll(keepingCapacity: keepingCapacity)
        slots.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Drops every running animation in place.
    mutating func clearAnimations() {
        for position in rows.indices { rows[position].animation = nil }
    }

    private mutating func remove(at slot: Int) {
        let last = rows.count - 1
        slots[keys[slot]] = nil
        if slot != last {
            keys.swapAt(slot, last)
            rows.swapAt(slot, last)
            slots[keys[slot]] = slot
        }
        keys.removeLast()
        rows.removeLast()
    }
}
