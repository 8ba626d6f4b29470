import Testing
@testable import TrellisCore

/// Apple's LineLayout sample, every expectation worked out from the sample's numbers: in a
/// 400×600 view, 200 pt top and bottom insets leave exactly one 200 pt row, so item i's frame is
/// (250·i, 200, 200, 200) and its centre x is 250·i + 100; n items are 250·n − 50 wide.
@Suite struct LineLayoutTests {
    static let bounds = Size(400, 600)

    func prepared(_ layout: LineLayout = LineLayout(), _ data: CollectionData = items(10), offset: Double = 0) -> LineLayout {
        var layout = layout
        layout.prepare(LayoutContext(data: data, boundsSize: Self.bounds), invalidation: .all)
        layout.prepare(LayoutContext(data: data, boundsSize: Self.bounds, contentOffset: Point(offset, 0)), invalidation: .boundsChange)
        return layout
    }

    /// The sample's zoom by hand: 1 + 0.3·(1 − |d|/200) while |d| < 200, else none.
    func expectedZoom(item: Int, offset: Double) -> Double? {
        let d = (offset + 200) - (250 * Double(item) + 100)
        return abs(d) < 200 ? 1 + 0.3 * (1 - abs(d) / 200) : nil
    }

    func checkVisible(offset: Double, zoomed expected: [Int: Double], sourceLocation: SourceLocation = #_sourceLocation) {
        let layout = prepared(offset: offset)
        let shown = layout.attributes(in: Rect(offset, 0, 400, 600))
        // Every item whose frame meets the visible rect, in item order.
        let visible = (0..<10).filter { i in 250 * Double(i) < offset + 400 && offset < 250 * Double(i) + 200 }
        #expect(shown.map(\.indexPath.item) == visible, sourceLocation: sourceLocation)
        for a in shown {
            let i = a.indexPath.item
            #expect(a.frame == Rect(250 * Double(i), 200, 200, 200), sourceLocation: sourceLocation)
            if let zoom = expected[i] {
                #expect(near(a.transform.m11, zoom) && near(a.transform.m22, zoom) && a.transform.m33 == 1, "item \(i)", sourceLocation: sourceLocation)
                #expect(a.zIndex == 1, sourceLocation: sourceLocation)
                #expect(near(expectedZoom(item: i, offset: offset)!, zoom), sourceLocation: sourceLocation)
            } else {
                #expect(!a.hasTransform && a.zIndex == 0, "item \(i) should not zoom", sourceLocation: sourceLocation)
            }
            #expect(layout.attributes(for: a.element) == a, "attributes(for:) agrees", sourceLocation: sourceLocation)
        }
    }

    @Test func zoomAtRestHalfwayAndAtTheEnds() {
        // Offset 0: centre 200; item 0 (centre 100) is 100 away: 1.15; item 1 (350) 150: 1.075.
        checkVisible(offset: 0, zoomed: [0: 1.15, 1: 1.075])
        // Item 3 centred (centre 850 at offset 650): 1.3; its neighbours are 250 away.
        checkVisible(offset: 650, zoomed: [3: 1.3])
        // Halfway between items 3 and 4 (centre 975): both 125 away, 1 + 0.3·0.375.
        checkVisible(offset: 775, zoomed: [3: 1.1125, 4: 1.1125])
        // The far end: 10 items are 2450 wide, offset 2050, centre 2250: item 8 is 150 away, item 9 100.
        checkVisible(offset: 2050, zoomed: [8: 1.075, 9: 1.15])
        #expect(prepared().contentSize == Size(2450, 600))
    }

    @Test func attributesForAnyItemAgreeWithTheRectQueryAndRefuseMissingOnes() {
        let layout = prepared(offset: 775)
        for i in 0..<10 {
            let a = layout.attributes(for: .cell(0, i))!
            #expect(a.frame == Rect(250 * Double(i), 200, 200, 200))
            let inRect = layout.attributes(in: Rect(250 * Double(i), 200, 1, 1))
            #expect(inRect == [a])
            #expect(a.zIndex == (expectedZoom(item: i, offset: 775) == nil ? 0 : 1))
        }
        for missing: ElementID in [.cell(0, 10), .cell(0, -1), .cell(1, 0), .cell(-1, 0), .header(0)] {
            #expect(layout.attributes(for: missing) == nil)
        }
        // Updates ask through attributes(for:): an appearing item fades in at its zoomed place.
        let appearing = layout.initialAttributes(forAppearing: .cell(0, 3))!
        #expect(appearing.alpha == 0 && near(appearing.transform.m11, 1.1125))
    }

