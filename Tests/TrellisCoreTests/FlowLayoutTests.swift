import Testing
@testable import TrellisCore

/// Sections of items, one array per section; a nil size means the layout's default item size.
func flowData(_ sections: [[Size?]]) -> CollectionData {
    try! CollectionData(sections: sections.enumerated().map { s, sizes in
        Section(id: SectionID("s\(s)"), items: sizes.enumerated().map { i, size in Item(id: ItemID("s\(s)-\(i)"), size: size) })
    })
}

/// `count` default-size items in each section.
func flowData(counts: [Int]) -> CollectionData {
    flowData(counts.map { Array(repeating: nil, count: $0) })
}

/// A flow layout with `metrics`, prepared from scratch.
func preparedFlow(_ metrics: FlowLayoutMetrics, _ data: CollectionData, bounds: Size,
                  offset: Point = .zero, inset: EdgeInsets = .zero) -> FlowLayout {
    var layout = FlowLayout(metrics: metrics)
    layout.prepare(LayoutContext(data: data, boundsSize: bounds, contentOffset: offset, contentInset: inset), invalidation: .all)
    return layout
}

extension FlowLayout {
    /// The cell frames of one section, in item order.
    func cellFrames(section: Int = 0) -> [Rect] {
        allAttributes().filter { $0.element.isCell && $0.indexPath.section == section }.map(\.frame)
    }

    func frame(_ element: ElementID) -> Rect? { attributes(for: element)?.frame }
}

@Suite struct FlowLayoutTests {
    // 320 wide, 50 pt items, 10 pt spacing: five fit (50 + 4 × 60 = 290); the 30 pt left over
    // widens the four gaps to 17.5 pt.
    static let gridFrames: [Rect] = (0..<12).map { i in Rect(Double(i % 5) * 67.5, Double(i / 5) * 60, 50, 50) }

    @Test func verticalGridJustifiesFullRowsAndSpacesTheLastRowAsIfFull() {
        let layout = preparedFlow(FlowLayoutMetrics(), flowData(counts: [12]), bounds: Size(320, 480))
        #expect(layout.cellFrames() == Self.gridFrames)
        #expect(layout.contentSize == Size(320, 170))
    }

    @Test func explicitSizesEqualToTheDefaultGiveTheSameGrid() {
        let data = flowData([Array(repeating: Size(50, 50), count: 12)])
        let layout = preparedFlow(FlowLayoutMetrics(), data, bounds: Size(320, 480))
        #expect(layout.cellFrames() == Self.gridFrames)
        #expect(layout.contentSize == Size(320, 170))
    }

    @Test func horizontalGridFillsColumnsTopToBottom() {
        // 300 high: four 60 pt tall items fit per column (60 + 3 × 70 = 270), gaps widened to 20.
        let metrics = FlowLayoutMetrics(itemSize: Size(40, 60), scrollDirection: .horizontal)
        let layout = preparedFlow(metrics, flowData(counts: [10]), bounds: Size(480, 300))
        let expected: [Rect] = (0..<10).map { i in Rect(Double(i / 4) * 50, Double(i % 4) * 80, 40, 60) }
        #expect(layout.cellFrames() == expected)
        #expect(layout.contentSize == Size(140, 300))
    }

    @Test func insetsAndSpacingsPlaceRows() {
        // 280 pt between the insets holds exactly six 40 pt items with 8 pt gaps.
        let metrics = FlowLayoutMetrics(itemSize: Size(40, 30), minimumLineSpacing: 12, minimumInteritemSpacing: 8,
                                        sectionInset: EdgeInsets(top: 20, left: 15, bottom: 25, right: 5))
        let layout = preparedFlow(metrics, flowData(counts: [13]), bounds: Size(300, 600))
        let expected = (0..<13).map { i in Rect(15 + Double(i % 6) * 48, 20 + Double(i / 6) * 42, 40, 30) }
        #expect(layout.cellFrames() == expected)
        #expect(layout.contentSize == Size(300, 159))
    }

