#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import TrellisCore

/// The stack worked out by hand: in a 400×600 view a 150×150 card of section s sits at
/// (125, 225 + s·p, 150, 150), p = 150·√2 + 20 between piles, turned about z by
/// (2u − 1)·π/24, u the top 53 bits of FNV-1a-64 of its identifier over 2^53.
@Suite struct StackLayoutTests {
    static let bounds = Size(400, 600)
    static let pileSpacing = 150 * 2.0.squareRoot() + 20

    func prepared(_ layout: StackLayout = StackLayout(), _ data: CollectionData = items(5), offset: Double = 0) -> StackLayout {
        var layout = layout
        layout.prepare(LayoutContext(data: data, boundsSize: Self.bounds), invalidation: .all)
        layout.prepare(LayoutContext(data: data, boundsSize: Self.bounds, contentOffset: Point(0, offset)), invalidation: .boundsChange)
        return layout
    }

    /// FNV-1a 64 written out again, for the hand computations.
    func fnv1a(_ s: String) -> UInt64 {
        var h: UInt64 = 14_695_981_039_346_656_037
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        return h
    }

    /// SplitMix64's step written out again: add the golden gamma, then its two xor-shift-multiplies.
    func mixed(_ seed: UInt64) -> UInt64 {
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    func turn(_ id: String, maxAngle: Double = .pi / 24) -> Double {
        (2 * (Double(mixed(fnv1a(id)) >> 11) / 9_007_199_254_740_992) - 1) * maxAngle
    }

    /// A card's corners by hand: (x, y) turned by θ about z (y down: x·cos θ − y·sin θ, x·sin θ + y·cos θ).
    func corners(centre: Point, size: Size = Size(150, 150), angle θ: Double, scale k: Double = 1) -> [Point] {
        let hw = size.width / 2 * k, hh = size.height / 2 * k
        return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { (x: Double, y: Double) in
            Point(centre.x + x * cos(θ) - y * sin(θ), centre.y + x * sin(θ) + y * cos(θ))
        }
    }

    func nearCorners(_ a: [Point], _ b: [Point]) -> Bool { zip(a, b).allSatisfy { near($0, $1, 1e-9) } }

    @Test func theHashIsStandardFNV1a() {
        // Published FNV-1a 64 test vectors: the turn is the same in every process and release.
        #expect(fnv1a("") == 0xcbf2_9ce4_8422_2325 && fnv1a("a") == 0xaf63_dc4c_8601_ec8c && fnv1a("foobar") == 0x8594_4171_f739_67e8)
        #expect(StackLayout.fnv1a("a") == 0xaf63_dc4c_8601_ec8c && StackLayout.fnv1a("foobar") == 0x8594_4171_f739_67e8)
        #expect(StackLayout.unitHash("a") == Double(mixed(0xaf63_dc4c_8601_ec8c) >> 11) / 9_007_199_254_740_992)
        // SplitMix64 seeded with 0 first gives 0xE220A8397B1DCDAF (the published sequence).
        #expect(mixed(0) == 0xE220_A839_7B1D_CDAF)
        // Neighbouring identifiers get unrelated turns (plain FNV-1a gave i0…i9 the same one).
        let turns = (0..<12).map { StackLayout().turn(of: ItemID("i\($0)")) }
        #expect(Set(turns.map { ($0 * 100).rounded() }).count >= 8)
    }

    @Test func oneSectionIsAPileOnTheViewsCentreFirstCardOnTop() {
        let layout = prepared()
        for i in 0..<5 {
            let a = layout.attributes(for: .cell(0, i))!
            #expect(a.frame == Rect(125, 225, 150, 150))
            #expect(nearCorners(a.transformedCorners, corners(centre: Point(200, 300), angle: turn("i\(i)"))), "card \(i)")
            #expect(a.zIndex == -i)
            #expect(a.alpha == (i < 3 ? 1 : 0) && !a.isHidden)
        }
        // Only the top three, back to front.
        let shown = layout.attributes(in: Rect(0, 0, 400, 600))
        #expect(shown.map(\.indexPath) == [IndexPath(0, 2), IndexPath(0, 1), IndexPath(0, 0)])
        for a in shown { #expect(layout.attributes(for: a.element) == a) }
        #expect(layout.contentSize == Self.bounds)
        // Turns are spread over ±maxAngle, not all alike.
        let turns = (0..<200).map { layout.turn(of: ItemID("card\($0)")) }
        #expect(turns.allSatisfy { abs($0) <= .pi / 24 } && turns.min()! < -0.1 && turns.max()! > 0.1)
        for missing: ElementID in [.cell(0, 5), .cell(0, -1), .cell(1, 0), .cell(-1, 0), .header(0)] {
            #expect(layout.attributes(for: missing) == nil)
        }
    }

    @Test func aCardKeepsItsTurnThroughInsertsAndDeletes() throws {
        let before = try CollectionData(sections: [Section(id: "s", items: ["a", "b", "c"].map { Item(id: ItemID($0)) })])
        let after = try CollectionData(sections: [Section(id: "s", items: ["new", "a", "c"].map { Item(id: ItemID($0)) })])
        let one = prepared(StackLayout(), before), two = prepared(StackLayout(), after)
        #expect(one.attributes(for: .cell(0, 0))!.transform == two.attributes(for: .cell(0, 1))!.transform)
        #expect(one.attributes(for: .cell(0, 2))!.transform == two.attributes(for: .cell(0, 2))!.transform)
        #expect(nearCorners(two.attributes(for: .cell(0, 0))!.transformedCorners, corners(centre: Point(200, 300), angle: turn("new"))))
    }

    @Test func severalSectionsMakeAColumnOfPiles() {
        let data = items(4, sections: 3)
        let p = Self.pileSpacing
        #expect(prepared(StackLayout(), data).contentSize == Size(400, 600 + 2 * p))
        // At rest, centred on pile 1, and at the end; pile s is centred at (200, 300 + s·p).
        for offset in [0, p, 2 * p, p / 2] {
            let layout = prepared(StackLayout(), data, offset: offset)
            for rect in [Rect(0, offset, 400, 600), Rect(0, offset, 400, 600).expanded(dx: 64, dy: 64), Rect(0, offset + 590, 400, 10)] {
                let shown = layout.attributes(in: rect)
                var expected: [IndexPath] = []
                for s in 0..<3 {
                    for i in [2, 1, 0] {
                        let c = corners(centre: Point(200, 300 + Double(s) * p), angle: turn("s\(s)i\(i)"))
                        let xs = c.map(\.x), ys = c.map(\.y)
                        if Rect(xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!).intersects(rect) { expected.append(IndexPath(s, i)) }
                    }
                }
                #expect(shown.map(\.indexPath) == expected, "offset \(offset), rect \(rect)")
                for a in shown {
                    #expect(layout.attributes(for: a.element) == a)
                    #expect(a.frame == Rect(125, 225 + Double(a.indexPath.section) * p, 150, 150))
                }
            }
        }
        // Scrolling moves nothing in content coordinates.
        var layout = prepared(StackLayout(), data)
        let still = (0..<3).flatMap { s in (0..<4).map { layout.attributes(for: .cell(s, $0))! } }
        var offset = -50.0
        while offset < 3 * p {
            layout.prepare(LayoutContext(data: data, boundsSize: Self.bounds, contentOffset: Point(0, offset)), invalidation: .boundsChange)
            #expect((0..<3).flatMap { s in (0..<4).map { layout.attributes(for: .cell(s, $0))! } } == still)
            offset += 7.5
        }
    }

    @Test func currentItemIsTheTopCardOfTheNearestPile() throws {
        let p = Self.pileSpacing
        let data = items(4, sections: 3)
        #expect(prepared(StackLayout(), data).currentItem == IndexPath(0, 0))
        #expect(prepared(StackLayout(), data, offset: 0.49 * p).currentItem == IndexPath(0, 0))
        #expect(prepared(StackLayout(), data, offset: 0.51 * p).currentItem == IndexPath(1, 0))
        #expect(prepared(StackLayout(), data, offset: 9 * p).currentItem == IndexPath(2, 0))
        // An empty pile is passed over.
        let gappy = try CollectionData(sections: [Section(id: "a", items: [Item(id: "x")]), Section(id: "b"), Section(id: "c", items: [Item(id: "y")])])
        #expect(prepared(StackLayout(), gappy, offset: p).currentItem == IndexPath(0, 0))
        #expect(prepared(StackLayout(), items(0)).currentItem == nil)
        #expect(prepared(StackLayout(), CollectionData()).currentItem == nil)
        // No snapping: a fling rests where it would.
        #expect(prepared().targetContentOffset(forProposed: Point(0, 37), velocity: Point(0, 500)) == Point(0, 37))
    }

    @Test func visibleItemsRoundsDownAndOwnSizesAreKept() throws {
        var layout = StackLayout()
        StackLayout.parameters.first { $0.description.name == "visibleItems" }!.set(&layout, .number(2.9))
        let l = prepared(layout)
        #expect(l.attributes(in: Rect(0, 0, 400, 600)).map(\.indexPath.item) == [1, 0])
        #expect(l.attributes(for: .cell(0, 2))!.alpha == 0)
        let sized = try CollectionData(sections: [Section(id: "s", items: [Item(id: "big", size: Size(300, 100)), Item(id: "b")])])
        let a = prepared(StackLayout(), sized).attributes(for: .cell(0, 0))!
        #expect(a.frame == Rect(50, 250, 300, 100))
        #expect(nearCorners(a.transformedCorners, corners(centre: Point(200, 300), size: Size(300, 100), angle: turn("big"))))
    }

    @Test func insertedCardsDropOntoThePileAndDeletedOnesLiftOff() {
        let layout = prepared()
        let drop = layout.initialAttributes(forAppearing: .cell(0, 1))!
        #expect(drop.alpha == 0 && drop.frame == Rect(125, 225, 150, 150))
        #expect(nearCorners(drop.transformedCorners, corners(centre: Point(200, 300), angle: turn("i1"), scale: 1.3)))
        let lift = layout.finalAttributes(forDisappearing: .cell(0, 1), from: layout.attributes(for: .cell(0, 1))!)!
        #expect(lift.alpha == 0 && nearCorners(lift.transformedCorners, drop.transformedCorners))
    }

    @Test func aTransitionToAFlowDealsTheCardsOutFromThePile() {
        // 12 cards; the flow (50×50, spacing 10) in 400 wide puts six per row, 70 apart:
        // card i at (Double(i % 6)·70, Double(i / 6)·60), all on screen, so the offset stays 0.
        var view = CollectionView(boundsSize: Self.bounds, layout: StackLayout(), data: items(12))
        #expect(view.boundViewCount == 3)
        view.setLayout(FlowLayout(), animation: AnimationTiming(duration: 1, curve: .linear))
        func flowCentre(_ i: Int) -> Point { Point(Double(i % 6) * 70 + 25, Double(i / 6) * 60 + 25) }
        let pile = Point(200, 300)
        for i in 0..<12 {
            // Every card starts on the pile, those under the top three transparent.
            let start = view.presentationAttributes(for: .cell(0, i))!
            #expect(start.center == pile && start.size == Size(150, 150), "card \(i)")
            #expect(start.alpha == (i < 3 ? 1 : 0))
            #expect(nearCorners(start.transformedCorners, corners(centre: pile, angle: turn("i\(i)"))))
        }
        view.advance(to: 0.25)
        for i in 0..<12 {
            let a = view.presentationAttributes(for: .cell(0, i))!
            #expect(near(a.center, pile.interpolated(to: flowCentre(i), 0.25), 1e-9), "card \(i)")
            #expect(near(a.size.width, 150 + (50 - 150) * 0.25))
            #expect(near(a.alpha, i < 3 ? 1 : 0.25))
        }
        view.advance(to: 1)
        for i in 0..<12 {
            let a = view.presentationAttributes(for: .cell(0, i))!
            #expect(a.center == flowCentre(i) && a.alpha == 1 && !a.hasTransform)
        }
        #expect(view.scene.contentOffset == .zero)
    }

    @Test func keysAndDefaults() {
        let layout = StackLayout()
        #expect(StackLayout.parameters.map(\.description.name) == ["itemSize", "maxAngle", "visibleItems", "pileSpacing"])
        let values = Dictionary(uniqueKeysWithValues: StackLayout.parameters.map { ($0.description.name, $0.get(layout)) })
        #expect(values["itemSize"] == .size(Size(150, 150)))
        #expect(values["maxAngle"] == .number(.pi / 24))
        #expect(values["visibleItems"] == .number(3))
        #expect(values["pileSpacing"] == .some(nil))
        #expect(LayoutRegistry.type(named: "stack") == StackLayout.self)
    }

    @Test func everyNumberIsFiniteForExtremeParameters() {
        let extremes = [
            StackLayout(itemSize: Size(1e6, 1e6), maxAngle: .pi, visibleItems: 1000, pileSpacing: 1e6),
            StackLayout(itemSize: Size(1e6, 1e6), maxAngle: .pi, visibleItems: 1, pileSpacing: 0),
            StackLayout(itemSize: Size(.leastNonzeroMagnitude, .leastNonzeroMagnitude), maxAngle: 0, visibleItems: 1, pileSpacing: nil),
        ]
        for layout in extremes {
            for offset in [-1e9, 0, 1e6, 1e12] {
                let l = prepared(layout, items(20, sections: 3), offset: offset)
                #expect(l.contentSize.height.isFinite)
                for s in 0..<3 {
                    for i in 0..<20 {
                        let a = l.attributes(for: .cell(s, i))!
                        #expect([a.frame.minX, a.frame.minY, a.frame.width, a.frame.height].allSatisfy { $0.isFinite })
                        #expect(a.transform.values.allSatisfy { $0.isFinite } && a.transformedCorners.allSatisfy { $0.x.isFinite && $0.y.isFinite })
                    }
                }
                for a in l.attributes(in: Rect(0, offset, 400, 600)) { #expect(a.alpha == 1) }
                #expect(l.currentItem != nil)
            }
        }
    }
}
