import Testing
@testable import TrellisCore

/// SplitMix64: a tiny deterministic generator, so every random layout can be replayed from its seed.
fileprivate extension SplitMix64 {
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

    /// A whole number, a half, or an arbitrary fraction in `range`.
    mutating func length(_ range: ClosedRange<Int>) -> Double {
        let whole = Double(int(range))
        switch int(0...2) {
        case 0: return whole
        case 1: return whole + 0.5
        default: return whole + Double(int(0...999)) / 1000
        }
    }

    mutating func size(_ range: ClosedRange<Int>) -> Size { Size(length(range), length(range)) }
}

/// A random configuration, data set and view geometry.
private struct RandomFlow {
    var metrics: FlowLayoutMetrics
    var sections: [[Size?]]
    var bounds: Size
    var offset: Point
    var inset: EdgeInsets

    init(_ rng: inout SplitMix64) {
        metrics = FlowLayoutMetrics()
        metrics.scrollDirection = rng.chance(0.5) ? .vertical : .horizontal
        metrics.itemSize = rng.size(5...120)
        // Mostly ordinary spacing; now and then negative, which overlaps rows or items (UIKit allows it).
        metrics.minimumLineSpacing = rng.chance(0.15) ? -rng.length(0...60) : rng.length(0...20)
        metrics.minimumInteritemSpacing = rng.chance(0.1) ? -rng.length(0...30) : rng.length(0...20)
        if rng.chance(0.6) {
            metrics.sectionInset = EdgeInsets(top: rng.length(0...30), left: rng.length(0...30),
                                              bottom: rng.length(0...30), right: rng.length(0...30))
        }
        if rng.chance(0.5) { metrics.headerReferenceSize = rng.size(0...50) }
        if rng.chance(0.5) { metrics.footerReferenceSize = rng.size(0...50) }
        metrics.sectionHeadersPinToVisibleBounds = rng.chance(0.4)
        metrics.sectionFootersPinToVisibleBounds = rng.chance(0.3)
        metrics.sectionBackgroundDecoration = rng.chance(0.4)
        let sectionCount = rng.int(0...5)
        for s in 0..<sectionCount where rng.chance(0.3) {
            var o = FlowSectionOverrides()
            if rng.chance(0.5) { o.inset = EdgeInsets(all: rng.length(0...20)) }
            if rng.chance(0.5) { o.minimumLineSpacing = rng.length(0...25) }
            if rng.chance(0.5) { o.minimumInteritemSpacing = rng.length(0...25) }
            if rng.chance(0.5) { o.headerReferenceSize = rng.chance(0.3) ? .zero : rng.size(1...40) }
            if rng.chance(0.5) { o.footerReferenceSize = rng.chance(0.3) ? .zero : rng.size(1...40) }
            metrics.sectionOverrides[s] = o
        }
        sections = []
        for _ in 0..<sectionCount { sections.append(RandomFlow.items(&rng)) }
        bounds = Size(rng.length(60...600), rng.length(60...600))
        offset = Point(rng.length(-100...1500), rng.length(-100...1500))
        inset = rng.chance(0.3) ? EdgeInsets(top: rng.length(0...40), left: rng.length(0...40),
                                             bottom: rng.length(0...40), right: rng.length(0...40)) : .zero
    }

    /// Uniform (all default), partly sized, or all sized items; sometimes wider than any row.
    static func items(_ rng: inout SplitMix64) -> [Size?] {
        let count = rng.int(0...60)
        let sizedShare = [0.0, 0.3, 1.0][rng.int(0...2)]
        let largest = rng.chance(0.1) ? 700 : 120
        return (0..<count).map { _ in rng.chance(sizedShare) ? rng.size(1...largest) : nil }
    }

    var context: LayoutContext {
        LayoutContext(data: flowData(sections), boundsSize: bounds, contentOffset: offset, contentInset: inset)
    }

    func prepared() -> FlowLayout {
        var layout = FlowLayout(metrics: metrics)
        layout.prepare(context, invalidation: .all)
        return layout
    }
}

