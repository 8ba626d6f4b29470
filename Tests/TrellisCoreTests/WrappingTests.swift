import Testing
@testable import TrellisCore
import TrellisGeometry

/// An endless horizontal strip: item g sits on every slot (k·n + g)·pitch of a content that
/// holds `copies` turns, each drawn at its slot in the copy nearest the offset (as a wrapping
/// carousel draws them).
private struct EndlessStrip: Layout {
    var pitch = 100.0
    var copies = 50
    var typeName: String { "test-endless-strip" }
    private var n = 0
    private var bounds = Size.zero
    private var offset = 0.0

    mutating func prepare(_ context: LayoutContext, invalidation: LayoutInvalidation) {
        n = context.data.totalItemCount
        bounds = context.boundsSize
        offset = context.contentOffset.x
    }
    var contentSize: Size { Size(Double(copies * n) * pitch + bounds.width, bounds.height) }
    var wrapPeriod: Point { Point(x: Double(n) * pitch, y: 0) }
    var currentItem: IndexPath? { n == 0 ? nil : IndexPath(0, ((Int((offset / pitch).rounded()) % n) + n) % n) }

    /// The slot of `g` nearest the offset.
    private func slotX(_ g: Int) -> Double {
        let turn = Double(n) * pitch
        let base = Double(g) * pitch
        return base + ((offset - base) / turn).rounded() * turn + bounds.width / 2
    }

    func attributes(in rect: Rect) -> [LayoutAttributes] {
        (0..<n).compactMap { attributes(for: .cell(0, $0)) }.filter { $0.frame.intersects(rect) }
    }
    func attributes(for element: ElementID) -> LayoutAttributes? {
        guard element.isCell, element.indexPath.section == 0, element.indexPath.item >= 0, element.indexPath.item < n else { return nil }
        let x = slotX(element.indexPath.item)
        return LayoutAttributes(element: element, frame: Rect(x: x - 40, y: bounds.height / 2 - 40, width: 80, height: 80))
    }
    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { true }
    func targetContentOffset(forProposed proposed: Point, velocity: Point) -> Point {
        Point(x: (proposed.x / pitch).rounded() * pitch, y: proposed.y)
    }
}

@Suite struct WrappingTests {
    let h = 1.0 / 60.0

    func strip(_ count: Int = 10) -> CollectionView {
        CollectionView(boundsSize: Size(400, 300), layout: EndlessStrip(), data: items(count))
    }

    /// Where each item is on screen (frame centre minus the offset), by item.
    func screen(_ view: CollectionView) -> [Int: Double] {
        var result: [Int: Double] = [:]
        for v in view.scene.views where v.element.isCell { result[v.element.indexPath.item] = v.attributes.center.x - view.scene.contentOffset.x }
        return result
    }

    @Test func aNewViewStartsOnTheMiddleCopyShowingTheFirstItem() {
        let view = strip()
        // 50 turns of 1,000 pt: offsets 0…50,000, middle 25,000; item 0 centred.
        #expect(view.scroll.contentOffset.x == 25_000)
        #expect(view.layout.currentItem == IndexPath(0, 0))
        #expect(screen(view)[0] == 200)
    }

    @Test func aFlingPastTheEndOfATurnNeverJumpsAndRestsOnTheMiddleCopy() throws {
        var view = strip()
        var before = screen(view)
        try view.pan(.began, translation: .zero)
        try view.pan(.ended, translation: .zero, velocity: Point(-6000, 0))
        var offsets: [Double] = []
        var frame = 0
        while view.scrollDeceleration.decelerating {
            frame += 1
            view.advance(to: Double(frame) * h)
            let now = screen(view)
            let step = offsets.last.map { view.scroll.contentOffset.x - $0 } ?? 0
            // Every item seen in both frames moved by exactly the scroll's step (never a turn).
            for (item, x) in now {
                if let was = before[item], offsets.count > 0 { #expect(abs((was - x) - step) < 1e-6, "item \(item) jumped in frame \(frame)") }
            }
            offsets.append(view.scroll.contentOffset.x)
            before = now
        }
        // ~3,000 pt of travel: more than two turns, no recentring on the way (monotonic)…
        #expect(offsets.last! - 25_000 > 2_000)
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 })
        // …and it rests on an item, in the middle half (no move was needed for 3,000 pt).
        #expect(view.scroll.contentOffset.x.truncatingRemainder(dividingBy: 100) == 0)
    }

    @Test func anOffsetOutsideTheMiddleHalfMovesBackByWholeTurnsWithoutChangingThePicture() {
        var view = strip()
        view.setContentOffset(Point(2_300, 0))
        // 2,300 is in the outer quarter: moved by 23 turns of 1,000 pt, item 3 still centred.
        #expect(view.scroll.contentOffset.x == 25_300)
        #expect(view.layout.currentItem == IndexPath(0, 3))
        #expect(screen(view)[3] == 200)
        // Inside the middle half nothing moves.
        view.setContentOffset(Point(14_000, 0))
        #expect(view.scroll.contentOffset.x == 14_000)
    }

    @Test func nothingMovesWhileAnAnimationOrADynamicElementHoldsTheContent() throws {
        var animated = strip()
        animated.setContentOffset(Point(30_000, 0))
        _ = try animated.setContentOffset(Point(49_000, 0), timing: AnimationTiming(duration: 1, curve: .linear))
        animated.advance(to: 0.5)
        // Half way through the animated scroll the offset is not moved under it.
        #expect(animated.scroll.contentOffset.x == 49_000)
        animated.advance(to: 1.5)
        #expect(animated.scroll.contentOffset.x == 25_000)
        // A free body keeps content coordinates still: no move while one exists.
        var bodies = strip()
        try bodies.addBody(name: "b", center: Point(100, 100), size: Size(10, 10))
        bodies.setContentOffset(Point(2_300, 0))
        #expect(bodies.scroll.contentOffset.x == 2_300)
    }

    @Test func aBatchUpdateThatChangesTheTurnKeepsTheCurrentItemWhereItWas() throws {
        var view = strip()
        view.setContentOffset(Point(25_340, 0))   // item 3, 40 pt past its slot
        #expect(view.layout.currentItem == IndexPath(0, 3))
        let before = screen(view)[3]!
        // Two items before it: a turn is now 1,200 pt and the same offset would show another item.
        try view.performBatchUpdates(BatchUpdate([.insertItems(at: [IndexPath(0, 0), IndexPath(0, 1)],
                                                               items: [Item(id: "x"), Item(id: "y")])]),
                                     animation: .immediate)
        #expect(view.layout.currentItem == IndexPath(0, 5))
        #expect(view.data[IndexPath(0, 5)].id == "i3")
        #expect(screen(view)[5] == before)
        // A reload that removes items before it keeps it too.
        try view.reloadData(CollectionData(sections: [Section(id: "s0", items: (3..<10).map { Item(id: ItemID("i\($0)")) })]))
        #expect(view.layout.currentItem == IndexPath(0, 0))
        #expect(screen(view)[0] == before)
    }
}
