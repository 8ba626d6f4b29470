import Testing
@testable import TrellisCore

/// Expected values are worked by hand from the rules in the compositional reference (§2–§4),
/// the arithmetic next to each.
@Suite struct CompositionalLayoutTests {
    static func data(_ counts: [Int], ids: [String]? = nil) -> CollectionData {
        var n = 0
        let sections = counts.enumerated().map { s, count -> Section in
            let items = (0..<count).map { _ -> Item in n += 1; return Item(id: ItemID("i\(n)")) }
            return Section(id: SectionID(ids?[s] ?? "s\(s)"), items: items)
        }
        return try! CollectionData(sections: sections)
    }

    static func prepared(_ d: CompositionalDescription, _ counts: [Int], bounds: Size = Size(375, 600), offset: Point = .zero,
                         ids: [String]? = nil) -> CompositionalLayout {
        var layout = CompositionalLayout(d)
        layout.prepare(LayoutContext(data: data(counts, ids: ids), boundsSize: bounds, contentOffset: offset), invalidation: .all)
        return layout
    }

    static func frame(_ l: CompositionalLayout, _ s: Int, _ i: Int) -> Rect? { l.attributes(for: .cell(s, i))?.frame }

    static func size(_ w: CompositionalDimension, _ h: CompositionalDimension) -> CompositionalSize { CompositionalSize(width: w, height: h) }

    /// Reference §3: 375 wide, section insets 10, interGroupSpacing 10, a full-width 44-high
    /// row of half-width items with insets 5.
    static func workedExample(count: Int? = nil, spacing: CompositionalSpacing = .fixed(0)) -> CompositionalDescription {
        let item = CompositionalItem(size: size(.fractionalWidth(0.5), .fractionalHeight(1)), contentInsets: EdgeInsets(all: 5))
        let group = CompositionalGroup.horizontal(size(.fractionalWidth(1), .absolute(44)), [.item(item)], count: count, spacing: spacing)
        return CompositionalDescription(sections: [CompositionalSection(group: group, contentInsets: EdgeInsets(all: 10), interGroupSpacing: 10)])
    }

    @Test func workedExampleInsetsAndSpacing() {
        let l = Self.prepared(Self.workedExample(), [4])
        // Section width 375 − 20 = 355; slot 177.5 × 44; frame = slot − 5 a side = 167.5 × 34.
        // Group 0 at (10, 10): items at x 10+5 = 15 and 10+177.5+5 = 192.5, y 15.
        // Group 1 at y 10 + 44 + 10 = 64: items at y 69.
        #expect(Self.frame(l, 0, 0) == Rect(x: 15, y: 15, width: 167.5, height: 34))
        #expect(Self.frame(l, 0, 1) == Rect(x: 192.5, y: 15, width: 167.5, height: 34))
        #expect(Self.frame(l, 0, 2) == Rect(x: 15, y: 69, width: 167.5, height: 34))
        #expect(Self.frame(l, 0, 3) == Rect(x: 192.5, y: 69, width: 167.5, height: 34))
        // 10 + 44 + 10 + 44 + 10.
        #expect(l.contentSize == Size(375, 118))
    }

    @Test func countSharesTheGroupLength() {
        let l = Self.prepared(Self.workedExample(count: 2, spacing: .fixed(10)), [2])
        // Slot (355 − 10) / 2 = 172.5; frames 162.5 wide at 10+5 = 15 and 10+172.5+10+5 = 197.5.
        #expect(Self.frame(l, 0, 0) == Rect(x: 15, y: 15, width: 162.5, height: 34))
        #expect(Self.frame(l, 0, 1) == Rect(x: 197.5, y: 15, width: 162.5, height: 34))
    }

