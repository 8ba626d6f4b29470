import Testing
@testable import TrellisCore

/// The circle's rect query visits only the arcs inside the rect (`CircleArcs`), and still gives
/// exactly what testing every item's frame gives, in the same order, page by page.
@Suite struct CircleRectQueryTests {
    @Test func arcsOfKnownRects() {
        let c = Point(x: 0, y: 0)
        // Wholly inside, wholly outside, and the right half (x ≥ 0): −π/2…π/2 as [0, π/2] ∪ [3π/2, 2π].
        #expect(CircleArcs.inside(Rect(x: -20, y: -20, width: 40, height: 40), centre: c, radius: 10) == [0...(2 * Double.pi)])
        #expect(CircleArcs.inside(Rect(x: 50, y: 50, width: 10, height: 10), centre: c, radius: 10).isEmpty)
        let half = CircleArcs.inside(Rect(x: 0, y: -20, width: 20, height: 40), centre: c, radius: 10)
        #expect(half.count == 2)
        #expect(abs(half[0].lowerBound) < 1e-12 && abs(half[0].upperBound - Double.pi / 2) < 1e-12)
        #expect(abs(half[1].lowerBound - 3 * Double.pi / 2) < 1e-12 && abs(half[1].upperBound - 2 * Double.pi) < 1e-12)
        // Inside the ring's hole: nothing, though the rect is inside the circle's bounds.
        #expect(CircleArcs.inside(Rect(x: -5, y: -5, width: 10, height: 10), centre: c, radius: 10).isEmpty)
        // A zero radius: every angle or none, by the centre.
        #expect(CircleArcs.inside(Rect(x: -1, y: -1, width: 2, height: 2), centre: c, radius: 0) == [0...(2 * Double.pi)])
    }

    @Test func randomRectsGiveWhatEveryItemsFrameGives() throws {
        var rng = SplitMix64(seed: 0xC1_2C1E)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(rng.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        // Sections of 0 to 300 items; some items with their own (larger or smaller) size.
        for round in 0..<12 {
            let counts = (0..<4).map { _ in Int(rng.next() % 300) }
            var sections: [Section] = []
            for (s, n) in counts.enumerated() {
                sections.append(Section(id: SectionID("s\(s)"), items: (0..<n).map { i in
                    let sized = rng.next() % 7 == 0
                    return Item(id: ItemID("s\(s)i\(i)"), size: sized ? Size(uniform(5...140), uniform(5...140)) : nil)
                }))
            }
            var circle = CircleLayout(itemSize: Size(uniform(10...90), uniform(10...90)), radius: round % 3 == 0 ? nil : uniform(0...400))
            circle.prepare(LayoutContext(data: try CollectionData(sections: sections), boundsSize: Size(uniform(100...900), uniform(100...900))),
                           invalidation: .all)
            var everyItem: [LayoutAttributes] = []
            for (s, n) in counts.enumerated() { for i in 0..<n { everyItem.append(try #require(circle.attributes(for: .cell(s, i)))) } }
            for _ in 0..<40 {
                let rect = Rect(x: uniform(-600...1200), y: uniform(-600...1200), width: uniform(0...700), height: uniform(0...700))
                let expected = everyItem.filter { $0.frame.intersects(rect) }.map(\.element)
                #expect(circle.attributes(in: rect).map(\.element) == expected, "round \(round) \(rect)")
                #expect(LayoutPagingTests.paged(circle, rect, limit: 7) == expected, "round \(round) \(rect) paged")
            }
        }
    }
}