/// What a rect query is compared on: the element, its frame and its z-index.
private struct Placed: Hashable {
    var element: ElementID
    var frame: Rect
    var zIndex: Int
    init(_ a: LayoutAttributes) { element = a.element; frame = a.frame; zIndex = a.zIndex }
}

@Suite struct FlowLayoutOracleTests {
    @Test func rectQueriesMatchABruteForceFilterOnRandomLayouts() {
        var rng = SplitMix64(seed: 2024)
        var queries = 0, nonEmpty = 0
        for configuration in 0..<400 {
            let random = RandomFlow(&rng)
            let layout = random.prepared()
            let all = layout.allAttributes()
            let content = layout.contentSize
            var rects = [Rect(origin: random.offset, size: random.bounds),
                         Rect(x: -1, y: -1, width: content.width + 2, height: content.height + 2)]
            for _ in 0..<12 {
                let w = rng.chance(0.1) ? 0 : rng.length(0...500), h = rng.chance(0.1) ? 0 : rng.length(0...500)
                // Negative line spacing can make rows climb above 0, so look there too.
                rects.append(Rect(x: rng.length(-400...Swift.max(0, Int(content.width)) + 200),
                                  y: rng.length(-400...Swift.max(0, Int(content.height)) + 200), width: w, height: h))
            }
            for rect in rects {
                let expected = all.filter { $0.frame.intersects(rect) }
                let found = layout.attributes(in: rect)
                #expect(Set(found.map(Placed.init)) == Set(expected.map(Placed.init)),
                        "configuration \(configuration), rect \(rect)")
                // Same order too: section by section, background, header, cells, footer.
                #expect(found.map(\.element) == expected.map(\.element), "configuration \(configuration), rect \(rect)")
                queries += 1
                if !expected.isEmpty { nonEmpty += 1 }
            }
            // Every element answers for itself, and nothing else does.
            #expect(Set(all.map(\.element)).count == all.count)
            for a in all { #expect(layout.attributes(for: a.element) == a, "configuration \(configuration)") }
        }
        #expect(queries == 400 * 14)
        #expect(nonEmpty > queries / 3)
    }