    @Test func anAdaptiveCountFollowsTheViewsWidth() {
        // The worked example's row with 2 columns, 4 above 500 points wide, 5 above 900.
        var d = Self.workedExample(count: 2)
        d.sections[0].group.adaptiveCount = CompositionalAdaptiveCount(
            steps: [.init(above: 900, count: 5), .init(above: 500, count: 4)], otherwise: 2)
        // 375: 2 columns of 355/2 = 177.5 → as the plain count.
        let narrow = Self.prepared(d, [5], bounds: Size(375, 600))
        #expect(Self.frame(narrow, 0, 1) == Rect(x: 192.5, y: 15, width: 167.5, height: 34))
        // Exactly 500 is not above 500: 2 columns of 480/2 = 240 → item 1 at 10 + 240 + 5.
        let edge = Self.prepared(d, [5], bounds: Size(500, 600))
        #expect(Self.frame(edge, 0, 1) == Rect(x: 255, y: 15, width: 230, height: 34))
        // 600: 4 columns of 580/4 = 145 → item 3 at 10 + 3·145 + 5 = 450; item 4 on the next row.
        let wide = Self.prepared(d, [5], bounds: Size(600, 600))
        #expect(Self.frame(wide, 0, 3) == Rect(x: 450, y: 15, width: 135, height: 34))
        #expect(Self.frame(wide, 0, 4) == Rect(x: 15, y: 69, width: 135, height: 34))
        // 1000: 5 columns of 980/5 = 196 → item 4 at 10 + 4·196 + 5 = 799, one row.
        let wider = Self.prepared(d, [5], bounds: Size(1000, 600))
        #expect(Self.frame(wider, 0, 4) == Rect(x: 799, y: 15, width: 186, height: 34))
        #expect(wider.contentSize == Size(1000, 64))
    }

    @Test func halfWidthItemsWithFixedSpacingFitOnePerGroup() {
        // 177.5 + 10 + 177.5 = 365 > 355: the second does not fit, sizes never shrink.
        let l = Self.prepared(Self.workedExample(spacing: .fixed(10)), [2])
        #expect(Self.frame(l, 0, 1) == Rect(x: 15, y: 69, width: 167.5, height: 34))
    }

    @Test func fractionalSizesResolveAgainstTheirContainer() {
        // A group 40 % of the visible height (600 − 20 − 20 = 560 → 224) holding items a third of its width.
        let item = CompositionalItem(size: Self.size(.fractionalWidth(1.0 / 3), .fractionalWidth(1.0 / 3)))
        let group = CompositionalGroup.horizontal(Self.size(.fractionalWidth(1), .fractionalHeight(0.4)), [.item(item)])
        let d = CompositionalDescription(sections: [CompositionalSection(group: group, contentInsets: EdgeInsets(top: 20, left: 0, bottom: 20, right: 0))])
        let l = Self.prepared(d, [4], bounds: Size(300, 600))
        // Items 100 × 100 (a third of 300 for both); three per row; row 2 starts at 20 + 224.
        #expect(Self.frame(l, 0, 0) == Rect(x: 0, y: 20, width: 100, height: 100))
        #expect(Self.frame(l, 0, 2) == Rect(x: 200, y: 20, width: 100, height: 100))
        #expect(Self.frame(l, 0, 3) == Rect(x: 0, y: 244, width: 100, height: 100))
        #expect(l.contentSize.height == 20 + 224 + 224 + 20)
    }

    @Test func nestedGroups() {
        // Apple's "Nested Groups": a 0.7-wide item beside a 0.3-wide column of two items, insets 10, group 0.4 high.
        let leading = CompositionalItem(size: Self.size(.fractionalWidth(0.7), .fractionalHeight(1)), contentInsets: EdgeInsets(all: 10))
        let trailingItem = CompositionalItem(size: Self.size(.fractionalWidth(1), .fractionalHeight(0.3)), contentInsets: EdgeInsets(all: 10))
        let column = CompositionalGroup.vertical(Self.size(.fractionalWidth(0.3), .fractionalHeight(1)), [.item(trailingItem)], count: 2)
        let group = CompositionalGroup.horizontal(Self.size(.fractionalWidth(1), .fractionalHeight(0.4)), [.item(leading), .group(column)])
        let l = Self.prepared(CompositionalDescription(sections: [CompositionalSection(group: group)]), [4], bounds: Size(400, 500))
        // Group 400 × 200. Leading slot 280 × 200 → (10, 10, 260, 180). Column at x 280, 120 × 200,
        // two slots 100 high (count ignores the item's own height) → (290, 10, 100, 80), (290, 110, 100, 80).
        #expect(Self.frame(l, 0, 0) == Rect(x: 10, y: 10, width: 260, height: 180))
        #expect(Self.frame(l, 0, 1) == Rect(x: 290, y: 10, width: 100, height: 80))
        #expect(Self.frame(l, 0, 2) == Rect(x: 290, y: 110, width: 100, height: 80))
        // The next group repeats at y 200.
        #expect(Self.frame(l, 0, 3) == Rect(x: 10, y: 210, width: 260, height: 180))
    }