    @Test func horizontalIsTheVerticalLayoutTransposed() {
        let metrics = FlowLayoutMetrics(itemSize: Size(30, 40), minimumLineSpacing: 12, minimumInteritemSpacing: 8,
                                        sectionInset: EdgeInsets(top: 15, left: 20, bottom: 5, right: 25),
                                        scrollDirection: .horizontal)
        let layout = preparedFlow(metrics, flowData(counts: [13]), bounds: Size(600, 300))
        let expected = (0..<13).map { i in Rect(20 + Double(i / 6) * 42, 15 + Double(i % 6) * 48, 30, 40) }
        #expect(layout.cellFrames() == expected)
        #expect(layout.contentSize == Size(159, 300))
    }

    @Test func headersAndFootersSpanTheViewOutsideTheInsets() {
        var metrics = FlowLayoutMetrics(sectionInset: EdgeInsets(top: 10, left: 0, bottom: 5, right: 0),
                                        headerReferenceSize: Size(999, 40), footerReferenceSize: Size(0, 30))
        metrics.sectionOverrides[1] = FlowSectionOverrides(headerReferenceSize: .zero, footerReferenceSize: Size(0, 20))
        let layout = preparedFlow(metrics, flowData(counts: [4, 2]), bounds: Size(200, 400))
        // Three 50 pt items per 200 pt row, 75 pt apart.
        #expect(layout.frame(.header(0)) == Rect(0, 0, 200, 40))
        #expect(layout.cellFrames(section: 0) == [Rect(0, 50, 50, 50), Rect(75, 50, 50, 50), Rect(150, 50, 50, 50), Rect(0, 110, 50, 50)])
        #expect(layout.frame(.footer(0)) == Rect(0, 165, 200, 30))
        #expect(layout.frame(.header(1)) == nil)
        #expect(layout.cellFrames(section: 1) == [Rect(0, 205, 50, 50), Rect(75, 205, 50, 50)])
        #expect(layout.frame(.footer(1)) == Rect(0, 260, 200, 20))
        #expect(layout.contentSize == Size(200, 280))
        #expect(layout.attributes(for: .header(0))?.zIndex == 0)
    }

    @Test func horizontalHeadersUseTheirWidth() {
        let metrics = FlowLayoutMetrics(headerReferenceSize: Size(40, 999), scrollDirection: .horizontal)
        let layout = preparedFlow(metrics, flowData(counts: [3]), bounds: Size(400, 200))
        #expect(layout.frame(.header(0)) == Rect(0, 0, 40, 200))
        #expect(layout.cellFrames() == [Rect(40, 0, 50, 50), Rect(40, 75, 50, 50), Rect(40, 150, 50, 50)])
        #expect(layout.contentSize == Size(90, 200))
    }

    @Test func zeroLengthHeadersAndFootersAreNone() {
        // Only the length along the scroll axis counts: a wide but flat header is no header.
        let metrics = FlowLayoutMetrics(headerReferenceSize: Size(200, 0), footerReferenceSize: Size(0, 0))
        let layout = preparedFlow(metrics, flowData(counts: [2]), bounds: Size(200, 400))
        #expect(layout.frame(.header(0)) == nil)
        #expect(layout.frame(.footer(0)) == nil)
        #expect(layout.allAttributes().allSatisfy { $0.element.isCell })
    }

