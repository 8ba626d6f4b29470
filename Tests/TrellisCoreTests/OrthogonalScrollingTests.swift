import Foundation
import Testing
@testable import TrellisCore

/// Orthogonal sections scrolling on their own. The geometry every test uses, by hand:
/// bounds 375 × 600; section 0 ("strip") has insets 10 all round, groups 100 × 100 of one item,
/// 10 apart, so pitch 110, band y 10…110 across the full 375, content across
/// 10 + 10·100 + 9·10 + 10 = 1110, range 0…1110 − 375 = 735; section 1 ("list") is 30 rows of
/// 44 starting at 10 + 100 + 10 = 120. λ = 1000·ln 0.998 = −2.002002…, so a release at v pt/s
/// projects v/2.002 points on.
@Suite struct OrthogonalScrollingTests {
    static let lambda = 1000 * log(0.998)

    static func description(_ behavior: OrthogonalScrollingBehavior, effect: CompositionalVisibleItemsEffect? = nil) -> CompositionalDescription {
        let full = CompositionalSize(width: .fractionalWidth(1), height: .fractionalHeight(1))
        let strip = CompositionalSection(name: "strip", group: .horizontal(CompositionalSize(width: .absolute(100), height: .absolute(100)), [.item(CompositionalItem(size: full))]),
                                         contentInsets: EdgeInsets(all: 10), interGroupSpacing: 10, orthogonalScrollingBehavior: behavior,
                                         visibleItemsEffect: effect)
        let list = CompositionalSection(name: "list", group: .horizontal(CompositionalSize(width: .fractionalWidth(1), height: .absolute(44)), [.item(CompositionalItem(size: full))]))
        // By identifier, so the strip stays orthogonal wherever updates move it.
        var d = CompositionalDescription(sections: [strip, list])
        d.rule = .byIdentifier(["strip": "strip"], fallback: "list")
        return d
    }

    static func view(_ behavior: OrthogonalScrollingBehavior, stripItems: Int = 10, effect: CompositionalVisibleItemsEffect? = nil) -> CollectionView {
        let strip = Section(id: "strip", items: (0..<stripItems).map { Item(id: ItemID("a\($0)")) })
        let list = Section(id: "list", items: (0..<30).map { Item(id: ItemID("b\($0)")) })
        return CollectionView(boundsSize: Size(375, 600), layout: CompositionalLayout(description(behavior, effect: effect)),
                              data: try! CollectionData(sections: [strip, list]))
    }

    static func x(_ v: CollectionView, _ item: Int) -> Double? { v.attributes(for: .cell(0, item))?.frame.origin.x }

    /// A horizontal drag in the band from offset `from` by `distance`, released at `speed`
    /// (offset direction, pt/s), with the clock at `t`.
    static func drag(_ v: inout CollectionView, by distance: Double, speed: Double = 0, at t: Double = 0.1) throws {
        try v.pan(.began, translation: .zero, location: Point(200, 50))
        v.advance(to: t)
        try v.pan(.changed, translation: Point(-distance, 0))
        try v.pan(.ended, translation: Point(-distance, 0), velocity: Point(-speed, 0))
    }

    static func settle(_ v: inout CollectionView, from t: Double = 0.1) {
        var time = t
        while v.needsTicks && time < t + 10 { time += 1.0 / 60; v.advance(to: time) }
    }

    @Test func theBandReportsItsGeometryAndRange() throws {
        let v = Self.view(.continuous)
        let band = try #require(v.layout.orthogonalBand(section: 0))
        #expect(band.frame == Rect(x: 0, y: 10, width: 375, height: 100))
        #expect(band.minimumOffset == 0 && band.maximumOffset == 735)
        #expect(band.scrollsHorizontally)
        #expect(v.layout.orthogonalBand(section: 1) == nil)
        #expect(v.layout.orthogonalSection(at: Point(200, 50)) == 0)
        #expect(v.layout.orthogonalSection(at: Point(200, 115)) == nil)  // the bottom inset is outside the band
        #expect(v.layout.orthogonalSection(at: Point(200, 300)) == nil)
    }