    @Test func customGroupFrames() {
        let frames = [CompositionalCustomFrame(frame: Rect(x: 0, y: 0, width: 50, height: 50)),
                      CompositionalCustomFrame(frame: Rect(x: 100, y: 25, width: 30, height: 30), zIndex: 3)]
        let group = CompositionalGroup(size: Self.size(.fractionalWidth(1), .absolute(80)), arrangement: .custom(frames))
        let l = Self.prepared(CompositionalDescription(sections: [CompositionalSection(group: group, interGroupSpacing: 5)]), [3])
        #expect(Self.frame(l, 0, 1) == Rect(x: 100, y: 25, width: 30, height: 30))
        #expect(l.attributes(for: .cell(0, 1))?.zIndex == 3)
        // Third cell: second group at 80 + 5.
        #expect(Self.frame(l, 0, 2) == Rect(x: 0, y: 85, width: 50, height: 50))
    }

    @Test func flexibleSpacingSharesTheRest() {
        let item = CompositionalItem(size: Self.size(.absolute(50), .absolute(50)))
        let group = CompositionalGroup.horizontal(Self.size(.absolute(300), .absolute(50)), [.item(item)], spacing: .flexible(10))
        let l = Self.prepared(CompositionalDescription(sections: [CompositionalSection(group: group)]), [6])
        // 5 × 50 + 4 × 10 = 290 ≤ 300 (a sixth would need 350); the 10 left over splits into 4 gaps: 12.5 each.
        let xs = (0..<5).map { Self.frame(l, 0, $0)!.origin.x }
        #expect(xs == [0, 62.5, 125, 187.5, 250])
        #expect(Self.frame(l, 0, 5)!.origin == Point(0, 50))
    }

    @Test func flexibleEdgeSpacingCentresAcross() {
        let item = CompositionalItem(size: Self.size(.absolute(50), .absolute(20)),
                                     edgeSpacing: CompositionalEdgeSpacing(top: .flexible(0), bottom: .flexible(0)))
        let group = CompositionalGroup.horizontal(Self.size(.absolute(100), .absolute(60)), [.item(item)])
        let l = Self.prepared(CompositionalDescription(sections: [CompositionalSection(group: group)]), [1])
        // 60 − 20 = 40 across, half above: y 20.
        #expect(Self.frame(l, 0, 0) == Rect(x: 0, y: 20, width: 50, height: 20))
    }

    static func headerFooterDescription(pinned: Bool) -> CompositionalDescription {
        let item = CompositionalItem(size: size(.fractionalWidth(1), .absolute(50)))
        let group = CompositionalGroup.horizontal(size(.fractionalWidth(1), .absolute(50)), [.item(item)])
        return CompositionalDescription(sections: [CompositionalSection(group: group, contentInsets: EdgeInsets(all: 10), interGroupSpacing: 5,
                                                                        boundaryItems: [.header(height: .absolute(30), pinned: pinned, zIndex: 2),
                                                                                        .footer(height: .absolute(20))])])
    }

    @Test func headersAndFootersTakeRoom() {
        let l = Self.prepared(Self.headerFooterDescription(pinned: false), [3, 2])
        // Section 0: header 0–30 (inside the side insets: x 10, width 355), top inset to 40, rows at 40, 95, 150,
        // content ends 150 + 50 + 10 = 210, footer 210–230. Section 1 starts at 230.
        #expect(l.attributes(for: .header(0))?.frame == Rect(x: 10, y: 0, width: 355, height: 30))
        #expect(Self.frame(l, 0, 0) == Rect(x: 10, y: 40, width: 355, height: 50))
        #expect(Self.frame(l, 0, 2) == Rect(x: 10, y: 150, width: 355, height: 50))
        #expect(l.attributes(for: .footer(0))?.frame == Rect(x: 10, y: 210, width: 355, height: 20))
        #expect(l.attributes(for: .header(1))?.frame.origin.y == 230)
        // Section 1: 30 + 10 + 50 + 5 + 50 + 10 + 20 = 175.
        #expect(l.contentSize.height == 230 + 175)
    }

