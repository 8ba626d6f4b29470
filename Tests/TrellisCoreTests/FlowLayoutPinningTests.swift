import Testing
@testable import TrellisCore

@Suite struct FlowLayoutPinningTests {
    /// Two sections of six 50 pt items (two rows each, 110 pt) in a 200 × 100 view.
    /// With 30 pt headers: section 0 is 0–140 (header 0–30), section 1 is 140–280 (header 140–170).
    func headerLayout(offset: Double, inset: EdgeInsets = .zero, direction: FlowLayout.ScrollDirection = .vertical) -> FlowLayout {
        let metrics = FlowLayoutMetrics(headerReferenceSize: Size(30, 30), scrollDirection: direction,
                                        sectionHeadersPinToVisibleBounds: true)
        let vertical = direction == .vertical
        return preparedFlow(metrics, flowData(counts: [6, 6]), bounds: vertical ? Size(200, 100) : Size(100, 200),
                            offset: vertical ? Point(0, offset) : Point(offset, 0), inset: inset)
    }

    @Test func pinnedHeadersStickToTheTopUntilTheirSectionEnds() {
        let cases: [(offset: Double, first: Double, second: Double)] = [
            (-50, 0, 140),   // pulled down past the top: headers stay in place
            (0, 0, 140),
            (50, 50, 140),   // inside section 0
            (120, 110, 140), // section 0's items end at 140: its header is being pushed off
            (140, 110, 140),
            (200, 110, 200), // inside section 1
            (260, 110, 250), // the end of the content pushes section 1's header too
        ]
        for c in cases {
            let layout = headerLayout(offset: c.offset)
            #expect(layout.frame(.header(0)) == Rect(0, c.first, 200, 30), "offset \(c.offset)")
            #expect(layout.frame(.header(1)) == Rect(0, c.second, 200, 30), "offset \(c.offset)")
        }
        // Cells do not move.
        #expect(headerLayout(offset: 200).frame(.cell(1, 0)) == Rect(0, 170, 50, 50))
    }

    @Test func pinnedHeadersRespectTheContentInset() {
        let inset = EdgeInsets(top: 20, left: 0, bottom: 0, right: 0)
        #expect(headerLayout(offset: -20, inset: inset).frame(.header(0)) == Rect(0, 0, 200, 30))
        #expect(headerLayout(offset: 30, inset: inset).frame(.header(0)) == Rect(0, 50, 200, 30))
    }

    @Test func pinnedHeadersAreAboveCellsAndFoundWherePinned() {
        let layout = headerLayout(offset: 50)
        #expect(layout.attributes(for: .header(0))?.zIndex == FlowLayout.pinnedZIndex)
        #expect(FlowLayout.pinnedZIndex == 1024)
        // The header is pinned at 50–80, far from its own place at 0–30.
        let found = layout.attributes(in: Rect(0, 60, 200, 10))
        #expect(found.first?.element == .header(0))
        #expect(found.first?.frame == Rect(0, 50, 200, 30))
        #expect(layout.attributes(in: Rect(0, 0, 200, 30)).map(\.element).contains(.header(0)) == false)
    }

    @Test func horizontalHeadersPinToTheLeadingEdge() {
        let layout = headerLayout(offset: 50, direction: .horizontal)
        #expect(layout.frame(.header(0)) == Rect(50, 0, 30, 200))
        #expect(layout.frame(.header(1)) == Rect(140, 0, 30, 200))
        #expect(headerLayout(offset: 120, direction: .horizontal).frame(.header(0)) == Rect(110, 0, 30, 200))
    }

    @Test func pinnedFootersStickToTheBottomUntilTheirSectionStarts() {
        // 20 pt footers: section 0 is 0–130 (footer 110–130), section 1 is 130–260 (footer 240–260).
        let metrics = FlowLayoutMetrics(footerReferenceSize: Size(0, 20), sectionFootersPinToVisibleBounds: true)
        func footers(_ offset: Double, inset: EdgeInsets = .zero) -> (Rect?, Rect?) {
            let layout = preparedFlow(metrics, flowData(counts: [6, 6]), bounds: Size(200, 100), offset: Point(0, offset), inset: inset)
            return (layout.frame(.footer(0)), layout.frame(.footer(1)))
        }
        let cases: [(offset: Double, first: Double, second: Double)] = [
            (0, 80, 130),     // visible bottom 100: section 0's footer pinned there; section 1's sits at its start
            (40, 110, 130),   // section 0's footer back in its place
            (100, 110, 180),
            (200, 110, 240),  // section 1's footer in its place
            (300, 110, 240),
        ]
        for c in cases {
            let (first, second) = footers(c.offset)
            #expect(first == Rect(0, c.first, 200, 20), "offset \(c.offset)")
            #expect(second == Rect(0, c.second, 200, 20), "offset \(c.offset)")
        }
        #expect(footers(0, inset: EdgeInsets(top: 0, left: 0, bottom: 30, right: 0)).0 == Rect(0, 50, 200, 20))
        let layout = preparedFlow(metrics, flowData(counts: [6, 6]), bounds: Size(200, 100))
        #expect(layout.attributes(for: .footer(0))?.zIndex == FlowLayout.pinnedZIndex)
        #expect(layout.attributes(in: Rect(0, 85, 200, 5)).map(\.element).contains(.footer(0)))
    }

    @Test func pinningAsksForBoundsInvalidation() {
        var layout = FlowLayout()
        layout.prepare(LayoutContext(data: flowData(counts: [6]), boundsSize: Size(200, 100)), invalidation: .all)
        #expect(!layout.shouldInvalidate(forBoundsChange: Rect(0, 50, 200, 100)))
        #expect(!layout.shouldInvalidate(forBoundsChange: Rect(0, 50, 200, 300)))
        #expect(layout.shouldInvalidate(forBoundsChange: Rect(0, 50, 300, 100)))   // a new width changes every row
        layout.sectionHeadersPinToVisibleBounds = true
        #expect(layout.shouldInvalidate(forBoundsChange: Rect(0, 50, 200, 100)))
        layout.sectionHeadersPinToVisibleBounds = false
        layout.sectionFootersPinToVisibleBounds = true
        #expect(layout.shouldInvalidate(forBoundsChange: Rect(0, 50, 200, 100)))
        let horizontal = preparedFlow(FlowLayoutMetrics(scrollDirection: .horizontal), flowData(counts: [6]), bounds: Size(100, 200))
        #expect(!horizontal.shouldInvalidate(forBoundsChange: Rect(50, 0, 300, 200)))
        #expect(horizontal.shouldInvalidate(forBoundsChange: Rect(50, 0, 100, 250)))
    }

    @Test func scrollingMovesPinnedHeadersWithoutRelayingOut() {
        let data = flowData(counts: [6, 6])
        var layout = FlowLayout(metrics: FlowLayoutMetrics(headerReferenceSize: Size(0, 30), sectionHeadersPinToVisibleBounds: true))
        layout.prepare(LayoutContext(data: data, boundsSize: Size(200, 100)), invalidation: .all)
        #expect(layout.sectionLayoutCount == 2)
        let cells = layout.allAttributes().filter(\.element.isCell)
        layout.prepare(LayoutContext(data: data, boundsSize: Size(200, 100), contentOffset: Point(0, 200)), invalidation: .boundsChange)
        #expect(layout.sectionLayoutCount == 2)
        #expect(layout.frame(.header(1)) == Rect(0, 200, 200, 30))
        #expect(layout.allAttributes().filter(\.element.isCell) == cells)
    }
}