    @Test func aPanInsideTheBandMovesTheBandNotTheMainScroll() throws {
        var v = Self.view(.continuous)
        try v.pan(.began, translation: .zero, location: Point(200, 50))
        try v.pan(.changed, translation: Point(-100, 0))
        #expect(v.orthogonalOffset(section: 0) == 100)
        #expect(v.scroll.contentOffset == .zero)
        // Item 0 at 10 − 100; item 1 at 120 − 100.
        #expect(Self.x(v, 0) == -90 && Self.x(v, 1) == 20)
        #expect(v.scene.orthogonalOffsets == [0: 100])
        try v.pan(.ended, translation: Point(-100, 0))
        // A pan below the band scrolls the collection view.
        try v.pan(.began, translation: .zero, location: Point(200, 300))
        try v.pan(.changed, translation: Point(0, -50))
        try v.pan(.ended, translation: Point(0, -50))
        #expect(v.scroll.contentOffset == Point(0, 50))
        #expect(v.orthogonalOffset(section: 0) == 100)
    }

    @Test func aPanStartingAlongTheMainAxisInsideTheBandScrollsTheMainAxis() throws {
        var v = Self.view(.continuous)
        try v.pan(.began, translation: Point(2, -30), location: Point(200, 50))
        try v.pan(.changed, translation: Point(2, -40))
        try v.pan(.ended, translation: Point(2, -40))
        #expect(v.scroll.contentOffset.y == 40)
        #expect(v.orthogonalOffset(section: 0) == 0)
    }

    @Test func leadingBoundaryRestsOnTheNearestGroupToTheProjection() throws {
        var v = Self.view(.continuousGroupLeadingBoundary)
        // Released at 100 going 500 pt/s: projection 100 + 500/2.002 = 349.75; nearest k·110 is 330.
        try Self.drag(&v, by: 100, speed: 500)
        let motion = try #require(v.orthogonalScrolling.sections["strip"]?.motion)
        #expect(motion.phase == .settling && motion.anchor == 330)
        Self.settle(&v)
        #expect(v.orthogonalOffset(section: 0) == 330)
        #expect(Self.x(v, 3) == 10)  // group 3 (10 + 3·110) rests where group 0 did
        // Released at rest at 40: 40/110 rounds to 0.
        var w = Self.view(.continuousGroupLeadingBoundary)
        try Self.drag(&w, by: 40)
        Self.settle(&w)
        #expect(w.orthogonalOffset(section: 0) == 0)
    }

    @Test func groupPagingTurnsOneGroupAtMost() throws {
        var v = Self.view(.groupPaging)
        // 60/110 = 0.55 rounds to group 1 → 110.
        try Self.drag(&v, by: 60)
        Self.settle(&v)
        #expect(v.orthogonalOffset(section: 0) == 110)
        // From 110 a fast fling at 300 reaches page floor(410/110) + 1 = 4, held to start + 1 = 2 → 220.
        try Self.drag(&v, by: 300, speed: 5000, at: 20)
        Self.settle(&v, from: 20)
        #expect(v.orthogonalOffset(section: 0) == 220)
    }

    @Test func pagingTurnsByTheBandsWidth() throws {
        var v = Self.view(.paging)
        // 200/375 = 0.53 rounds to page 1 → 375.
        try Self.drag(&v, by: 200)
        Self.settle(&v)
        #expect(v.orthogonalOffset(section: 0) == 375)
        // Page 2 would be 750, past the range's end 735: the end.
        try Self.drag(&v, by: 200, at: 20)
        Self.settle(&v, from: 20)
        #expect(v.orthogonalOffset(section: 0) == 735)
    }

    @Test func groupPagingCenteredCentresAGroup() throws {
        var v = Self.view(.groupPagingCentered)
        let band = try #require(v.layout.orthogonalBand(section: 0))
        // Group k centred at offset 10 + 50 − 187.5 + 110k = −127.5 + 110k; range −127.5…−127.5 + 9·110 = 862.5.
        #expect(band.minimumOffset == -127.5 && band.maximumOffset == 862.5)
        // Released at rest at 0: (0 + 127.5)/110 = 1.16 → group 1 at −17.5; its centre 170 + 17.5 = 187.5.
        try Self.drag(&v, by: 0)
        Self.settle(&v)
        #expect(v.orthogonalOffset(section: 0) == -17.5)
        #expect(v.attributes(for: .cell(0, 1))?.frame.midX == 187.5)
    }