    @Test func pinnedHeadersFollowTheVisibleTopWithinTheirSection() {
        var l = Self.prepared(Self.headerFooterDescription(pinned: true), [3, 2])
        #expect(l.shouldInvalidate(forBoundsChange: Rect(x: 0, y: 100, width: 375, height: 600)))
        let d = Self.data([3, 2])
        // Scrolled to 100: held at 100 (inside section 0, whose content ends at 210).
        l.prepare(LayoutContext(data: d, boundsSize: Size(375, 600), contentOffset: Point(0, 100)), invalidation: .boundsChange)
        #expect(l.attributes(for: .header(0))?.frame.origin.y == 100)
        #expect(l.attributes(for: .header(0))?.zIndex == 2)
        #expect(l.attributes(in: Rect(x: 0, y: 100, width: 375, height: 10)).contains { $0.element == .header(0) })
        // At 200: pushed up by its content's end, 210 − 30 = 180; section 1's header at its own place.
        l.prepare(LayoutContext(data: d, boundsSize: Size(375, 600), contentOffset: Point(0, 200)), invalidation: .boundsChange)
        #expect(l.attributes(for: .header(0))?.frame.origin.y == 180)
        #expect(l.attributes(for: .header(1))?.frame.origin.y == 230)
        // At 300: section 1's header pinned at 300.
        l.prepare(LayoutContext(data: d, boundsSize: Size(375, 600), contentOffset: Point(0, 300)), invalidation: .boundsChange)
        #expect(l.attributes(for: .header(1))?.frame.origin.y == 300)
    }

    @Test func badgesAnchorToTheItemsCorner() {
        // Apple's "Item Badges": a 20 × 20 badge on [top, trailing] with fractional offset (0.3, −0.3).
        let badge = CompositionalSupplementaryItem(kind: "badge", size: Self.size(.absolute(20), .absolute(20)),
                                                   anchor: CompositionalAnchor(edges: [.top, .trailing], offset: Point(0.3, -0.3), isFractionalOffset: true))
        let item = CompositionalItem(size: Self.size(.fractionalWidth(0.25), .fractionalHeight(1)), supplementaryItems: [badge])
        let group = CompositionalGroup.horizontal(Self.size(.fractionalWidth(1), .absolute(100)), [.item(item)])
        let l = Self.prepared(CompositionalDescription(sections: [CompositionalSection(group: group, contentInsets: EdgeInsets(all: 20))]), [5], bounds: Size(400, 600))
        // Items 90 wide (360 / 4); item 1 at x 20 + 90 = 110, y 20: badge at maxX − 20 + 6 = 186, minY − 6 = 14.
        let a = l.attributes(for: ElementID(kind: .supplementary("badge"), indexPath: IndexPath(0, 1)))
        #expect(a?.frame == Rect(x: 186, y: 14, width: 20, height: 20))
        #expect(a?.zIndex == 1)
        // Item 4 (second row, y 120) has its badge too, and the badges come right after their cells.
        #expect(l.attributes(for: ElementID(kind: .supplementary("badge"), indexPath: IndexPath(0, 4)))?.frame.origin == Point(96, 114))
        let kinds = l.attributes(in: Rect(x: 0, y: 0, width: 400, height: 100)).map(\.element)
        #expect(Array(kinds.prefix(2)) == [.cell(0, 0), ElementID(kind: .supplementary("badge"), indexPath: IndexPath(0, 0))])
    }

    @Test func sectionBackgroundsSitBehindTheContent() {
        // Apple's "Section Background Decoration": section insets 10, background insets 5.
        let item = CompositionalItem(size: Self.size(.fractionalWidth(1), .absolute(40)))
        let group = CompositionalGroup.horizontal(Self.size(.fractionalWidth(1), .absolute(40)), [.item(item)])
        let d = CompositionalDescription(configuration: CompositionalConfiguration(interSectionSpacing: 20),
                                         sections: [CompositionalSection(group: group, contentInsets: EdgeInsets(all: 10), interGroupSpacing: 5,
                                                                         decorationItems: [CompositionalDecorationItem(contentInsets: EdgeInsets(all: 5))])])
        let l = Self.prepared(d, [2, 1], bounds: Size(300, 600))
        // Section 0: 10 + 40 + 5 + 40 + 10 = 105 → background (5, 5, 290, 95). Section 1 starts at 105 + 20.
        #expect(l.attributes(for: .sectionBackground(0))?.frame == Rect(x: 5, y: 5, width: 290, height: 95))
        #expect(l.attributes(for: .sectionBackground(0))?.zIndex == -1)
        #expect(l.attributes(for: .sectionBackground(1))?.frame == Rect(x: 5, y: 130, width: 290, height: 50))
    }

