import Foundation
import Testing
@testable import TrellisCore

/// CarouselLayout against iCarousel's formulas computed by hand (CarouselTestSupport.swift):
/// 20 items of 200×200 in a 320×480 view unless a test says otherwise.
@Suite struct CarouselLayoutTests {
    static let stylesWithoutCustom = CarouselStyle.allCases.filter { $0 != .custom }

    /// Checks item `g`'s transform, alpha and hidden at scroll offset `s` items against the
    /// hand-written matrix for its offset `o`, moved from its slot to the view's centre.
    func checkItem(_ layout: CarouselLayout, style: CarouselStyle, g: Int, s: Double, o: Double, pitch: Double,
                   vertical: Bool, alpha: Double, showBackfaces: Bool) {
        let a = layout.attributes(for: .cell(0, g))!
        let c = expectedStyleMatrix(style, offset: o, vertical: vertical)
        // Slot g·pitch (plus whole turns when wrapping) from the view's centre: dx = −o·pitch.
        let expected = m4Mul(c, vertical ? m4Translate(0, -o * pitch, 0) : m4Translate(-o * pitch, 0, 0))
        #expect(m4Close(a.transform.values, expected), "\(style) item \(g) at \(s): \(a.transform.values) ≠ \(expected)")
        #expect(abs(a.alpha - alpha) < 1e-12, "\(style) item \(g) at \(s): alpha \(a.alpha) ≠ \(alpha)")
        let corners = [(-100.0, -100.0), (100, -100), (100, 100), (-100, 100)]
        let behindEye = corners.contains { x, y in x * c[3] + y * c[7] + c[15] <= 0 }
        let hidden = !(showBackfaces || c[10] > 0) || behindEye
        #expect(a.isHidden == hidden, "\(style) item \(g) at \(s): hidden \(a.isHidden) ≠ \(hidden)")
        #expect(a.size == Size(200, 200))
    }

    /// Each style's offsets for items 0, 1, 2 and 19 at scroll offsets 0 and 0.5, wrapped into
    /// (−10, 10] when the style wraps by default (the circular ones).
    func checkEveryStyle(vertical: Bool) {
        for style in CarouselStyle.allCases {
            let wraps = [.rotary, .invertedRotary, .cylinder, .invertedCylinder, .wheel, .invertedWheel].contains(style)
            let pitch = style == .coverFlow || style == .coverFlow2 ? 100.0 : 200.0
            for s in [0.0, 0.5] {
                var layout = CarouselLayout(style: style, vertical: vertical)
                layout.customTransform = .taskSwitcher
                let offset = vertical ? Point(0, s * pitch) : Point(s * pitch, 0)
                layout = preparedCarousel(layout, offset: offset)
                for g in [0, 1, 2, 19] {
                    var o = Double(g) - s
                    if wraps && o > 10 { o -= 20 }
                    var alpha = 1.0
                    if style == .timeMachine && o > 0 { alpha = 1 - min(o, 1) }
                    if style == .invertedTimeMachine && o < 0 { alpha = 1 - min(-o, 1) }
                    checkItem(layout, style: style, g: g, s: s, o: o, pitch: pitch, vertical: vertical, alpha: alpha,
                              showBackfaces: style != .invertedCylinder)
                }
            }
        }
    }

    @Test func everyStyleMatchesICarouselsTransformHorizontally() { checkEveryStyle(vertical: false) }

    @Test func everyStyleMatchesICarouselsVerticalForm() { checkEveryStyle(vertical: true) }

    @Test func wrapOptionWrapsLinearAndUnwrapsRotary() {
        // Linear with wrap: item 19 at scroll 0.5 sits at offset −1.5.
        var linear = CarouselLayout(style: .linear)
        linear.wrap = true
        linear = preparedCarousel(linear, offset: Point(100, 0))
        checkItem(linear, style: .linear, g: 19, s: 0.5, o: -1.5, pitch: 200, vertical: false, alpha: 1, showBackfaces: true)
        // Rotary without wrap: item 19 stays at offset 18.5.
        var rotary = CarouselLayout(style: .rotary)
        rotary.wrap = false
        rotary = preparedCarousel(rotary, offset: Point(100, 0))
        checkItem(rotary, style: .rotary, g: 19, s: 0.5, o: 18.5, pitch: 200, vertical: false, alpha: 1, showBackfaces: true)
        #expect(rotary.wrapPeriod == .zero)
    }