    /// A rect query a page at a time (`after`, `limit`) gives the whole query's elements in its
    /// order, each once; after any element (in the rect or not) it goes on with what follows it.
    @Test func pagedRectQueriesAddUpToTheWholeQuery() {
        var rng = SplitMix64(seed: 28)
        var pagesSeen = 0
        for configuration in 0..<150 {
            let random = RandomFlow(&rng)
            let layout = random.prepared()
            let all = layout.allAttributes()
            let content = layout.contentSize
            var rects = [Rect(x: -1, y: -1, width: content.width + 2, height: content.height + 2)]
            for _ in 0..<4 {
                rects.append(Rect(x: rng.length(-400...Swift.max(0, Int(content.width)) + 200),
                                  y: rng.length(-400...Swift.max(0, Int(content.height)) + 200),
                                  width: rng.length(0...500), height: rng.length(0...500)))
            }
            for rect in rects {
                let whole = layout.attributes(in: rect)
                for limit in [1, 2, 5, 17] {
                    var pages: [LayoutAttributes] = []
                    var after: ElementID?
                    while true {
                        let page = layout.attributes(in: rect, after: after, limit: limit)
                        #expect(page.count <= limit)
                        pages += page
                        pagesSeen += 1
                        guard page.count == limit, let last = page.last else { break }
                        after = last.element
                    }
                    #expect(pages.map(\.element) == whole.map(\.element), "configuration \(configuration), rect \(rect), limit \(limit)")
                }
                // After any element of the layout: what follows it in the layout's order.
                for (k, element) in all.enumerated() where k % 3 == 0 {
                    let following = Set(all[(k + 1)...].map(\.element))
                    let expected = whole.filter { following.contains($0.element) }
                    #expect(layout.attributes(in: rect, after: element.element, limit: .max).map(\.element) == expected.map(\.element),
                            "configuration \(configuration), rect \(rect), after \(element.element)")
                }
            }
        }
        #expect(pagesSeen > 1000)
    }

    @Test func uniformSectionsMatchTheSameSizesGivenPerItem() {
        var rng = SplitMix64(seed: 7)
        for configuration in 0..<200 {
            let random = RandomFlow(&rng)
            var sized = random
            sized.sections = random.sections.map { $0.map { $0 ?? random.metrics.itemSize } }
            let uniform = random.prepared().allAttributes(), explicit = sized.prepared().allAttributes()
            #expect(uniform.map(\.element) == explicit.map(\.element))
            for (a, b) in zip(uniform, explicit) where !a.frame.isClose(to: b.frame) {
                Issue.record("configuration \(configuration): \(a.element) \(a.frame) vs \(b.frame)")
                break
            }
        }
    }

    @Test func invalidatingOneSectionGivesWhatAFullPrepareGives() {
        var rng = SplitMix64(seed: 99)
        var checked = 0
        for configuration in 0..<200 {
            let random = RandomFlow(&rng)
            guard !random.sections.isEmpty else { continue }
            var layout = random.prepared()
            let before = layout.sectionLayoutCount
            var changed = random
            let s = rng.int(0...random.sections.count - 1)
            switch rng.int(0...2) {
            case 0: changed.sections[s] = RandomFlow.items(&rng)                                      // replaced
            case 1: changed.sections[s].append(contentsOf: RandomFlow.items(&rng))                    // grown
            default: changed.sections[s] = changed.sections[s].map { $0 == nil ? rng.size(1...80) : nil } // resized
            }
            layout.prepare(changed.context, invalidation: .sections([s]))
            #expect(layout.sectionLayoutCount == before + 1)
            let full = changed.prepared()
            #expect(layout.allAttributes() == full.allAttributes(), "configuration \(configuration), section \(s)")
            #expect(layout.contentSize == full.contentSize)
            let visible = Rect(origin: changed.offset, size: changed.bounds)
            #expect(layout.attributes(in: visible) == full.attributes(in: visible))
            checked += 1
        }
        #expect(checked > 150)
    }

    @Test func boundsChangesKeepFramesUnlessTheWidthChanges() {
        var rng = SplitMix64(seed: 5)
        for configuration in 0..<100 {
            var random = RandomFlow(&rng)
            var layout = random.prepared()
            let count = layout.sectionLayoutCount
            let cells = layout.allAttributes().filter(\.element.isCell)
            let size = layout.contentSize
            // Scroll and change the length along the scroll axis: geometry stays.
            random.offset = Point(rng.length(-100...2000), rng.length(-100...2000))
            let vertical = random.metrics.scrollDirection == .vertical
            if vertical { random.bounds.height = rng.length(60...900) } else { random.bounds.width = rng.length(60...900) }
            layout.prepare(random.context, invalidation: .boundsChange)
            #expect(layout.sectionLayoutCount == count, "configuration \(configuration)")
            #expect(layout.allAttributes().filter(\.element.isCell) == cells)
            #expect(layout.contentSize == size)
            // The whole answer, pinned elements included, is what a fresh prepare at these bounds gives.
            #expect(layout.allAttributes() == random.prepared().allAttributes(), "configuration \(configuration)")
            // A new width re-lays out every section.
            if vertical { random.bounds.width += 37 } else { random.bounds.height += 37 }
            layout.prepare(random.context, invalidation: .boundsChange)
            #expect(layout.sectionLayoutCount == count + random.sections.count)
            #expect(layout.allAttributes() == random.prepared().allAttributes(), "configuration \(configuration)")
        }
    }
}

private extension Rect {
    func isClose(to other: Rect) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool { Swift.abs(a - b) <= 1e-9 * Swift.max(1, Swift.abs(a)) }
        return close(minX, other.minX) && close(minY, other.minY) && close(width, other.width) && close(height, other.height)
    }
}