    @Test func listPresetsExpandIntoRows() {
        var l = CompositionalLayout(CompositionalDescription(sections: []),
                                    list: CompositionalListConfiguration(appearance: .insetGrouped, headerMode: .supplementary))
        l.prepare(LayoutContext(data: Self.data([2, 1]), boundsSize: Size(375, 600)), invalidation: .all)
        // Inset grouped (ours): 20 on every side, header 38, rows 44: header (20, 0), rows at 38 + 20.
        #expect(l.attributes(for: .header(0))?.frame == Rect(x: 20, y: 0, width: 335, height: 38))
        #expect(Self.frame(l, 0, 0) == Rect(x: 20, y: 58, width: 335, height: 44))
        #expect(Self.frame(l, 0, 1) == Rect(x: 20, y: 102, width: 335, height: 44))
        // Section 0: 38 + 20 + 88 + 20 = 166.
        #expect(l.attributes(for: .header(1))?.frame.origin.y == 166)
        var plain = CompositionalLayout()
        plain.prepare(LayoutContext(data: Self.data([2]), boundsSize: Size(375, 600)), invalidation: .all)
        #expect(Self.frame(plain, 0, 1) == Rect(x: 0, y: 44, width: 375, height: 44))
    }

    @Test func sectionProviderPicksByIdentifier() {
        let small = CompositionalItem(size: Self.size(.absolute(10), .absolute(10)))
        let big = CompositionalItem(size: Self.size(.absolute(100), .absolute(100)))
        let d = CompositionalDescription(sections: [
            CompositionalSection(name: "small", group: .horizontal(Self.size(.absolute(10), .absolute(10)), [.item(small)])),
            CompositionalSection(name: "big", group: .horizontal(Self.size(.absolute(100), .absolute(100)), [.item(big)])),
        ], rule: .byIdentifier(["news": "big"], fallback: "small"))
        let l = Self.prepared(d, [1, 1, 1], ids: ["other", "news", "more"])
        #expect(Self.frame(l, 0, 0)?.size == Size(10, 10))
        #expect(Self.frame(l, 1, 0) == Rect(x: 0, y: 10, width: 100, height: 100))
        #expect(Self.frame(l, 2, 0) == Rect(x: 0, y: 110, width: 10, height: 10))
        var cycling = d
        cycling.rule = .cycling
        let c = Self.prepared(cycling, [1, 1, 1])
        #expect(Self.frame(c, 2, 0) == Rect(x: 0, y: 110, width: 10, height: 10))
    }

    @Test func orthogonalSectionsLayTheirGroupsAcross() {
        let item = CompositionalItem(size: Self.size(.fractionalWidth(1), .fractionalHeight(1)))
        let group = CompositionalGroup.horizontal(Self.size(.fractionalWidth(0.8), .absolute(100)), [.item(item)])
        let d = CompositionalDescription(sections: [CompositionalSection(group: group, contentInsets: EdgeInsets(all: 10), interGroupSpacing: 10,
                                                                         orthogonalScrollingBehavior: .groupPaging)])
        var l = Self.prepared(d, [3, 1], bounds: Size(300, 600))
        // Group 0.8 × 280 = 224 wide; groups at x 10, 10 + 234, 10 + 468; all at y 10. Section 120 high.
        #expect(Self.frame(l, 0, 1) == Rect(x: 244, y: 10, width: 224, height: 100))
        #expect(Self.frame(l, 0, 2) == Rect(x: 478, y: 10, width: 224, height: 100))
        #expect(Self.frame(l, 1, 0)?.origin.y == 130)
        #expect(l.contentSize == Size(300, 240))
        l.orthogonalOffsets[0] = 234
        #expect(Self.frame(l, 0, 1)?.origin.x == 10)
        #expect(Self.frame(l, 1, 0)?.origin.x == 10)
        let visible = l.attributes(in: Rect(x: 0, y: 0, width: 300, height: 120)).map(\.element)
        // Cell 0 now spans −224…0: touching the rect's edge is not intersecting.
        #expect(visible == [.cell(0, 1), .cell(0, 2)])
        let shown = l.attributes(in: Rect(x: 240, y: 0, width: 60, height: 120)).map(\.element)
        #expect(shown == [.cell(0, 2)])
    }