    @Test func circularCountAndRadiiFollowICarousel() {
        // W = 320, itemWidth 200: ceil(1.6)·π = 6.28 → max 12 → count 12; rotary radius
        // 100/tan(π/12) = 373.205; wheel radius 200·12/2π = 381.972.
        // The slot move after C adds dx·m44 to m41 (dx = −offset·pitch), so C's own m41 is
        // m41 − dx·m44.
        let rotary = preparedCarousel(CarouselLayout(style: .rotary))
        let r = rotary.attributes(for: .cell(0, 3))!.transform // offset 3: angle 3/12·2π = π/2
        #expect(abs(r.m41 + 600 * r.m44 - 373.205) < 1e-3) // r·sin(π/2)
        #expect(abs(r.m43 - -373.205) < 1e-3) // r·cos(π/2) − r
        let wheel = preparedCarousel(CarouselLayout(style: .wheel))
        let t = wheel.attributes(for: .cell(0, 3))!.transform // rotated 3·2π/12 = π/2 about z
        // translate(0, r) → rotZ(π/2) → translate(0, −r, 0.03): the origin goes to (r, r, 0.03).
        #expect(abs(t.m41 + 600 * t.m44 - 381.972) < 1e-3)
        #expect(abs(t.m42 - 381.972) < 1e-3)
        #expect(abs(t.m43 - 0.03) < 1e-12)
        // 12 places: the rotary window holds 12 of the 20 items.
        #expect(windowSize(rotary) == 12)
        // Fewer items than places: count = n = 5, radius max(100, 100/tan(π/5)) = 137.638.
        let five = preparedCarousel(CarouselLayout(style: .rotary), items: 5)
        let f = five.attributes(for: .cell(0, 1))!.transform // angle 2π/5
        #expect(abs(f.m41 + 200 * f.m44 - 137.638 * sin(2 * Double.pi / 5)) < 1e-3)
        // The Count option replaces it: count 4 → radius max(100, 100/tan(π/4)) = 100.
        var four = CarouselLayout(style: .rotary)
        four.count = 4
        four = preparedCarousel(four)
        let q = four.attributes(for: .cell(0, 1))!.transform // angle π/2
        #expect(abs(q.m41 + 200 * q.m44 - 100) < 1e-9)
        #expect(abs(q.m43 - -100) < 1e-9)
        // A Radius option replaces the default radius.
        var fixed = CarouselLayout(style: .rotary)
        fixed.radius = 250
        let g = preparedCarousel(fixed).attributes(for: .cell(0, 3))!.transform
        #expect(abs(g.m41 + 600 * g.m44 - 250) < 1e-9)
    }

    /// How many items the layout put in its visible window (zIndex ≥ 0).
    func windowSize(_ layout: CarouselLayout, items n: Int = 20) -> Int {
        (0..<n).filter { layout.attributes(for: .cell(0, $0))!.zIndex >= 0 }.count
    }

    @Test func visibleWindowSizesFollowICarousel() {
        // Linear: ceil(320/200) + 2 = 4; cover flows: ceil(320/50) + 2 = 9; rotary and
        // cylinder: count 12; inverted: ceil(12/2) = 6; wheel: radius 382 − 100 ≥ 160, so
        // ceil(12/2) + 1 = 7; custom: 30, at most n = 20; time machine: 30 → 20, less the items
        // at offset ≥ 1 whose alpha is 0 (items 1…19 at scroll 0: only item 0 stays).
        let expected: [CarouselStyle: Int] = [.linear: 4, .coverFlow: 9, .coverFlow2: 9, .rotary: 12, .cylinder: 12,
                                              .invertedRotary: 6, .invertedCylinder: 6, .wheel: 7, .invertedWheel: 7,
                                              .custom: 20, .timeMachine: 1, .invertedTimeMachine: 20]
        for (style, count) in expected {
            #expect(windowSize(preparedCarousel(CarouselLayout(style: style))) == count, "\(style)")
        }
        // A wheel small enough for the view shows all its places: 50 pt items give
        // trunc(min(30, ceil(6.4)·π = 21.99)) = 21 places, 20 with 20 items; radius
        // 50·20/2π = 159.2, and 159.2 − 25 < 160.
        #expect(windowSize(preparedCarousel(CarouselLayout(style: .wheel, itemSize: Size(50, 50)))) == 20)
        // The VisibleItems option replaces the count; the window is clamped to the items.
        var three = CarouselLayout(style: .linear)
        three.visibleItems = 3
        #expect(windowSize(preparedCarousel(three)) == 3)
        #expect(windowSize(preparedCarousel(CarouselLayout(style: .custom), items: 5), items: 5) == 5)
    }