    @Test func continuousDeceleratesFreely() throws {
        var v = Self.view(.continuous)
        try Self.drag(&v, by: 100, speed: 500)
        #expect(v.orthogonalScrolling.sections["strip"]?.motion?.phase == .decelerating)
        Self.settle(&v)
        // Projection 100 − 500/λ = 349.75; it stops once slower than 0.5 pt/s, 0.5/2.002 = 0.25 short.
        let rest = 100 - 500 / Self.lambda
        let offset = try #require(v.orthogonalOffset(section: 0))
        #expect(abs(offset - rest) < 0.3)
        #expect(v.scroll.contentOffset == .zero)
    }

    @Test func pastTheStartTheBandRubberBandsAndBouncesBack() throws {
        var v = Self.view(.continuous)
        try v.pan(.began, translation: .zero, location: Point(200, 50))
        try v.pan(.changed, translation: Point(100, 0))
        // 100 past the edge shows 100·375·0.55 / (375 + 0.55·100) = 20625/430 = 47.965… past it.
        let shown = try #require(v.orthogonalOffset(section: 0))
        #expect(abs(shown - -20625.0 / 430) < 1e-9)
        try v.pan(.ended, translation: Point(100, 0))
        #expect(v.orthogonalScrolling.sections["strip"]?.motion?.phase == .bouncing)
        Self.settle(&v, from: 0)
        #expect(v.orthogonalOffset(section: 0) == 0)
    }

    @Test func scrollingASectionByCommand() throws {
        var v = Self.view(.continuous)
        try v.setOrthogonalOffset(300, section: 0, animated: false)
        #expect(Self.x(v, 0) == -290)
        try v.setOrthogonalOffset(5000, section: 0, animated: false)
        #expect(v.orthogonalOffset(section: 0) == 735)
        #expect(throws: EngineError.sectionNotOrthogonal(1)) { try v.setOrthogonalOffset(10, section: 1, animated: false) }
        #expect(throws: EngineError.sectionOutOfRange(2, sections: 2)) { try v.setOrthogonalOffset(10, section: 2, animated: false) }
        #expect(v.orthogonalOffset(section: 0) == 735)
        try v.setOrthogonalOffset(100, section: 0, animated: true)
        #expect(v.orthogonalOffset(section: 0) == 735)  // it settles from where it is
        Self.settle(&v, from: 0)
        #expect(v.orthogonalOffset(section: 0) == 100)
    }

    @Test func batchUpdatesKeepTheOffsetWithItsSectionAndClampIt() throws {
        var v = Self.view(.continuous)
        try v.setOrthogonalOffset(700, section: 0, animated: false)
        // A section inserted before the strip: the strip is section 1 now, still at 700.
        _ = try v.performBatchUpdates(BatchUpdate([.insertSections(at: [0], sections: [Section(id: "new", items: [Item(id: "n0")])])]))
        #expect(v.orthogonalOffset(section: 1) == 700)
        #expect(v.scene.orthogonalOffsets == [1: 700])
        // Five of its items deleted: content 10 + 5·100 + 4·10 + 10 = 560, range 0…185.
        _ = try v.performBatchUpdates(BatchUpdate([.deleteItems(at: (5..<10).map { IndexPath(1, $0) })]))
        #expect(v.orthogonalOffset(section: 1) == 185)
        // Items inserted at its start leave the offset where it was.
        _ = try v.performBatchUpdates(BatchUpdate([.insertItems(at: [IndexPath(1, 0)], items: [Item(id: "z")])]))
        #expect(v.orthogonalOffset(section: 1) == 185)
        // Deleted with its section, the offset goes too.
        _ = try v.performBatchUpdates(BatchUpdate([.deleteSections(at: [1])]))
        #expect(v.orthogonalScrolling.sections.isEmpty)
    }

