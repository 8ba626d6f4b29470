import Testing
@testable import TrellisCore

@Suite struct CollectionViewTests {
    /// 375×812 with 50 pt rows and a 64 pt margin: rows overlapping -64…876 are bound.
    func list(_ count: Int) -> CollectionView {
        CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(count))
    }

    /// The scene remembers its last drawing order (DrawingOrderMemo); a z-index change, and a
    /// copy of the engine that shares the memo but orders differently, still draw right.
    @Test func drawingOrderFollowsEveryChangeThoughItIsRemembered() {
        func layout(_ z: [Int]) -> FixedLayout {
            FixedLayout(elements: z.enumerated().map { i, z in
                LayoutAttributes(element: .cell(0, i), frame: Rect(Double(i) * 10, 0, 50, 50), zIndex: z)
            })
        }
        func order(_ v: CollectionView) -> [Int] { v.scene.views.map(\.element.indexPath.item) }
        var v = CollectionView(boundsSize: Size(400, 400), layout: layout([0, 0, 0]), data: items(3))
        #expect(order(v) == [0, 1, 2])
        #expect(order(v) == [0, 1, 2])
        var copy = v
        v.setLayout(layout([2, 1, 0]))
        #expect(order(v) == [2, 1, 0])
        #expect(order(copy) == [0, 1, 2])
        copy.setLayout(layout([0, 5, -1]))
        #expect(order(copy) == [2, 0, 1])
        #expect(order(v) == [2, 1, 0])
    }

    @Test func bindsTheVisibleRectPlusMargin() {
        let view = list(100)
        // Rows 0…17 intersect -64..<876 (row 17 is 850..<900).
        #expect(view.boundViewCount == 18)
        #expect(view.scroll.contentSize == Size(375, 5000))
        let scene = view.scene
        #expect(scene.views.map(\.indexPath.item) == Array(0...17))
        #expect(scene.views[3].itemID == "i3")
        #expect(scene.views[3].attributes.frame == Rect(0, 150, 375, 50))
    }

    @Test func scrollingTenThousandItemsReusesViews() {
        var view = list(10_000)
        let capacity = view.boundViewCount
        var offset = 0.0
        while offset < view.scroll.maximumContentOffset.y {
            offset = min(offset + 37, view.scroll.maximumContentOffset.y)   // not a multiple of a row
            view.setContentOffset(Point(0, offset))
            #expect(view.boundViewCount <= 20)
        }
        let counters = view.reusePool.counters["cell"]!
        // Never more views than a screen plus the margin can hold (940 pt / 50 pt, +1 for a partial row).
        #expect(counters.created <= 20)
        #expect(counters.created >= capacity)
        // Every other bind came from the pool: 10,000 items were shown in all.
        #expect(counters.created + counters.reused == 10_000)
        #expect(view.scene.views.last?.itemID == "i9999")
    }

    @Test func viewIdsAreStableWhileVisible() {
        var view = list(100)
        let before = view.scene.view(for: .cell(0, 10))!.view
        view.setContentOffset(Point(0, 300))
        #expect(view.scene.view(for: .cell(0, 10))!.view == before)
    }

    @Test func scrollToItemUsesUIKitPositions() throws {
        var view = list(100)
        try view.scrollToItem(at: IndexPath(0, 40), position: .top)
        #expect(view.scroll.contentOffset == Point(0, 2000))
        try view.scrollToItem(at: IndexPath(0, 40), position: .centeredVertically)
        #expect(view.scroll.contentOffset == Point(0, 2025 - 406))
        try view.scrollToItem(at: IndexPath(0, 99), position: .top)
        #expect(view.scroll.contentOffset == Point(0, 5000 - 812))   // clamped to the content
    }

    @Test func scrollToItemOutOfRangeIsRefusedWithoutChange() {
        var view = list(10)
        #expect(throws: EngineError.itemOutOfRange(IndexPath(0, 10), sections: 1, items: 10)) {
            try view.scrollToItem(at: IndexPath(0, 10), position: .top)
        }
        #expect(throws: EngineError.self) { try view.scrollToItem(at: IndexPath(2, 0), position: .top) }
        #expect(throws: EngineError.self) { try view.scrollToItem(at: IndexPath(0, 1), position: [.top, .bottom]) }
        #expect(view.scroll.contentOffset == .zero)
        #expect("\(EngineError.itemOutOfRange(IndexPath(0, 10), sections: 1, items: 10))"
                == "index path 0:10 is out of range: section 0 has 10 items (valid items 0..<10)")
    }

    @Test func reloadShrinkingTheDataPullsTheOffsetBack() {
        var view = list(1000)
        view.setContentOffset(Point(0, 40_000))
        view.reloadData(items(20))
        #expect(view.scroll.contentOffset == Point(0, 1000 - 812))
        #expect(view.scene.views.first?.indexPath.item == 2)   // row 2 (100..<150) meets 124-64
    }

    @Test func reloadReturnsViewsToThePoolAndBindsAgain() {
        var view = list(100)
        let created = view.reusePool.counters["cell"]!.created
        view.reloadData(items(100))
        // Pool limit 5 keeps five views; the rest are destroyed and made again.
        #expect(view.reusePool.counters["cell"]!.reused == 5)
        #expect(view.reusePool.counters["cell"]!.created == created + 13)
    }

    @Test func reuseOrderIsDeterministic() {
        // Views go back to the pool in drawing order and come out last-in first-out, whatever
        // the process's hash seed: rows 0…4 keep views 1…5 (the pool's five), the rest are new.
        var view = list(100)
        view.reloadData(items(100))
        let ids = view.scene.views.map(\.view.rawValue)
        #expect(Array(ids.prefix(6)) == [5, 4, 3, 2, 1, 19])
        #expect(view.reusePool.counters["cell"]!.destroyed == 13)
    }

    @Test func resizeRebindsAndClamps() {
        var view = list(30)      // content 1500
        view.setContentOffset(Point(0, 688))   // the bottom
        view.resize(to: Size(375, 1000))
        #expect(view.scroll.contentOffset == Point(0, 500))
        #expect(view.boundViewCount == 22)   // rows 8…29 meet 436..<1564
    }

    @Test func advanceOnlyMovesForward() {
        var view = list(1)
        view.advance(to: 1.5)
        view.advance(to: 1.0)
        #expect(view.time == 1.5)
        #expect(view.scene.time == 1.5)
    }

    @Test func sceneDrawsByZIndexThenLayoutOrder() {
        let a = LayoutAttributes(element: .cell(0, 0), frame: Rect(0, 0, 10, 10), zIndex: 2)
        let b = LayoutAttributes(element: .cell(0, 1), frame: Rect(0, 0, 10, 10))
        let c = LayoutAttributes(element: .header(0), frame: Rect(0, 0, 10, 10), zIndex: -1)
        let d = LayoutAttributes(element: .cell(0, 2), frame: Rect(0, 0, 10, 10))
        let view = CollectionView(boundsSize: Size(100, 100), layout: FixedLayout(elements: [a, b, c, d]), data: items(3))
        #expect(view.scene.views.map(\.element) == [.header(0), .cell(0, 1), .cell(0, 2), .cell(0, 0)])
        #expect(view.scene.views.first?.reuseIdentifier == "header")
    }

    @Test func poolCountersPerIdentifier() throws {
        let data = try CollectionData(sections: [Section(id: "s", items: (0..<100).map {
            Item(id: ItemID("i\($0)"), reuseIdentifier: $0 % 2 == 0 ? "even" : "odd")
        })])
        var view = CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: data)
        view.setContentOffset(Point(0, 2000))
        // Rows 0…17 (9 of each) leave; 5 of each stay pooled. Rows 38…57 (10 of each) arrive:
        // 5 reused, 5 created, so 9 + 5 = 14 of each.
        #expect(view.reusePool.counters["even"]!.created == 14)
        #expect(view.reusePool.counters["even"]!.reused == 5)
        #expect(view.reusePool.counters["even"]!.destroyed == 4)
        #expect(view.reusePool.counters["odd"]!.created == 14)
        #expect(view.scene.views.allSatisfy { ($0.indexPath.item % 2 == 0) == ($0.reuseIdentifier == "even") })
    }

    @Test func duplicateIdentifiersAreRefusedByName() {
        #expect(throws: DataError.duplicateItemIdentifiers(["a"])) {
            try CollectionData(sections: [Section(id: "s0", items: [Item(id: "a")]), Section(id: "s1", items: [Item(id: "a")])])
        }
        #expect(throws: DataError.duplicateSectionIdentifiers(["s"])) {
            try CollectionData(sections: [Section(id: "s"), Section(id: "s")])
        }
    }
}