    @Test func windowIsCentredOnTheCurrentItemAndClampedWithoutWrap() {
        // Linear, 4 visible: current 10 → items 8…11; current 0 → 0…3; current 19 → 16…19.
        func members(_ s: Double, wrap: Bool = false) -> [Int] {
            var layout = CarouselLayout(style: .linear)
            layout.wrap = wrap
            layout = preparedCarousel(layout, offset: Point(s * 200 + (wrap ? 4000 * 10 : 0), 0))
            return (0..<20).filter { layout.attributes(for: .cell(0, $0))!.zIndex >= 0 }
        }
        #expect(members(10) == [8, 9, 10, 11])
        #expect(members(0) == [0, 1, 2, 3])
        #expect(members(19) == [16, 17, 18, 19])
        // Wrapping: current 0 → −2…1 modulo 20.
        #expect(members(0, wrap: true) == [0, 1, 18, 19])
    }

    @Test func fadeOptionsFollowICarouselsAlpha() {
        // The Fading Demo's options: fadeMin −0.2, fadeMax 0.2, fadeRange 2, here fadeMinAlpha 0.1.
        var layout = CarouselLayout(style: .linear)
        layout.fadeMin = -0.2; layout.fadeMax = 0.2; layout.fadeRange = 2; layout.fadeMinAlpha = 0.1
        layout = preparedCarousel(layout, offset: Point(1000, 0)) // scroll 5
        // factor = offset − 0.2 above, −0.2 − offset below; alpha = 1 − min(factor, 2)/2·0.9.
        let cases: [(Int, Double)] = [(5, 1), (6, 1 - 0.8 / 2 * 0.9), (4, 1 - 0.8 / 2 * 0.9), (7, 1 - 1.8 / 2 * 0.9),
                                      (8, 0.1), (2, 0.1)]
        for (g, alpha) in cases { #expect(abs(layout.attributes(for: .cell(0, g))!.alpha - alpha) < 1e-12, "item \(g)") }
        // Time machine at scroll 0.25: item 0 (offset −0.25) opaque, item 1 (0.75) at 0.25.
        let tm = preparedCarousel(CarouselLayout(style: .timeMachine), offset: Point(50, 0))
        #expect(tm.attributes(for: .cell(0, 0))!.alpha == 1)
        #expect(abs(tm.attributes(for: .cell(0, 1))!.alpha - 0.25) < 1e-12)
        #expect(tm.attributes(for: .cell(0, 2))!.alpha == 0)
    }

    @Test func zIndexRanksByDepthThenNearnessToTheCurrentItem() {
        // Linear at scroll 0.3: every depth is 1, so nearness to item 0 (x = −60) decides:
        // items 3, 2, 1, 0 from the bottom.
        let linear = preparedCarousel(CarouselLayout(style: .linear), offset: Point(60, 0))
        #expect((0..<4).map { linear.attributes(for: .cell(0, $0))!.zIndex } == [3, 2, 1, 0])
        // Rotary at scroll 0: the window of 12 is items −6…5 (14…19, 0…5); depth 1 + r·cos(a) − r
        // with a = 2π·offset/12: item 0 on top, then 1 and 19 (equal depth, equally far from
        // item 0: position breaks the tie, 19 above 1), …, and item 14 (straight behind) at the bottom.
        let rotary = preparedCarousel(CarouselLayout(style: .rotary))
        let z = (0..<20).map { rotary.attributes(for: .cell(0, $0))!.zIndex }
        #expect(z[0] == 11)
        #expect(z[1] == 9 && z[19] == 10)
        #expect(z[2] == 7 && z[18] == 8)
        #expect(z[5] == 1 && z[15] == 2)
        #expect(z[14] == 0)
        #expect(z[6...13].allSatisfy { $0 == -1 }) // outside the window
        // attributes(in:) lists the window in drawing order.
        let drawn = rotary.attributes(in: Rect(-1e6, -1e6, 2e6, 2e6)).map(\.zIndex)
        #expect(drawn == drawn.sorted())
    }

    @Test func currentItemIsTheRoundedScrollOffsetWrappedOrClamped() {
        let linear = CarouselLayout(style: .linear)
        #expect(preparedCarousel(linear, offset: Point(0, 0)).currentItem == IndexPath(0, 0))
        #expect(preparedCarousel(linear, offset: Point(299, 0)).currentItem == IndexPath(0, 1)) // 1.495
        #expect(preparedCarousel(linear, offset: Point(300, 0)).currentItem == IndexPath(0, 2)) // 1.5 rounds away
        #expect(preparedCarousel(linear, offset: Point(-500, 0)).currentItem == IndexPath(0, 0))
        #expect(preparedCarousel(linear, offset: Point(9000, 0)).currentItem == IndexPath(0, 19))
        // Wrapping: 20 items of 200 pt, one turn 4000 pt; 10 turns + 21.6 items → item 2 (21.6 rounds to 22).
        #expect(preparedCarousel(CarouselLayout(style: .rotary), offset: Point(40_000 + 4320, 0)).currentItem == IndexPath(0, 2))
        // 19.6 items rounds to 20 → item 0.
        #expect(preparedCarousel(CarouselLayout(style: .rotary), offset: Point(3920, 0)).currentItem == IndexPath(0, 0))
        // Across sections: 3 + 4 items, item 5 is section 1's item 2.
        let data = flowData(counts: [3, 4])
        #expect(preparedCarousel(linear, offset: Point(1000, 0), data: data).currentItem == IndexPath(1, 2))
        #expect(preparedCarousel(linear, items: 0).currentItem == nil)
    }

    @Test func snappingStopsAtItemBoundaries() {
        let linear = preparedCarousel(CarouselLayout(style: .linear))
        // 2.3 items proposed: velocity > 0 → 3, < 0 → 2, 0 → 2; 2.6 at rest → 3.
        #expect(linear.targetContentOffset(forProposed: Point(460, 0), velocity: Point(500, 0)) == Point(600, 0))
        #expect(linear.targetContentOffset(forProposed: Point(460, 0), velocity: Point(-500, 0)) == Point(400, 0))
        #expect(linear.targetContentOffset(forProposed: Point(460, 0), velocity: .zero) == Point(400, 0))
        #expect(linear.targetContentOffset(forProposed: Point(520, 0), velocity: .zero) == Point(600, 0))
        // Exactly on a boundary stays there whatever the direction.
        #expect(linear.targetContentOffset(forProposed: Point(400, 0), velocity: Point(500, 0)) == Point(400, 0))
        #expect(linear.targetContentOffset(forProposed: Point(400, 0), velocity: Point(-500, 0)) == Point(400, 0))
        // Clamped to items 0…19 without wrap.
        #expect(linear.targetContentOffset(forProposed: Point(-700, 0), velocity: Point(-500, 0)) == Point(0, 0))
        #expect(linear.targetContentOffset(forProposed: Point(9999, 0), velocity: Point(500, 0)) == Point(3800, 0))
        #expect(linear.targetContentOffset(forProposed: Point(330, 0)) == Point(400, 0))
        // Wrapping is not clamped: 25.2 items → 26 going forwards.
        let rotary = preparedCarousel(CarouselLayout(style: .rotary))
        #expect(rotary.targetContentOffset(forProposed: Point(5040, 0), velocity: Point(1, 0)) == Point(5200, 0))
        // Cover flow: pitch 100 (offsetMultiplier 2); vertical uses y.
        let cover = preparedCarousel(CarouselLayout(style: .coverFlow, vertical: true))
        #expect(cover.targetContentOffset(forProposed: Point(0, 250), velocity: Point(0, -3)) == Point(0, 200))
        #expect(cover.targetContentOffset(forProposed: Point(0, 250), velocity: Point(900, 3)) == Point(0, 300))
    }

    @Test func contentSizeSlotsAndWrapPeriod() {
        // Without wrap: (n − 1)·pitch + W along, the bounds across.
        let linear = preparedCarousel(CarouselLayout(style: .linear))
        #expect(linear.contentSize == Size(19 * 200 + 320, 480))
        #expect(linear.attributes(for: .cell(0, 3))!.frame == Rect(160 + 600 - 100, 240 - 100, 200, 200))
        let cover = preparedCarousel(CarouselLayout(style: .coverFlow, vertical: true))
        #expect(cover.contentSize == Size(320, 19 * 100 + 480))
        #expect(cover.attributes(for: .cell(0, 3))!.frame == Rect(160 - 100, 240 + 300 - 100, 200, 200))
        // Wrapping: one turn 20·200 = 4000 pt; max(3, ceil(4e6/4000)) = 1000 turns + W.
        let rotary = preparedCarousel(CarouselLayout(style: .rotary), offset: Point(40_000, 0))
        #expect(rotary.contentSize == Size(1000 * 4000 + 320, 480))
        #expect(rotary.wrapPeriod == Point(4000, 0))
        // At 10 turns, item 19 (offset −1) sits in the slot of the copy before: 10·20 − 1.
        #expect(rotary.attributes(for: .cell(0, 19))!.center == Point(160 + 199 * 200, 240))
        #expect(rotary.attributes(for: .cell(0, 1))!.center == Point(160 + 201 * 200, 240))
        // Huge turns need three at least: 10,000 items of 1000 pt.
        let big = preparedCarousel(CarouselLayout(style: .rotary, itemSize: Size(1000, 1000)), items: 10_000)
        #expect(big.contentSize.width == 3 * 10_000 * 1000 + 320)
        #expect(preparedCarousel(CarouselLayout(style: .rotary), items: 0).contentSize == Size(320, 480))
        #expect(linear.wrapPeriod == .zero)
    }

    @Test func itemWidthComesFromTheOptionOrTheFirstItem() {
        // First item 100×300: itemWidth 100 horizontally (pitch 100), 300 vertically.
        let data = carouselDataSized([Size(100, 300), nil, nil])
        let h = preparedCarousel(CarouselLayout(style: .linear), data: data)
        #expect(h.contentSize.width == 2 * 100 + 320)
        // Item 1 has the default 200×200 frame; linear moves it by offset·itemWidth = 100.
        let a = h.attributes(for: .cell(0, 1))!
        #expect(a.size == Size(200, 200))
        #expect(abs(projectedCentre(a).x - (160 + 100)) < 1e-9)
        let v = preparedCarousel(CarouselLayout(style: .linear, vertical: true), data: data)
        #expect(v.contentSize.height == 2 * 300 + 480)
        var set = CarouselLayout(style: .linear)
        set.itemWidth = 150
        #expect(preparedCarousel(set, data: data).contentSize.width == 2 * 150 + 320)
    }

    func carouselDataSized(_ sizes: [Size?]) -> CollectionData { flowData([sizes]) }

    @Test func attributesInAndForAgreeOnTheVisibleItems() {
        for style in CarouselStyle.allCases {
            for vertical in [false, true] {
                let pitch = style == .coverFlow || style == .coverFlow2 ? 100.0 : 200.0
                let s = 7.3 * pitch
                let layout = preparedCarousel(CarouselLayout(style: style, vertical: vertical),
                                              offset: vertical ? Point(0, s) : Point(s, 0))
                let all = layout.attributes(in: Rect(-1e7, -1e7, 2e7, 2e7))
                #expect(!all.isEmpty, "\(style)")
                for a in all {
                    #expect(layout.attributes(for: a.element) == a, "\(style) \(a.element)")
                    #expect(!a.isHidden && a.alpha > 0)
                }
                // A rect far away from the view meets nothing.
                let far = vertical ? Rect(-1e6, s - 1e5, 10, 10) : Rect(s - 1e5, -1e6, 10, 10)
                #expect(layout.attributes(in: far).isEmpty, "\(style)")
                // The visible rect (and the engine's 64 pt margin) sees the current item.
                let visible = Rect(origin: vertical ? Point(0, s) : Point(s, 0), size: Size(320, 480)).expanded(dx: 64, dy: 64)
                #expect(layout.attributes(in: visible).contains { $0.indexPath == IndexPath(0, 7) }, "\(style)")
            }
        }
    }

    @Test func backfacesAndTheEyeHideItems() {
        // Inverted cylinder at scroll 0, eye 1000 pt away (perspective −0.001, so that no item
        // comes behind it: z = r(1 − cos a) ≤ 746): item 6 is turned −π and faces away
        // (m33 = −1): hidden; item 0 faces the eye. Shown backfaces show it.
        var inverted = CarouselLayout(style: .invertedCylinder)
        inverted.perspective = -0.001
        let inv = preparedCarousel(inverted)
        #expect(inv.attributes(for: .cell(0, 0))!.isHidden == false)
        #expect(inv.attributes(for: .cell(0, 6))!.isHidden == true)
        inverted.showBackfaces = true
        #expect(preparedCarousel(inverted).attributes(for: .cell(0, 6))!.isHidden == false)
        // At the default −1/500 the eye is 500 pt away and item 6 comes 746 pt towards it:
        // w < 0, hidden even with backfaces shown.
        var near = CarouselLayout(style: .invertedCylinder)
        near.showBackfaces = true
        #expect(preparedCarousel(near).attributes(for: .cell(0, 6))!.isHidden == true)
        // Cylinder shows backfaces by default; hiding them hides item 6 (facing away).
        var cyl = CarouselLayout(style: .cylinder)
        #expect(preparedCarousel(cyl).attributes(for: .cell(0, 6))!.isHidden == false)
        cyl.showBackfaces = false
        #expect(preparedCarousel(cyl).attributes(for: .cell(0, 6))!.isHidden == true)
        // Inverted time machine at scroll 3: item 0 (offset −3, inverted +3) comes 600 pt towards
        // an eye 500 pt away: w = 1 − 600/500 < 0, hidden (and out of attributes(in:)).
        let tm = preparedCarousel(CarouselLayout(style: .invertedTimeMachine), offset: Point(600, 0))
        #expect(tm.attributes(for: .cell(0, 0))!.isHidden == true) // offset −3 → +3 after inversion
        #expect(tm.attributes(for: .cell(0, 2))!.isHidden == false) // 1 → w = 1 − 200/500
        #expect(!tm.attributes(in: Rect(-1e7, -1e7, 2e7, 2e7)).contains { $0.indexPath.item == 0 })
    }

    @Test func coverFlow2IsCoverFlowUnderTheOffsetOnlyToggle() {
        for o in [-2.0, -1.4, -1, -0.7, -0.5, -0.3, 0, 0.3, 0.5, 0.7, 1, 1.3, 2] {
            let s = 5 - o
            let one = preparedCarousel(CarouselLayout(style: .coverFlow), offset: Point(s * 100, 0))
            let two = preparedCarousel(CarouselLayout(style: .coverFlow2), offset: Point(s * 100, 0))
            let expected = m4Mul(expectedStyleMatrix(.coverFlow, offset: o, vertical: false), m4Translate(-o * 100, 0, 0))
            #expect(m4Close(two.attributes(for: .cell(0, 5))!.transform.values, expected), "offset \(o)")
            #expect(one.attributes(for: .cell(0, 5)) == two.attributes(for: .cell(0, 5)), "offset \(o)")
        }
    }

    @Test func taskSwitcherFollowsThePublishedModel() {
        // The article's checks: T(1) = 4/5, T(−2) = −2/5, T(0) = 0; capped at 2 from
        // o = 10/7 on; cards on the left approach −4/5.
        #expect(abs(TaskSwitcherTransform.translation(offset: 1) - 0.8) < 1e-12)
        #expect(abs(TaskSwitcherTransform.translation(offset: -2) - -0.4) < 1e-12)
        #expect(TaskSwitcherTransform.translation(offset: 0) == 0)
        #expect(TaskSwitcherTransform.translation(offset: 1.5) == 2)
        #expect(TaskSwitcherTransform.translation(offset: 2) == 2)
        #expect(TaskSwitcherTransform.translation(offset: 1e9) == 2)
        #expect(abs(TaskSwitcherTransform.translation(offset: 1.4) - (1 / (1.25 - 0.875) - 0.8)) < 1e-12)
        #expect(TaskSwitcherTransform.translation(offset: -1e9) > -0.8)
        // In the layout: the current card 2/15 of a card right of the view's centre, the next
        // 4/5 of a card further right, 1 pt nearer and scaled 1.02; on top of the current one.
        let layout = preparedCarousel(CarouselLayout(style: .custom), offset: Point(1000, 0)) // scroll 5
        let current = layout.attributes(for: .cell(0, 5))!, next = layout.attributes(for: .cell(0, 6))!
        #expect(near(projectedCentre(current), Point(1000 + 160 + 200 * 2 / 15, 240), 1e-9))
        let expected = m4Mul(expectedStyleMatrix(.custom, offset: 1, vertical: false), m4Translate(-200, 0, 0))
        #expect(m4Close(next.transform.values, expected))
        #expect(next.zIndex > current.zIndex)
        // flip3D: rotate π/8 about y, then offset·itemWidth towards the eye.
        var flip = CarouselLayout(style: .custom)
        flip.customTransform = .flip3D
        flip = preparedCarousel(flip, offset: Point(1000, 0))
        let f = flip.attributes(for: .cell(0, 4))!
        let fExpected = m4Mul(caThen(caThen(m4Base(), m4RotY(Double.pi / 8)), m4Translate(0, 0, -200)), m4Translate(200, 0, 0))
        #expect(m4Close(f.transform.values, fExpected))
    }

    @Test func perspectiveAndViewpointEnterTheBase() {
        var layout = CarouselLayout(style: .rotary)
        layout.perspective = -0.005
        layout.viewpointOffset = Point(30, -40)
        layout = preparedCarousel(layout, offset: Point(100, 0))
        let base = m4Base(perspective: -0.005, viewpoint: (30, -40))
        for g in [0, 1, 19] {
            let o = g == 19 ? -1.5 : Double(g) - 0.5
            let expected = m4Mul(expectedStyleMatrix(.rotary, offset: o, vertical: false, base: base), m4Translate(-o * 200, 0, 0))
            #expect(m4Close(layout.attributes(for: .cell(0, g))!.transform.values, expected), "item \(g)")
        }
    }

    @Test func wrappingIsContinuousThroughMoreThanOneTurn() {
        // Twenty items, 20 pt steps through one and a half turns from the tenth turn. On screen
        // (content point minus the offset), an item in the window at two consecutive steps may
        // move at most what the step implies: linear exactly 20 pt, the others by their
        // steepest slope (rotary, cylinder, wheel r·2π/12 per item: 19.5 pt per 0.1 item;
        // cover flow 140 pt per item: 28 pt per 0.2 item; time machine 164 pt per item near
        // offset 1: 16.4; the task switcher's hyperbola up to 4.9 widths per item: 98 pt),
        // far under the hundreds of points a wrong wrap or a wrong copy of the slot would jump.
        let cases: [(CarouselStyle, Double)] = [(.linear, 20.000001), (.coverFlow, 30), (.rotary, 21), (.cylinder, 21),
                                                (.wheel, 21), (.timeMachine, 20), (.custom, 100)]
        for (style, limit) in cases {
            var layout = CarouselLayout(style: style)
            layout.wrap = true
            // Every one of the 20 items would be in the custom window: keep the wrap seam out of it.
            if style == .custom { layout.visibleItems = 12 }
            let pitch = style == .coverFlow ? 100.0 : 200.0
            let turn = 20 * pitch, step = 20.0
            var previous: [ElementID: Point] = [:]
            var previousSlots: [Point] = []
            var copySwitches = 0, compared = 0
            var x = 10 * turn
            while x <= 11.5 * turn {
                let prepared = preparedCarousel(layout, offset: Point(x, 0))
                var now: [ElementID: Point] = [:]
                for a in prepared.attributes(in: Rect(x - 2000, -2000, 4320, 4480)) {
                    let p = projectedCentre(a) - Point(x, 0)
                    #expect(p.x.isFinite && p.y.isFinite)
                    now[a.element] = p
                    if let q = previous[a.element] {
                        let d = ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
                        #expect(d <= limit, "\(style) \(a.element) at \(x): moved \(d)")
                        compared += 1
                    }
                }
                let slots = (0..<20).map { prepared.attributes(for: .cell(0, $0))!.center }
                if !previousSlots.isEmpty {
                    for (before, after) in zip(previousSlots, slots) where before != after {
                        // A slot only ever moves by a whole turn (to the copy nearer the offset).
                        #expect(abs(abs(after.x - before.x) - turn) < 1e-6, "\(style): slot moved \(after.x - before.x)")
                        copySwitches += 1
                    }
                }
                previous = now
                previousSlots = slots
                x += step
            }
            #expect(copySwitches >= 20, "\(style): every item's slot should change copies in 1.5 turns")
            #expect(compared > 500, "\(style)")
        }
    }

    @Test func everyNumberIsFiniteAtTheExtremeParameters() {
        func extreme(_ style: CarouselStyle, _ high: Bool, vertical: Bool, wrap: Bool) -> CarouselLayout {
            var l = CarouselLayout(style: style, itemSize: high ? Size(1e6, 1e6) : Size(1e-9, 1e-9), vertical: vertical)
            l.wrap = wrap
            l.itemWidth = high ? 1e6 : 0.01
            l.perspective = high ? -0.01 : 0
            l.viewpointOffset = high ? Point(1e6, -1e6) : Point(-1e6, 1e6)
            l.spacing = high ? 100 : 0.01
            l.arc = high ? 2 * Double.pi : 0.001
            l.radius = high ? 1e6 : -1e6
            l.angle = high ? 2 * Double.pi : -2 * Double.pi
            l.tilt = high ? 10 : -10
            l.count = high ? 1000 : 1
            l.visibleItems = high ? 100 : 0
            l.offsetMultiplier = high ? 100 : 0.01
            l.showBackfaces = !high
            l.fadeMin = high ? 1000 : -1000
            l.fadeMax = high ? -1000 : 1000
            l.fadeRange = high ? 0.001 : 1000
            l.fadeMinAlpha = high ? 1 : 0
            return l
        }
        var checked = 0
        for style in CarouselStyle.allCases {
            for transform in CarouselCustomTransform.allCases where style == .custom || transform == .taskSwitcher {
                for high in [false, true] {
                    for vertical in [false, true] {
                        for wrap in [false, true] {
                            for unset in [false, true] {
                                var layout = unset ? CarouselLayout(style: style, vertical: vertical) : extreme(style, high, vertical: vertical, wrap: wrap)
                                layout.customTransform = transform
                                for bounds in [Size(1, 1), Size(1e6, 1e6)] {
                                    for n in [1, 2, 50] {
                                        var probe = preparedCarousel(layout, items: n, bounds: bounds)
                                        let length = vertical ? probe.contentSize.height : probe.contentSize.width
                                        #expect(length.isFinite && probe.contentSize.width.isFinite && probe.contentSize.height.isFinite)
                                        for fraction in [0, 0.37, 0.5, 1] {
                                            let o = fraction * length
                                            probe = preparedCarousel(layout, items: n, bounds: bounds, offset: vertical ? Point(0, o) : Point(o, 0))
                                            for g in 0..<n {
                                                let a = probe.attributes(for: .cell(0, g))!
                                                #expect(a.everyNumber.allSatisfy { $0.isFinite }, "\(style) high \(high) item \(g)")
                                                checked += 1
                                            }
                                            for a in probe.attributes(in: Rect(-1e13, -1e13, 2e13, 2e13)) {
                                                #expect(a.visualBounds.origin.x.isFinite && a.visualBounds.size.width.isFinite)
                                            }
                                            for v in [-1e4, 0, 1e4] {
                                                let t = probe.targetContentOffset(forProposed: Point(o, o), velocity: Point(v, v))
                                                #expect(t.x.isFinite && t.y.isFinite)
                                            }
                                            #expect(probe.wrapPeriod.x.isFinite && probe.wrapPeriod.y.isFinite)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(checked > 10_000)
    }

    @Test func updatesGrowFromAndShrinkIntoTheCarouselPlace() {
        let layout = preparedCarousel(CarouselLayout(style: .rotary), offset: Point(100, 0))
        let placed = layout.attributes(for: .cell(0, 1))!
        let appearing = layout.initialAttributes(forAppearing: .cell(0, 1))!
        #expect(appearing.alpha == 0)
        #expect(appearing.frame == placed.frame)
        #expect(m4Close(appearing.transform.values, m4Mul(m4Scale(0.1, 0.1, 1), placed.transform.values)))
        let gone = layout.finalAttributes(forDisappearing: .cell(0, 1), from: placed)!
        #expect(gone.alpha == 0)
        #expect(m4Close(gone.transform.values, m4Mul(m4Scale(0.1, 0.1, 1), placed.transform.values)))
        // The picture shrinks about the same projected centre.
        #expect(abs(projectedCentre(appearing).x - projectedCentre(placed).x) < 1e-9)
    }

    @Test func boundsChangeKeepsTheDataAndFollowsTheOffset() {
        var layout = preparedCarousel(CarouselLayout(style: .linear), items: 10_000)
        layout.prepare(LayoutContext(data: carouselData(10_000), boundsSize: Size(320, 480), contentOffset: Point(200 * 5000, 0)),
                       invalidation: .boundsChange)
        #expect(layout.currentItem == IndexPath(0, 5000))
        #expect(layout.shouldInvalidate(forBoundsChange: Rect(0, 0, 320, 480)))
        #expect(windowSize(layout, items: 10_000) == 4)
    }

    @Test func parametersAreDeclaredWithTheProtocolNames() {
        #expect(CarouselLayout.parameterDescriptions.map(\.name) == [
            "style", "transform", "itemSize", "itemWidth", "vertical", "wrap", "perspective", "viewpointOffset", "spacing",
            "arc", "radius", "angle", "tilt", "count", "visibleItems", "offsetMultiplier", "showBackfaces", "fadeMin",
            "fadeMax", "fadeRange", "fadeMinAlpha",
        ])
        #expect(LayoutRegistry.type(named: "carousel") != nil)
        if case .choice(let names) = CarouselLayout.parameterDescriptions[0].kind {
            #expect(names == ["linear", "rotary", "invertedRotary", "cylinder", "invertedCylinder", "wheel", "invertedWheel",
                              "coverFlow", "coverFlow2", "timeMachine", "invertedTimeMachine", "custom"])
        } else { Issue.record("style is not a choice") }
        // Optional values read back nil until set.
        var layout = CarouselLayout()
        let wrap = CarouselLayout.parameters.first { $0.description.name == "wrap" }!
        #expect(wrap.get(layout) == nil)
        wrap.set(&layout, .bool(true))
        #expect(layout.wrap == true)
        #expect(CarouselLayout().style == .linear && CarouselLayout().perspective == -1.0 / 500)
    }
}