    @Test func snappingCentresTheItemNearestTheProposedCentreWhateverTheVelocity() {
        let layout = prepared()
        for v in [-3000.0, -50, 0, 50, 3000] {
            let velocity = Point(v, 0)
            // Centre 800: item 3 (850) is 50 away, item 2 (600) 200.
            #expect(layout.targetContentOffset(forProposed: Point(600, 7), velocity: velocity) == Point(650, 7))
            // Centre 900: item 3 is 50 away, item 4 (1100) 200.
            #expect(layout.targetContentOffset(forProposed: Point(700, 0), velocity: velocity) == Point(650, 0))
            // Halfway (centre 975): items 3 and 4 both 125 away; the first wins, as in the sample.
            #expect(layout.targetContentOffset(forProposed: Point(775, 0), velocity: velocity) == Point(650, 0))
            #expect(layout.targetContentOffset(forProposed: Point(776, 0), velocity: velocity) == Point(900, 0))
            // At the end (centre 2250): item 9 (2350) is 100 away, item 8 150 (the engine clamps 2150 to 2050).
            #expect(layout.targetContentOffset(forProposed: Point(2050, 0), velocity: velocity) == Point(2150, 0))
            // At the start (centre 200): item 0 (100).
            #expect(layout.targetContentOffset(forProposed: Point(0, 0), velocity: velocity) == Point(-100, 0))
            // Nothing in the proposed rect: the proposal stands.
            #expect(layout.targetContentOffset(forProposed: Point(5000, 0), velocity: velocity) == Point(5000, 0))
        }
        #expect(prepared(LineLayout(), items(0)).targetContentOffset(forProposed: Point(30, 0), velocity: Point(100, 0)) == Point(30, 0))
    }

