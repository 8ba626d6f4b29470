import Testing
@testable import TrellisCore

/// `Layout.attributes(in:after:limit:)` for the layouts that do not page like the flow layout
/// (FlowLayoutOracleTests checks that one): the circle starts after `after` by index and stops
/// at `limit`, and the default cut gives the same pages as cutting the whole result by hand.
@Suite struct LayoutPagingTests {
    static func data(_ counts: [Int]) throws -> CollectionData {
        try CollectionData(sections: counts.enumerated().map { s, n in
            Section(id: SectionID("s\(s)"), items: (0..<n).map { Item(id: ItemID("s\(s)i\($0)")) })
        })
    }

    /// Pages of `limit` following `after`, concatenated.
    static func paged(_ layout: any Layout, _ rect: Rect, limit: Int) -> [ElementID] {
        var all: [ElementID] = []
        var after: ElementID?
        while true {
            let page = layout.attributes(in: rect, after: after, limit: limit)
            all += page.map(\.element)
            guard page.count == limit, let last = page.last else { return all }
            after = last.element
        }
    }

    @Test func aCirclePagesThroughWhatTheWholeQueryGives() throws {
        var circle = CircleLayout()
        circle.prepare(LayoutContext(data: try Self.data([40, 0, 25]), boundsSize: Size(400, 600)), invalidation: .all)
        for rect in [Rect(x: -1e6, y: -1e6, width: 2e6, height: 2e6), Rect(x: 0, y: 0, width: 200, height: 300),
                     Rect(x: 150, y: 250, width: 10, height: 10)] {
            let whole = circle.attributes(in: rect).map(\.element)
            for limit in [1, 3, 64] { #expect(Self.paged(circle, rect, limit: limit) == whole, "\(rect) \(limit)") }
        }
        let everything = Rect(x: -1e6, y: -1e6, width: 2e6, height: 2e6)
        // After the last item of section 0: section 2 from its first item (section 1 is empty).
        #expect(circle.attributes(in: everything, after: .cell(0, 39), limit: 2).map(\.element) == [.cell(2, 0), .cell(2, 1)])
        // After an item past the data, or an element a circle never places: nothing.
        #expect(circle.attributes(in: everything, after: .cell(5, 0), limit: 2).isEmpty)
        #expect(circle.attributes(in: everything, after: .header(0), limit: 2).isEmpty)
    }

    @Test func theDefaultCutMatchesSlicingTheWholeResult() {
        let list = (0..<10).map { LayoutAttributes(element: .cell(0, $0), frame: Rect(x: Double($0), y: 0, width: 1, height: 1)) }
        #expect(LayoutAttributes.page(of: list, after: nil, limit: 4).map(\.element) == (0..<4).map { .cell(0, $0) })
        #expect(LayoutAttributes.page(of: list, after: .cell(0, 7), limit: 4).map(\.element) == [.cell(0, 8), .cell(0, 9)])
        #expect(LayoutAttributes.page(of: list, after: .cell(0, 9), limit: 4).isEmpty)
        #expect(LayoutAttributes.page(of: list, after: .cell(3, 0), limit: 4).isEmpty)   // not among them
        #expect(LayoutAttributes.page(of: list, after: nil, limit: Int.max).count == 10)
    }
}
