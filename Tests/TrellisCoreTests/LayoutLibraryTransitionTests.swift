import Testing
@testable import TrellisCore
import TrellisGeometry

/// Every registered layout against every other through the engine's one path: animated
/// transitions both ways and animated batch updates in each, sampled frame by frame. Nothing
/// may leave the finite, every animation must end, and what is on screen at the end must be
/// where the layout puts it.
@Suite struct LayoutLibraryTransitionTests {
    static let bounds = Size(375, 667)

    /// Each registered layout at its defaults, with 40-pt items where a size is a key.
    static var layouts: [any Layout] { LayoutRegistry.all.map { $0.init() } }

    func view(_ layout: any Layout, items count: Int = 24) -> CollectionView {
        var view = CollectionView(boundsSize: Self.bounds, layout: layout, data: items(count))
        // Somewhere in the middle, where there is something either side.
        view.setContentOffset(view.scroll.clamped(Point(view.scroll.maximumContentOffset.x / 3,
                                                        view.scroll.maximumContentOffset.y / 3)))
        return view
    }

    /// Frames until nothing moves (at most 3 s), each checked for finite numbers.
    func run(_ view: inout CollectionView, _ what: String) {
        var frames = 0
        while view.needsTicks && frames < 180 {
            frames += 1
            view.advance(to: view.time + 1.0 / 60)
            for v in view.scene.views { expectFinite(v.attributes, "\(what), frame \(frames)") }
            expectFinite(view.presentationContentOffset, what)
        }
        #expect(!view.needsTicks, "\(what): still moving after 3 s")
    }

    func expectFinite(_ a: LayoutAttributes, _ what: String) {
        let numbers = [a.frame.origin.x, a.frame.origin.y, a.frame.size.width, a.frame.size.height, a.alpha] + a.transform.values
        let finite = numbers.allSatisfy { $0.isFinite }
        #expect(finite, "\(what): \(a)")
    }

    func expectFinite(_ p: Point, _ what: String) { #expect(p.x.isFinite && p.y.isFinite, "\(what): offset \(p)") }

    /// At rest, every bound cell shows the layout's attributes for it.
    func expectLanded(_ view: CollectionView, _ what: String) {
        for v in view.scene.views where v.element.isCell {
            guard let target = view.attributes(for: v.element) else {
                Issue.record("\(what): \(v.element) is on screen but the layout has no attributes for it")
                continue
            }
            #expect(v.attributes.frame == target.frame && v.attributes.alpha == target.alpha
                    && v.attributes.transform == target.transform, "\(what): \(v.element) at \(v.attributes) not \(target)")
        }
    }

    @Test func everyLayoutTransitionsToEveryOtherAndLands() {
        for from in Self.layouts {
            for to in Self.layouts where to.typeName != from.typeName {
                let what = "\(from.typeName) → \(to.typeName)"
                var v = view(from)
                v.setLayout(to, animation: AnimationTiming(duration: 0.5, curve: .easeInEaseOut))
                run(&v, what)
                expectLanded(v, what)
                #expect(v.scene.views.contains { $0.element.isCell }, "\(what): nothing on screen")
            }
        }
    }

    @Test func everyLayoutAnimatesInsertsAndDeletesAndLands() throws {
        for layout in Self.layouts {
            var v = view(layout)
            let current = v.layout.currentItem ?? IndexPath(0, 3)
            try v.performBatchUpdates(BatchUpdate([
                .deleteItems(at: [IndexPath(0, max(0, current.item - 1))]),
                .insertItems(at: [IndexPath(0, current.item)], items: [Item(id: "new")]),
            ]), animation: AnimationTiming(duration: 0.4, curve: .linear))
            // Half way the inserted item is on its way in: neither fully there nor gone.
            v.advance(to: v.time + 0.2)
            if let inserted = v.presentationAttributes(for: .cell(0, current.item)), !inserted.isHidden {
                #expect(inserted.alpha > 0 && inserted.alpha < 1, "\(layout.typeName): inserted item at alpha \(inserted.alpha)")
            }
            run(&v, "\(layout.typeName) insert and delete")
            expectLanded(v, "\(layout.typeName) insert and delete")
            #expect(v.data.numberOfItems(inSection: 0) == 24)
        }
    }
}