    @Test func scrollingThroughTheWholeLineNeverJumps() {
        // Between 1 pt steps a corner moves by the change of zoom times the half side:
        // 100 · 0.3 / 200 = 0.15 pt per point scrolled.
        var layout = prepared()
        var previous: [ElementID: [Point]] = [:]
        let step = 1.0
        var offset = -100.0
        var zoomedFrames = 0
        while offset <= 2150 {
            layout.prepare(LayoutContext(data: items(10), boundsSize: Self.bounds, contentOffset: Point(offset, 0)),
                           invalidation: .boundsChange)
            var now: [ElementID: [Point]] = [:]
            for a in layout.attributes(in: Rect(offset, 0, 400, 600)) {
                now[a.element] = a.transformedCorners
                if a.hasTransform { zoomedFrames += 1 }
                if let before = previous[a.element] {
                    for (p, q) in zip(before, a.transformedCorners) {
                        #expect(abs(p.x - q.x) <= 0.15 * step + 1e-9 && abs(p.y - q.y) <= 0.15 * step + 1e-9,
                                "\(a.element) jumped at offset \(offset)")
                    }
                }
            }
            previous = now
            offset += step
        }
        #expect(zoomedFrames > 2000)
    }

    @Test func currentItemIsTheOneNearestTheCentre() {
        #expect(prepared(offset: 0).currentItem == IndexPath(0, 0))
        #expect(prepared(offset: 650).currentItem == IndexPath(0, 3))
        #expect(prepared(offset: 775).currentItem == IndexPath(0, 3))   // a tie: the first
        #expect(prepared(offset: 776).currentItem == IndexPath(0, 4))
        #expect(prepared(offset: 2050).currentItem == IndexPath(0, 9))
        // Far outside the content the nearest end item still counts.
        #expect(prepared(offset: 90_000).currentItem == IndexPath(0, 9))
        #expect(prepared(offset: -90_000).currentItem == IndexPath(0, 0))
        // Two sections of three: section 1 starts at 700 (3·250 − 50), its item 0 centred at 800.
        #expect(prepared(LineLayout(), items(3, sections: 2), offset: 600).currentItem == IndexPath(1, 0))
        #expect(prepared(LineLayout(), items(0)).currentItem == nil)
    }

    @Test func keysAreTheSamplesConstants() {
        let layout = LineLayout()
        let values = Dictionary(uniqueKeysWithValues: LineLayout.parameters.map { ($0.description.name, $0.get(layout)) })
        #expect(LineLayout.parameters.map(\.description.name) == ["itemSize", "sectionInset", "minimumLineSpacing", "activeDistance", "zoomFactor"])
        #expect(values["itemSize"] == .size(Size(200, 200)))
        #expect(values["sectionInset"] == .insets(EdgeInsets(top: 200, left: 0, bottom: 200, right: 0)))
        #expect(values["minimumLineSpacing"] == .number(50))
        #expect(values["activeDistance"] == .number(200))
        #expect(values["zoomFactor"] == .number(0.3))
        #expect(LayoutRegistry.type(named: "line") == LineLayout.self)
        // Setting a key changes the geometry at the next prepare.
        var wider = layout
        LineLayout.parameters[2].set(&wider, .number(100))
        #expect(prepared(wider).attributes(for: .cell(0, 1))?.frame == Rect(300, 200, 200, 200))
    }

    @Test func everyNumberIsFiniteForExtremeParameters() {
        let extremes = [
            LineLayout(itemSize: Size(1e6, 1e6), sectionInset: EdgeInsets(all: 1e6), minimumLineSpacing: 1e6,
                       activeDistance: 1e6, zoomFactor: 10),
            LineLayout(itemSize: Size(1e6, 1e6), sectionInset: EdgeInsets(all: -1e6), minimumLineSpacing: 0,
                       activeDistance: 0.001, zoomFactor: 10),
            LineLayout(itemSize: Size(.leastNonzeroMagnitude, .leastNonzeroMagnitude), sectionInset: .zero,
                       minimumLineSpacing: 0, activeDistance: 0.001, zoomFactor: 0),
        ]
        for layout in extremes {
            for offset in [-1e7, 0, 1234.5, 5e6, 1e9] {
                let l = prepared(layout, items(50), offset: offset)
                #expect(l.contentSize.width.isFinite && l.contentSize.height.isFinite)
                for i in 0..<50 {
                    let a = l.attributes(for: .cell(0, i))!
                    #expect(a.frame.minX.isFinite && a.frame.minY.isFinite && a.frame.width.isFinite && a.frame.height.isFinite)
                    #expect(a.transform.values.allSatisfy { $0.isFinite })
                }
                let t = l.targetContentOffset(forProposed: Point(offset, 0), velocity: Point(1000, 0))
                #expect(t.x.isFinite && t.y.isFinite)
                _ = l.currentItem
            }
        }
    }

    @Test func oneFrameOfScrollingThrough100000ItemsIsCheap() {
        // Timed for information (debug builds are slow; the benchmark target holds the budget).
        let data = items(100_000)
        var layout = LineLayout()
        layout.prepare(LayoutContext(data: data, boundsSize: Self.bounds), invalidation: .all)
        let clock = ContinuousClock()
        var count = 0
        let frames = 2000
        let elapsed = clock.measure {
            for f in 0..<frames {
                let offset = Point(Double(f) * 1000.5, 0)
                layout.prepare(LayoutContext(data: data, boundsSize: Self.bounds, contentOffset: offset), invalidation: .boundsChange)
                count += layout.attributes(in: Rect(origin: offset, size: Self.bounds).expanded(dx: 64, dy: 64)).count
            }
        }
        print("line layout, 100,000 items: \(elapsed / frames) per frame (prepare + rect query)")
        #expect(count >= 2 * frames)
        #expect(layout.currentItem == IndexPath(0, 8000))   // centre 2,000,199.5: (c − 100) / 250 ≈ 8000.4
    }
}