    @Test func mixedSizesCentreShorterItemsInTheirRow() {
        let data = flowData([[Size(60, 20), Size(40, 40), Size(50, 30), Size(80, 10), nil]])
        let layout = preparedFlow(FlowLayoutMetrics(), data, bounds: Size(200, 400))
        #expect(layout.cellFrames() == [
            Rect(0, 10, 60, 20), Rect(85, 0, 40, 40), Rect(150, 5, 50, 30),   // 30 pt spread over two gaps
            Rect(0, 70, 80, 10), Rect(90, 50, 50, 50),                        // one 50 pt phantom fills the row
        ])
        #expect(layout.contentSize == Size(200, 100))
    }

    @Test func aLoneItemIsCentred() {
        // 150 pt items: never two in a 200 pt row.
        let uniform = preparedFlow(FlowLayoutMetrics(itemSize: Size(150, 50)), flowData(counts: [3]), bounds: Size(200, 400))
        #expect(uniform.cellFrames() == [Rect(25, 0, 150, 50), Rect(25, 60, 150, 50), Rect(25, 120, 150, 50)])
        // Variable sizes: alone in a full row, and alone in the last row when no phantom of its size fits.
        let data = flowData([[Size(150, 50), Size(120, 30), Size(120, 20)]])
        let variable = preparedFlow(FlowLayoutMetrics(), data, bounds: Size(200, 400))
        #expect(variable.cellFrames() == [Rect(25, 0, 150, 50), Rect(40, 60, 120, 30), Rect(40, 100, 120, 20)])
    }

    @Test func aLoneItemIsCentredBetweenTheInsets() {
        let metrics = FlowLayoutMetrics(itemSize: Size(100, 50), sectionInset: EdgeInsets(top: 0, left: 20, bottom: 0, right: 0))
        let layout = preparedFlow(metrics, flowData(counts: [1]), bounds: Size(200, 400))
        #expect(layout.cellFrames() == [Rect(60, 0, 100, 50)])
    }

    @Test func theLastRowIsSpacedAsIfFull() {
        // Three fit per 200 pt row, 75 pt apart; the last row keeps that grid.
        let layout = preparedFlow(FlowLayoutMetrics(), flowData(counts: [5]), bounds: Size(200, 400))
        #expect(layout.cellFrames() == [Rect(0, 0, 50, 50), Rect(75, 0, 50, 50), Rect(150, 0, 50, 50),
                                        Rect(0, 60, 50, 50), Rect(75, 60, 50, 50)])
        // A section's only item is centred (what UIKit users see with one cell), not spaced as a grid.
        let single = preparedFlow(FlowLayoutMetrics(), flowData(counts: [1]), bounds: Size(200, 400))
        #expect(single.cellFrames() == [Rect(75, 0, 50, 50)])
        // Variable sizes: phantoms the size of the last item (30 pt) fill the row: five slots, 12.5 pt gaps.
        let data = flowData([[Size(60, 50), Size(60, 50), Size(60, 50), Size(30, 50), Size(30, 50)]])
        let variable = preparedFlow(FlowLayoutMetrics(), data, bounds: Size(200, 400))
        #expect(variable.cellFrames() == [Rect(0, 0, 60, 50), Rect(70, 0, 60, 50), Rect(140, 0, 60, 50),
                                          Rect(0, 60, 30, 50), Rect(42.5, 60, 30, 50)])
    }

    @Test func anItemWiderThanTheRowGetsARowOfItsOwn() {
        let data = flowData([[Size(250, 40), nil, nil]])
        let layout = preparedFlow(FlowLayoutMetrics(), data, bounds: Size(200, 400))
        #expect(layout.cellFrames() == [Rect(-25, 0, 250, 40), Rect(0, 50, 50, 50), Rect(75, 50, 50, 50)])
        let uniform = preparedFlow(FlowLayoutMetrics(itemSize: Size(250, 40)), flowData(counts: [2]), bounds: Size(200, 400))
        #expect(uniform.cellFrames() == [Rect(-25, 0, 250, 40), Rect(-25, 50, 250, 40)])
    }

    @Test func emptySectionsKeepTheirHeaderInsetsAndFooter() {
        let metrics = FlowLayoutMetrics(sectionInset: EdgeInsets(top: 5, left: 0, bottom: 5, right: 0),
                                        headerReferenceSize: Size(0, 20), footerReferenceSize: Size(0, 10),
                                        sectionBackgroundDecoration: true)
        let layout = preparedFlow(metrics, flowData(counts: [2, 0, 1]), bounds: Size(200, 400))
        #expect(layout.cellFrames(section: 0) == [Rect(0, 25, 50, 50), Rect(75, 25, 50, 50)])
        #expect(layout.frame(.footer(0)) == Rect(0, 80, 200, 10))
        #expect(layout.frame(.header(1)) == Rect(0, 90, 200, 20))
        #expect(layout.frame(.sectionBackground(1)) == Rect(0, 110, 200, 10))
        #expect(layout.frame(.footer(1)) == Rect(0, 120, 200, 10))
        #expect(layout.frame(.header(2)) == Rect(0, 130, 200, 20))
        #expect(layout.cellFrames(section: 2) == [Rect(75, 155, 50, 50)])   // a lone item, centred
        #expect(layout.frame(.footer(2)) == Rect(0, 210, 200, 10))
        #expect(layout.contentSize == Size(200, 220))
    }

    @Test func contentSizeCoversTheSectionsAcrossTheWholeView() {
        #expect(FlowLayout().contentSize == .zero)
        #expect(preparedFlow(FlowLayoutMetrics(), CollectionData(), bounds: Size(320, 480)).contentSize == Size(320, 0))
        #expect(preparedFlow(FlowLayoutMetrics(), flowData(counts: [0]), bounds: Size(320, 480)).contentSize == Size(320, 0))
        let horizontal = FlowLayoutMetrics(scrollDirection: .horizontal)
        #expect(preparedFlow(horizontal, flowData(counts: [12]), bounds: Size(480, 320)).contentSize == Size(170, 320))
        // Sections stack with nothing between them: 3 + 1 + 2 rows of 50 pt plus 10 pt line gaps.
        #expect(preparedFlow(FlowLayoutMetrics(), flowData(counts: [12, 1, 7]), bounds: Size(320, 480)).contentSize
                == Size(320, 170 + 50 + 110))
    }

    @Test func sectionOverridesWinOverGlobalValues() {
        var metrics = FlowLayoutMetrics()
        metrics.sectionOverrides[1] = FlowSectionOverrides(inset: EdgeInsets(all: 10), minimumLineSpacing: 0,
                                                           minimumInteritemSpacing: 0, headerReferenceSize: Size(0, 30))
        let layout = preparedFlow(metrics, flowData(counts: [5, 5]), bounds: Size(200, 400))
        #expect(layout.cellFrames(section: 0) == [Rect(0, 0, 50, 50), Rect(75, 0, 50, 50), Rect(150, 0, 50, 50),
                                                  Rect(0, 60, 50, 50), Rect(75, 60, 50, 50)])
        #expect(layout.frame(.header(0)) == nil)
        #expect(layout.frame(.header(1)) == Rect(0, 110, 200, 30))
        // 180 pt between the insets, no minimum gap: three fit, the 30 pt left over makes 15 pt gaps.
        #expect(layout.cellFrames(section: 1) == [Rect(10, 150, 50, 50), Rect(75, 150, 50, 50), Rect(140, 150, 50, 50),
                                                  Rect(10, 200, 50, 50), Rect(75, 200, 50, 50)])
        #expect(layout.contentSize == Size(200, 260))
    }

    @Test func sectionBackgroundsCoverTheItemAreaBehindTheCells() {
        let metrics = FlowLayoutMetrics(sectionInset: EdgeInsets(top: 5, left: 7, bottom: 5, right: 3),
                                        headerReferenceSize: Size(0, 20), footerReferenceSize: Size(0, 10),
                                        sectionBackgroundDecoration: true)
        let layout = preparedFlow(metrics, flowData(counts: [4, 1]), bounds: Size(200, 400))
        // Section 0: header 0–20, rows 25–75 and 85–135, bottom inset to 140, footer to 150.
        let background = layout.attributes(for: .sectionBackground(0))
        #expect(background?.frame == Rect(0, 20, 200, 120))
        #expect(background?.zIndex == -1)
        #expect(layout.frame(.sectionBackground(1)) == Rect(0, 170, 200, 60))
        let all = layout.attributes(in: Rect(0, 0, 200, 400))
        #expect(all.map(\.element) == [.sectionBackground(0), .header(0), .cell(0, 0), .cell(0, 1), .cell(0, 2), .cell(0, 3), .footer(0),
                                       .sectionBackground(1), .header(1), .cell(1, 0), .footer(1)])
        // Without insets an empty section's item area has no height, so no background.
        let empty = preparedFlow(FlowLayoutMetrics(sectionBackgroundDecoration: true), flowData(counts: [0]), bounds: Size(200, 400))
        #expect(empty.attributes(for: .sectionBackground(0)) == nil)
        #expect(preparedFlow(FlowLayoutMetrics(), flowData(counts: [1]), bounds: Size(200, 400))
                    .attributes(for: .sectionBackground(0)) == nil)
    }

    @Test func elementsThatDoNotExistHaveNoAttributes() {
        let layout = preparedFlow(FlowLayoutMetrics(headerReferenceSize: Size(0, 20)), flowData(counts: [3, 0]), bounds: Size(200, 400))
        #expect(layout.attributes(for: .cell(0, 2)) != nil)
        #expect(layout.attributes(for: .cell(0, 3)) == nil)
        #expect(layout.attributes(for: .cell(0, -1)) == nil)
        #expect(layout.attributes(for: .cell(1, 0)) == nil)
        #expect(layout.attributes(for: .cell(2, 0)) == nil)
        #expect(layout.attributes(for: .cell(-1, 0)) == nil)
        #expect(layout.attributes(for: .header(1)) != nil)
        #expect(layout.attributes(for: .header(2)) == nil)
        #expect(layout.attributes(for: ElementID(kind: .header, indexPath: IndexPath(0, 1))) == nil)
        #expect(layout.attributes(for: .footer(0)) == nil)
        #expect(layout.attributes(for: .sectionBackground(0)) == nil)
        #expect(layout.attributes(for: ElementID(kind: .supplementary("badge"), indexPath: IndexPath(0, 0))) == nil)
        #expect(FlowLayout().attributes(for: .cell(0, 0)) == nil)
        #expect(FlowLayout().attributes(in: Rect(0, 0, 100, 100)).isEmpty)
    }

    @Test func rectQueriesReturnOnlyIntersectingElementsInOrder() {
        let layout = preparedFlow(FlowLayoutMetrics(), flowData(counts: [12]), bounds: Size(320, 480))
        // Rows at 0, 60, 120; columns at 0, 67.5, 135, 202.5, 270. Touching edges do not count.
        #expect(layout.attributes(in: Rect(50, 50, 85, 10)).isEmpty)
        #expect(layout.attributes(in: Rect(60, 55, 80, 10)).map(\.element) == [.cell(0, 6), .cell(0, 7)])
        #expect(layout.attributes(in: Rect(0, 119, 1000, 2)).map(\.element) == [.cell(0, 10), .cell(0, 11)])
    }

    @Test func configurationReadsAndWritesThroughTheLayout() {
        var layout = FlowLayout()
        #expect(layout.typeName == "flow")
        #expect(layout.itemSize == Size(50, 50))
        #expect(layout.minimumLineSpacing == 10 && layout.minimumInteritemSpacing == 10)
        #expect(layout.sectionInset == .zero && layout.headerReferenceSize == .zero && layout.footerReferenceSize == .zero)
        #expect(layout.scrollDirection == .vertical)
        #expect(!layout.sectionHeadersPinToVisibleBounds && !layout.sectionFootersPinToVisibleBounds)
        #expect(!layout.sectionBackgroundDecoration && layout.sectionOverrides.isEmpty)
        let context = LayoutContext(data: flowData(counts: [2]), boundsSize: Size(200, 400))
        layout.prepare(context, invalidation: .all)
        #expect(layout.frame(.cell(0, 1)) == Rect(75, 0, 50, 50))
        // A new configuration re-lays out everything, whatever the invalidation says.
        layout.itemSize = Size(20, 20)
        layout.prepare(context, invalidation: .boundsChange)
        #expect(layout.frame(.cell(0, 1)) == Rect(30, 0, 20, 20))
    }
}
