#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import TrellisCore

/// The cover flow checked against its documented formula worked by hand, corner by corner: in an
/// 800×400 view with the defaults (200×200 covers, pitch 50, gap 90, depth 100, 70°, m34 −1/500)
/// cover g's slot is x = 400 + 50·g; dx = slot − visible centre, d = dx/50, c = clamp(d, −1, 1);
/// a corner (x, y) turned by φ = −c·70° about y lands at X = x·cos φ + dx + 90·c,
/// Z = −x·sin φ − 100·|c|, w = 1 − Z/500, on screen at (centre + X/w, 200 + y/w).
@Suite struct CoverFlowLayoutTests {
    static let bounds = Size(800, 400)
    static let seventy = 70 * Double.pi / 180

    func prepared(_ layout: CoverFlowLayout = CoverFlowLayout(), _ data: CollectionData = items(20), offset: Double = 0,
                  bounds: Size = CoverFlowLayoutTests.bounds) -> CoverFlowLayout {
        var layout = layout
        layout.prepare(LayoutContext(data: data, boundsSize: bounds), invalidation: .all)
        layout.prepare(LayoutContext(data: data, boundsSize: bounds, contentOffset: Point(offset, 0)), invalidation: .boundsChange)
        return layout
    }

    /// Cover g's corners on screen (clockwise from top-left), by hand.
    func expectedCorners(_ g: Int, offset: Double, size: Size = Size(200, 200), angle: Double = Self.seventy,
                         m34: Double = -1.0 / 500, gap: Double = 90, depth: Double = 100, pitch: Double = 50,
                         bounds: Size = Self.bounds) -> [Point] {
        let centre = offset + bounds.width / 2
        let dx = bounds.width / 2 + Double(g) * pitch - centre
        let c = min(1, max(-1, dx / pitch))
        let phi = -c * angle
        let hw = size.width / 2, hh = size.height / 2
        return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { (x: Double, y: Double) in
            let X = x * cos(phi) + dx + c * gap
            let Z = -x * sin(phi) - abs(c) * depth
            let w = 1 + Z * m34
            return Point(centre + X / w, bounds.height / 2 + y / w)
        }
    }

    func box(_ corners: [Point]) -> Rect {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return Rect(xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!)
    }

    func nearCorners(_ a: [Point], _ b: [Point]) -> Bool { zip(a, b).allSatisfy { near($0, $1, 1e-7) } }

    @Test func coversFollowTheFormulaAtRestHalfwayAndAtTheEnds() {
        // The centred cover faces the viewer: its corners are its frame's.
        let rest = prepared()
        #expect(rest.attributes(for: .cell(0, 0))!.transformedCorners == [Point(300, 100), Point(500, 100), Point(500, 300), Point(300, 300)])
        for offset in [0.0, 25, 37.5, 350, 950] {
            let layout = prepared(offset: offset)
            for g in 0..<20 {
                let a = layout.attributes(for: .cell(0, g))!
                #expect(a.frame == Rect(300 + 50 * Double(g), 100, 200, 200))
                #expect(nearCorners(a.transformedCorners, expectedCorners(g, offset: offset)), "cover \(g) at \(offset)")
                let d = (50 * Double(g) - offset) / 50
                #expect(a.zIndex == -Int((abs(d) * 1000).rounded()))
                #expect(!a.isHidden && a.alpha == 1)
            }
        }
        // Halfway between covers 0 and 1 both are turned 35° toward the viewer, mirror images.
        let half = prepared(offset: 25)
        let left = half.attributes(for: .cell(0, 0))!.transformedCorners, right = half.attributes(for: .cell(0, 1))!.transformedCorners
        #expect(near(left[0].x + right[1].x, 2 * 425, 1e-9) && near(left[0].y, right[1].y, 1e-9))
        // A side cover's outer edge is nearer (taller) than its inner one.
        let side = prepared().attributes(for: .cell(0, 3))!.transformedCorners
        #expect(side[2].y - side[1].y > side[3].y - side[0].y)
        #expect(prepared().contentSize == Size(19 * 50 + 800, 400))
    }