    @Test func theVisibleItemsEffectScalesAndFadesByDistanceFromTheBandsCentre() throws {
        var v = Self.view(.continuous, effect: CompositionalVisibleItemsEffect(minimumScale: 0.5, minimumAlpha: 0.6))
        // Offset 92.5 puts item 2 (centre 10 + 220 + 50 = 280) on the band's centre 187.5.
        try v.setOrthogonalOffset(92.5, section: 0, animated: false)
        let centred = try #require(v.attributes(for: .cell(0, 2)))
        #expect(centred.transform == .identity && centred.alpha == 1)
        // Item 1's centre 170 − 92.5 = 77.5 is 110 off: nearness 1 − 110/187.5; scale 1 − 0.5·(110/187.5), alpha 1 − 0.4·(110/187.5).
        let near = try #require(v.attributes(for: .cell(0, 1)))
        #expect(abs(near.transform.m11 - (1 - 0.5 * 110 / 187.5)) < 1e-12)
        #expect(abs(near.alpha - (1 - 0.4 * 110 / 187.5)) < 1e-12)
        // Item 4's centre 500 − 92.5 = 407.5 is 220 off, past 187.5: the minimums.
        let far = try #require(v.attributes(for: .cell(0, 4)))
        #expect(far.transform.m11 == 0.5 && abs(far.alpha - 0.6) < 1e-12)
        // The rect query answers the same.
        let inRect = v.attributes(in: Rect(x: 0, y: 0, width: 375, height: 120)).first { $0.element == .cell(0, 1) }
        #expect(inRect == near)
        // The list's rows are untouched.
        #expect(v.attributes(for: .cell(1, 0))?.alpha == 1)
    }

    @Test func aHorizontalLayoutsBandsScrollDown() throws {
        // Transposed: the strip is a column at x 10…110, as tall as the view (375); item k at
        // (10, 10 + 110k − offset). A finger up 200 inside it: 200/110 = 1.82 → group 2 at 220.
        var d = Self.description(.continuousGroupLeadingBoundary)
        d.configuration.scrollDirection = .horizontal
        let strip = Section(id: "strip", items: (0..<10).map { Item(id: ItemID("a\($0)")) })
        let list = Section(id: "list", items: (0..<30).map { Item(id: ItemID("b\($0)")) })
        var v = CollectionView(boundsSize: Size(600, 375), layout: CompositionalLayout(d), data: try CollectionData(sections: [strip, list]))
        let band = try #require(v.layout.orthogonalBand(section: 0))
        #expect(band.frame == Rect(x: 10, y: 0, width: 100, height: 375))
        #expect(!band.scrollsHorizontally && band.maximumOffset == 735)
        try v.pan(.began, translation: .zero, location: Point(50, 200))
        try v.pan(.changed, translation: Point(0, -200))
        try v.pan(.ended, translation: Point(0, -200))
        Self.settle(&v, from: 0)
        #expect(v.orthogonalOffset(section: 0) == 220)
        #expect(v.attributes(for: .cell(0, 2))?.frame == Rect(x: 10, y: 10, width: 100, height: 100))
        #expect(v.scroll.contentOffset == .zero)
    }

    @Test func theRestRulesByHand() {
        let rule = OrthogonalScrollingBehavior.groupPagingCentered.restRule(groupLength: 100, pitch: 110, leadingInset: 10, bandLength: 375)
        #expect(rule.origin == -127.5 && rule.pitch == 110 && rule.onePitchAtATime && rule.decelerationRate == 0.99)
        #expect(OrthogonalScrollingBehavior.paging.restRule(groupLength: 100, pitch: 110, leadingInset: 10, bandLength: 375).pitch == 375)
        #expect(OrthogonalScrollingBehavior.continuous.restRule(groupLength: 100, pitch: 110, leadingInset: 10, bandLength: 375).pitch == 0)
        let band = OrthogonalBand(section: 0, frame: .zero, scrollsHorizontally: true, minimumOffset: 0, maximumOffset: 735,
                                  rest: OrthogonalBand.RestRule(pitch: 110, decelerationRate: 0.998))
        // 100 + 1000/2.002 = 599.5 → 5·110 = 550.
        #expect(band.restingOffset(from: 100, velocity: 1000, start: 0) == 550)
        // 700/110 = 6.36 → 660; 720/110 = 6.55 → 7·110 = 770 > 735: the end.
        #expect(band.restingOffset(from: 700, velocity: 0, start: 0) == 660)
        #expect(band.restingOffset(from: 720, velocity: 0, start: 0) == 735)
    }
}
