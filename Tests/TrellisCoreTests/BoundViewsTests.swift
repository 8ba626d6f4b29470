import Testing
@testable import TrellisCore

@Suite struct BoundViewsTests {
    private func view(_ id: Int) -> CollectionView.BoundView {
        CollectionView.BoundView(view: ViewID(id), reuseIdentifier: "cell",
                                 attributes: LayoutAttributes(element: .cell(0, id), frame: Rect(x: Double(id), y: 0, width: 10, height: 10)),
                                 order: id, generation: 0)
    }

    /// Removals move the last row into the hole; every element still finds its own view, and
    /// walking the rows meets each bound view exactly once.
    @Test func removalsKeepEveryElementWithItsView() {
        var bound = BoundViews()
        var expected: [ElementID: Int] = [:]
        for id in 0..<50 {
            bound[.cell(0, id)] = view(id)
            expected[.cell(0, id)] = id
        }
        var random = SplitMix64(seed: 7)
        for _ in 0..<30 {
            let element = expected.keys.sorted()[Int(random.next() % UInt64(expected.count))]
            bound[element] = nil
            expected[element] = nil
            #expect(bound[element] == nil && bound.index(forKey: element) == nil)
        }
        bound[.cell(0, 3)] = view(3)
        expected[.cell(0, 3)] = 3
        bound[.cell(0, 3)]?.order = 99   // replaced in place, not added twice
        #expect(bound.count == expected.count)
        for (element, id) in expected {
            #expect(bound[element]?.view == ViewID(id))
            #expect(bound.index(forKey: element).map { bound.keys[$0] } == element)
        }
        #expect(Dictionary(uniqueKeysWithValues: bound.map { ($0.key, $0.value.view.rawValue) }) == expected)
        #expect(bound[.cell(0, 3)]?.order == 99)
        bound.removeAll(keepingCapacity: true)
        #expect(bound.isEmpty && bound[.cell(0, 3)] == nil)
    }
}