    @Test func rectQueriesReturnExactlyTheCoversThatMeetTheRectBackToFront() {
        for (count, offsets) in [(20, [0.0, 25, 350, 950, -60, 1000]), (2000, [50_000.0, 50_012.5, 99_950])] {
            let data = items(count)
            for offset in offsets {
                let layout = prepared(data, offset: offset)
                let visible = Rect(offset, 0, 800, 400)
                for rect in [visible, visible.expanded(dx: 64, dy: 64), Rect(offset - 30, 150, 60, 10), Rect(offset + 700, 0, 400, 400)] {
                    let shown = layout.attributes(in: rect)
                    let expected = (0..<count).filter { box(expectedCorners($0, offset: offset)).intersects(rect) }
                    #expect(shown.map(\.indexPath.item).sorted() == expected, "offset \(offset), rect \(rect)")
                    // Back to front: depth, then slot order.
                    #expect(zip(shown, shown.dropFirst()).allSatisfy { ($0.zIndex, $0.indexPath.item) < ($1.zIndex, $1.indexPath.item) })
                    for a in shown { #expect(layout.attributes(for: a.element) == a) }
                }
            }
        }
    }

    func prepared(_ data: CollectionData, offset: Double) -> CoverFlowLayout { prepared(CoverFlowLayout(), data, offset: offset) }

    @Test func missingItemsHaveNoAttributes() {
        let layout = prepared()
        for missing: ElementID in [.cell(0, 20), .cell(0, -1), .cell(1, 0), .cell(-1, 0), .header(0)] {
            #expect(layout.attributes(for: missing) == nil)
        }
        #expect(prepared(CoverFlowLayout(), items(0)).attributes(in: Rect(0, 0, 800, 400)).isEmpty)
    }

    @Test func snappingRestsOnTheNearestSlotWhateverTheVelocity() {
        let layout = prepared()
        for v in [-4000.0, -10, 0, 10, 4000] {
            let velocity = Point(v, 0)
            for (proposed, target) in [(0.0, 0.0), (24, 0), (26, 50), (374, 350), (975, 950), (-300, 0), (1e7, 950)] {
                #expect(layout.targetContentOffset(forProposed: Point(proposed, 3), velocity: velocity) == Point(target, 3))
                #expect(layout.targetContentOffset(forProposed: Point(proposed, 3)) == Point(target, 3))
            }
        }
        #expect(prepared(CoverFlowLayout(), items(0)).targetContentOffset(forProposed: Point(33, 0), velocity: Point(9, 0)) == Point(33, 0))
    }

    @Test func scrollingThroughTheWholeRowNeverJumps() {
        // Worked out from the formula: no corner moves faster than 2.69 pt per point scrolled.
        var layout = prepared()
        var previous: [ElementID: [Point]] = [:]
        let step = 0.5
        var offset = -100.0
        while offset <= 1050 {
            layout.prepare(LayoutContext(data: items(20), boundsSize: Self.bounds, contentOffset: Point(offset, 0)), invalidation: .boundsChange)
            var now: [ElementID: [Point]] = [:]
            for a in layout.attributes(in: Rect(offset, 0, 800, 400).expanded(dx: 64, dy: 64)) {
                now[a.element] = a.transformedCorners
                if let before = previous[a.element] {
                    for (p, q) in zip(before, a.transformedCorners) {
                        #expect(abs(p.x - q.x) <= 2.7 * step && abs(p.y - q.y) <= 2.7 * step, "\(a.element) jumped at \(offset)")
                    }
                }
            }
            previous = now
            offset += step
        }
    }

    @Test func currentItemIsTheCoverOnTheCentre() {
        #expect(prepared(offset: 0).currentItem == IndexPath(0, 0))
        #expect(prepared(offset: 74).currentItem == IndexPath(0, 1))
        #expect(prepared(offset: 76).currentItem == IndexPath(0, 2))
        #expect(prepared(offset: -500).currentItem == IndexPath(0, 0))
        #expect(prepared(offset: 5000).currentItem == IndexPath(0, 19))
        // Sections share the row: global cover 3 is section 1's second.
        #expect(prepared(CoverFlowLayout(), items(2, sections: 3), offset: 150).currentItem == IndexPath(1, 1))
        #expect(prepared(CoverFlowLayout(), items(0)).currentItem == nil)
    }

    @Test func sectionsShareTheRowAndItemsKeepTheirOwnSize() throws {
        let data = try CollectionData(sections: [
            Section(id: "a", items: [Item(id: "a0"), Item(id: "a1"), Item(id: "a2")]),
            Section(id: "b", items: [Item(id: "b0", size: Size(100, 300)), Item(id: "b1")]),
        ])
        let layout = prepared(CoverFlowLayout(), data, offset: 100)
        let tall = layout.attributes(for: .cell(1, 0))!
        #expect(tall.frame == Rect(400 + 150 - 50, 50, 100, 300))
        #expect(nearCorners(tall.transformedCorners, expectedCorners(3, offset: 100, size: Size(100, 300))))
        #expect(nearCorners(layout.attributes(for: .cell(1, 1))!.transformedCorners, expectedCorners(4, offset: 100)))
        #expect(layout.contentSize == Size(4 * 50 + 800, 400))
        #expect(layout.attributes(for: .cell(1, 2)) == nil)
    }

    @Test func coversFadeInAndOutAtTheirPlace() {
        let layout = prepared()
        let appearing = layout.initialAttributes(forAppearing: .cell(0, 0))!
        #expect(appearing.alpha == 0 && nearCorners(appearing.transformedCorners, [Point(320, 120), Point(480, 120), Point(480, 280), Point(320, 280)]))
        let leaving = layout.finalAttributes(forDisappearing: .cell(0, 0), from: layout.attributes(for: .cell(0, 0))!)!
        #expect(leaving.alpha == 0 && leaving.frame == Rect(300, 100, 200, 200))
        #expect(nearCorners(leaving.transformedCorners, appearing.transformedCorners))
    }

    @Test func keysAndDefaults() {
        let layout = CoverFlowLayout()
        #expect(CoverFlowLayout.parameters.map(\.description.name) == ["itemSize", "spacing", "angle", "perspective", "gap", "depth"])
        let values = Dictionary(uniqueKeysWithValues: CoverFlowLayout.parameters.map { ($0.description.name, $0.get(layout)) })
        #expect(values["itemSize"] == .size(Size(200, 200)))
        #expect(values["spacing"] == .number(0.25))
        #expect(values["angle"] == .number(7 * Double.pi / 18))
        #expect(values["perspective"] == .number(-0.002))
        #expect(values["gap"] == .number(0.45) && values["depth"] == .number(0.5))
        #expect(LayoutRegistry.type(named: "coverFlow") == CoverFlowLayout.self)
        // Set through the keys, the geometry follows: no turn, no gap, no depth is a flat row.
        var flat = layout
        for (name, value) in [("angle", 0.0), ("gap", 0), ("depth", 0), ("spacing", 1)] {
            CoverFlowLayout.parameters.first { $0.description.name == name }!.set(&flat, .number(value))
        }
        let row = prepared(flat)
        #expect(nearCorners(row.attributes(for: .cell(0, 2))!.transformedCorners,
                            [Point(700, 100), Point(900, 100), Point(900, 300), Point(700, 300)]))
    }

    @Test func everyNumberIsFiniteForExtremeParameters() {
        let extremes = [
            CoverFlowLayout(itemSize: Size(1e6, 1e6), spacing: 10, angle: .pi / 2, perspective: -0.01, gap: 10, depth: 10),
            CoverFlowLayout(itemSize: Size(1e6, 1e6), spacing: 0.01, angle: .pi / 2, perspective: -0.01, gap: 0, depth: 0),
            CoverFlowLayout(itemSize: Size(.leastNonzeroMagnitude, .leastNonzeroMagnitude), spacing: 0.01, angle: 0, perspective: 0, gap: 0, depth: 0),
            CoverFlowLayout(itemSize: Size(1e-9, 1e6), spacing: 0.01, angle: 1, perspective: -0.01, gap: 10, depth: 10),
        ]
        var hidden = 0
        for layout in extremes {
            for offset in [-1e9, -1, 0, 0.5, 123.25, 1e7, 1e12] {
                let l = prepared(layout, items(30), offset: offset)
                #expect(l.contentSize.width.isFinite)
                for g in 0..<30 {
                    let a = l.attributes(for: .cell(0, g))!
                    #expect([a.frame.minX, a.frame.minY, a.frame.width, a.frame.height].allSatisfy { $0.isFinite })
                    #expect(a.transform.values.allSatisfy { $0.isFinite }, "cover \(g) at \(offset)")
                    if a.isHidden { hidden += 1 } else {
                        #expect(a.transformedCorners.allSatisfy { $0.x.isFinite && $0.y.isFinite })
                    }
                }
                for a in l.attributes(in: Rect(offset, 0, 800, 400)) { #expect(!a.isHidden) }
                let t = l.targetContentOffset(forProposed: Point(offset, 0), velocity: Point(-5, 0))
                #expect(t.x.isFinite)
                #expect(l.currentItem != nil)
            }
        }
        // A cover 1e6 wide turned edge-on through a 100 pt eye distance reaches behind the eye.
        #expect(hidden > 0)
    }
}