    @Test func horizontalLayoutsAreTheTranspose() {
        var d = Self.workedExample()
        d.configuration.scrollDirection = .horizontal
        // The same description scrolling sideways: a fraction of the width is still of the width (375),
        // so a "row" group is 375 wide and 44 high and groups follow along x.
        let item = CompositionalItem(size: Self.size(.fractionalWidth(1), .fractionalHeight(0.5)))
        d.sections[0].group = .vertical(Self.size(.absolute(100), .fractionalHeight(1)), [.item(item)])
        d.sections[0].contentInsets = EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)
        let l = Self.prepared(d, [3], bounds: Size(375, 300))
        // Height 300 − 20 = 280; items 100 × 140: (20, 10), (20, 150), then the next group at x 20 + 100 + 10.
        #expect(Self.frame(l, 0, 0) == Rect(x: 20, y: 10, width: 100, height: 140))
        #expect(Self.frame(l, 0, 1) == Rect(x: 20, y: 150, width: 100, height: 140))
        #expect(Self.frame(l, 0, 2) == Rect(x: 130, y: 10, width: 100, height: 140))
        #expect(l.contentSize == Size(20 + 100 + 10 + 100 + 20, 300))
    }

    /// Random descriptions, data and rects: a rect query returns exactly the elements of the
    /// brute force that intersect it, in its order, and pages of it add up to it.
    @Test func queriesMatchTheBruteForce() {
        var rng = SplitMix64(seed: 30)
        func r(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        func len(_ lo: Int, _ hi: Int) -> Double { Double(lo + r(hi - lo + 1)) + (r(2) == 0 ? 0.5 : 0) }
        for round in 0..<120 {
            var sections: [CompositionalSection] = []
            for _ in 0..<(1 + r(3)) {
                let badge = CompositionalSupplementaryItem(kind: "badge", size: Self.size(.absolute(10), .absolute(10)),
                                                           anchor: CompositionalAnchor(edges: [.top, .trailing], offset: Point(5, -8)))
                let item = CompositionalItem(size: Self.size(.fractionalWidth(Double(1 + r(4)) / 4), r(2) == 0 ? .absolute(len(10, 60)) : .fractionalHeight(1)),
                                             contentInsets: EdgeInsets(all: Double(r(4))), supplementaryItems: r(3) == 0 ? [badge] : [])
                var group = CompositionalGroup.horizontal(Self.size(.fractionalWidth(1), .absolute(len(20, 80))), [.item(item)],
                                                          count: r(3) == 0 ? 1 + r(3) : nil, spacing: r(2) == 0 ? .fixed(Double(r(10))) : .flexible(Double(r(10))))
                if r(3) == 0 {
                    group = .vertical(Self.size(.fractionalWidth(1), .absolute(len(60, 160))), [.group(group), .item(item)])
                }
                var boundary: [CompositionalBoundaryItem] = []
                if r(2) == 0 { boundary.append(.header(height: .absolute(len(10, 40)), pinned: r(2) == 0)) }
                if r(2) == 0 { boundary.append(.footer(height: .absolute(len(10, 30)))) }
                sections.append(CompositionalSection(group: group, contentInsets: EdgeInsets(all: Double(r(12))), interGroupSpacing: Double(r(12)),
                                                     orthogonalScrollingBehavior: r(4) == 0 ? .continuous : .none, boundaryItems: boundary,
                                                     decorationItems: r(3) == 0 ? [CompositionalDecorationItem(contentInsets: EdgeInsets(all: 3))] : []))
            }
            var d = CompositionalDescription(configuration: CompositionalConfiguration(scrollDirection: r(3) == 0 ? .horizontal : .vertical,
                                                                                      interSectionSpacing: Double(r(20))),
                                             sections: sections, rule: r(2) == 0 ? .byIndex : .cycling)
            if d.configuration.scrollDirection == .horizontal { d.sections = d.sections.map { var s = $0; s.orthogonalScrollingBehavior = .none; return s } }
            let counts = (0..<(1 + r(6))).map { _ in r(40) }
            var l = Self.prepared(d, counts, bounds: Size(len(200, 500), len(200, 700)), offset: Point(0, Double(r(400))))
            for (s, _) in counts.enumerated() where r(2) == 0 { l.orthogonalOffsets[s] = Double(r(300)) - 50 }
            let all = l.allAttributes()
            for _ in 0..<20 {
                let rect = Rect(x: len(-100, 600), y: len(-100, 3000), width: len(1, 400), height: len(1, 800))
                let expected = all.filter { $0.frame.intersects(rect) }
                let got = l.attributes(in: rect)
                #expect(got == expected, "round \(round) rect \(rect)")
                let pageSize = 1 + r(7)
                var paged: [LayoutAttributes] = [], after: ElementID? = nil
                while true {
                    let page = l.attributes(in: rect, after: after, limit: pageSize)
                    paged += page
                    guard page.count == pageSize, let last = page.last else { break }
                    after = last.element
                }
                #expect(paged == expected, "paged round \(round) rect \(rect)")
            }
        }
    }
}
