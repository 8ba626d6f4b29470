/// The items of every section in one order (section 0's first), as carousels, cover flow and
/// the circle lay them out: a global position per index path and back, in O(log sections).
public struct ItemSequence: Hashable, Sendable {
    /// The global position of each section's first item.
    public private(set) var sectionStarts: [Int] = []
    /// How many items all sections hold.
    public private(set) var count = 0

    public init() {}

    public init(_ data: CollectionData) { update(data) }

    /// Re-reads the sections' item counts.
    public mutating func update(_ data: CollectionData) {
        sectionStarts.removeAll(keepingCapacity: true)
        sectionStarts.reserveCapacity(data.numberOfSections)
        count = 0
        for section in data.sections {
            sectionStarts.append(count)
            count += section.count
        }
    }

    /// The global position of `indexPath`, or nil when no such item exists.
    public func position(of indexPath: IndexPath) -> Int? {
        let s = indexPath.section
        guard s >= 0, s < sectionStarts.count, indexPath.item >= 0 else { return nil }
        let end = s + 1 < sectionStarts.count ? sectionStarts[s + 1] : count
        let g = sectionStarts[s] + indexPath.item
        return g < end ? g : nil
    }

    /// The index path at global `position` (0 ..< count).
    public func indexPath(at position: Int) -> IndexPath {
        precondition(position >= 0 && position < count, "item position \(position) outside 0..<\(count)")
        // The last section starting at or before `position`: it holds it (empty ones start
        // where the next one does, so they are passed over).
        var low = 0, high = sectionStarts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if sectionStarts[mid] <= position { low = mid } else { high = mid }
        }
        return IndexPath(low, position - sectionStarts[low])
    }
}
