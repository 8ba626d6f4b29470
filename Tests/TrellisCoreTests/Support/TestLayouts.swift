@testable import TrellisCore

/// A one-column list with fixed row height: just enough layout to test the engine on its own.
struct ListLayout: Layout {
    var rowHeight: Double = 50
    var typeName: String { "test-list" }
    private var width = 0.0
    private var counts: [Int] = []
    private var sectionStarts: [Int] = []

    mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        width = context.boundsSize.width
        counts = context.data.sections.map(\.count)
        sectionStarts = []
        var start = 0
        for count in counts { sectionStarts.append(start); start += count }
    }

    var contentSize: Size { Size(width: width, height: Double(counts.reduce(0, +)) * rowHeight) }

    func attributes(in rect: Rect) -> [LayoutAttributes] {
        let first = Int((rect.minY / rowHeight).rounded(.down)), last = Int((rect.maxY / rowHeight).rounded(.up))
        var result: [LayoutAttributes] = []
        for (s, start) in sectionStarts.enumerated() {
            let lo = max(first, start), hi = min(last, start + counts[s] - 1)
            guard lo <= hi else { continue }
            for global in lo...hi {
                if let a = attributes(for: .cell(s, global - start)), a.frame.intersects(rect) { result.append(a) }
            }
        }
        return result
    }

    func attributes(for element: ElementID) -> LayoutAttributes? {
        guard element.isCell, element.indexPath.section < counts.count,
              element.indexPath.item >= 0, element.indexPath.item < counts[element.indexPath.section] else { return nil }
        let global = sectionStarts[element.indexPath.section] + element.indexPath.item
        return LayoutAttributes(element: element, frame: Rect(0, Double(global) * rowHeight, width, rowHeight))
    }
}

/// A layout whose attributes are given outright, for hit testing and drawing order.
struct FixedLayout: Layout {
    var elements: [LayoutAttributes]
    var size = Size(1000, 1000)
    var typeName: String { "test-fixed" }
    mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {}
    var contentSize: Size { size }
    func attributes(in rect: Rect) -> [LayoutAttributes] { elements.filter { $0.visualBounds.intersects(rect) } }
    func attributes(for element: ElementID) -> LayoutAttributes? { elements.first { $0.element == element } }
}

/// `count` items in one section, ids "i0"…
func items(_ count: Int, sections: Int = 1) -> CollectionData {
    try! CollectionData(sections: (0..<sections).map { s in
        Section(id: SectionID("s\(s)"), items: (0..<count).map { Item(id: ItemID(sections == 1 ? "i\($0)" : "s\(s)i\($0)")) })
    })
}

func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
func near(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool { near(a.x, b.x, tolerance) && near(a.y, b.y, tolerance) }
