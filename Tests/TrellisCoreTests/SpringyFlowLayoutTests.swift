#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TrellisCore
import TrellisGeometry

/// Seed 000's springy flow layout through the engine: at rest exactly the flow; a drag moves
/// each item by the seed's formula and the springs pull it back as a damped spring does; springs
/// only for what is shown, so a fling through 100,000 items holds a handful; no item pops in.
@Suite struct SpringyFlowLayoutTests {
    static let bounds = Size(320, 480)

    /// 100×100 items, 3 a row in 320 pt (spacing 10): rows 110 pt apart.
    static func flow() -> FlowLayout {
        var flow = FlowLayout()
        flow.itemSize = Size(100, 100)
        return flow
    }

    func views(_ count: Int = 300) -> (springy: CollectionView, flow: CollectionView) {
        (CollectionView(boundsSize: Self.bounds, layout: SpringyFlowLayout(flow: Self.flow()), data: items(count)),
         CollectionView(boundsSize: Self.bounds, layout: Self.flow(), data: items(count)))
    }

    /// Every cell on screen, by index path.
    func cells(_ view: CollectionView) -> [IndexPath: LayoutAttributes] {
        var result: [IndexPath: LayoutAttributes] = [:]
        for v in view.scene.views where v.element.isCell { result[v.element.indexPath] = v.attributes }
        return result
    }

    @Test func atRestItIsTheFlowLayoutBitForBit() throws {
        var (springy, flow) = views()
        #expect(springy.scene == flow.scene)
        springy.setContentOffset(Point(0, 1234.5))
        flow.setContentOffset(Point(0, 1234.5))
        #expect(springy.scene == flow.scene)
        #expect(springy.attributes(in: Rect(0, 0, 320, 5000)) == flow.attributes(in: Rect(0, 0, 320, 5000)))
        // And again after a drag has stretched it and everything came to rest.
        try springy.pan(.began, translation: .zero, location: Point(160, 100))
        try springy.pan(.changed, translation: Point(0, -60))
        try springy.pan(.ended, translation: Point(0, -60), velocity: .zero)
        var t = 0.0
        while springy.needsTicks && t < 30 { t += 1.0 / 60; springy.advance(to: t) }
        #expect(!springy.needsTicks)
        flow.setContentOffset(springy.scroll.contentOffset)
        flow.advance(to: t)
        #expect(springy.scene.views.map(\.attributes) == flow.scene.views.map(\.attributes))
        #expect(springy.dynamicItems.isEmpty)
    }

    @Test func aDragMovesEachItemByTheSeedsFormulaThenItSpringsBack() throws {
        var (springy, _) = views()
        springy.setContentOffset(Point(0, 1100))
        let flowCentres = Dictionary(uniqueKeysWithValues: springy.attributes(in: Rect(0, 900, 320, 900)).map { ($0.indexPath, $0.center) })
        // The finger touches down 100 pt from the top of the view and pulls the content up 30 pt.
        let delta = 30.0, touchY = 1100 + 100.0
        try springy.pan(.began, translation: .zero, location: Point(160, 100))
        try springy.pan(.changed, translation: Point(0, -delta))
        #expect(springy.scroll.contentOffset.y == 1100 + delta)
        var checked = 0
        for (indexPath, a) in cells(springy) {
            guard let anchor = flowCentres[indexPath] else { continue }
            // Seed 000: center.y += min(Δ, Δ·|touch.y − anchor.y|/500) for Δ > 0; the finger is
            // over the same content point as when it touched down.
            let lag = min(delta, delta * abs(touchY - anchor.y) / 500)
            #expect(abs(a.center.y - (anchor.y + lag)) < 1e-9, "\(indexPath): \(a.center.y) vs \(anchor.y + lag)")
            #expect(a.center.x == anchor.x)
            checked += 1
        }
        #expect(checked >= 12)
        // Let go still: each item swings back to its place as a spring of 0.8 Hz and damping 0.5
        // from rest: its half period π/ω_d and its first trough's depth e^(−ζωπ/ω_d)·d within 2 %.
        try springy.pan(.ended, translation: Point(0, -delta), velocity: .zero)
        let watched = IndexPath(0, 3 * 15)   // a row 500 pt below the touch: a full lag of 30
        let anchor = flowCentres[watched]!
        let d = min(delta, delta * abs(touchY - anchor.y) / 500)
        var samples = [d]
        for step in 1...180 {
            springy.advance(to: Double(step) / 60)
            // The model attributes of an item with a spring are where the simulation has it
            // (this one is in the tile's margin, not on screen).
            samples.append((springy.attributes(for: .cell(watched))?.center.y ?? .nan) - anchor.y)
        }
        let w = 2 * Double.pi * 0.8, z = 0.5, wd = w * (1 - z * z).squareRoot()
        var crossings: [Double] = []
        for i in 1..<samples.count where (samples[i - 1] > 0) != (samples[i] > 0) {
            crossings.append((Double(i) - samples[i] / (samples[i] - samples[i - 1])) / 60)
        }
        try #require(crossings.count >= 2)
        #expect(abs((crossings[1] - crossings[0]) / (Double.pi / wd) - 1) < 0.02, "half period \(crossings[1] - crossings[0])")
        let trough = samples.min()! / d
        #expect(abs(-trough / exp(-z * w * Double.pi / wd) - 1) < 0.02, "trough \(trough)")
    }

    @Test func aHorizontalFlowStretchesAlongX() throws {
        var flow = Self.flow()
        flow.scrollDirection = .horizontal
        var view = CollectionView(boundsSize: Size(480, 320), layout: SpringyFlowLayout(flow: flow), data: items(300))
        view.setContentOffset(Point(1100, 0))
        let anchors = Dictionary(uniqueKeysWithValues: view.attributes(in: Rect(900, 0, 900, 320)).map { ($0.indexPath, $0.center) })
        try view.pan(.began, translation: .zero, location: Point(100, 160))
        try view.pan(.changed, translation: Point(-30, 0))
        var checked = 0
        for (indexPath, a) in cells(view) {
            guard let anchor = anchors[indexPath] else { continue }
            let lag = min(30, 30 * abs(1200 - anchor.x) / 500)
            #expect(abs(a.center.x - (anchor.x + lag)) < 1e-9 && a.center.y == anchor.y, "\(indexPath)")
            checked += 1
        }
        #expect(checked >= 6)
    }

    @Test func theSameGesturesGiveTheSameFrames() throws {
        func run() throws -> [[SceneView]] {
            var view = CollectionView(boundsSize: Self.bounds, layout: SpringyFlowLayout(flow: Self.flow()), data: items(2000))
            view.setContentOffset(Point(0, 20_000))
            try view.pan(.began, translation: .zero, location: Point(50, 400))
            view.advance(to: 1.0 / 60)
            try view.pan(.changed, translation: Point(0, -45))
            try view.pan(.ended, translation: Point(0, -45), velocity: Point(0, -2500))
            var frames: [[SceneView]] = []
            for frame in 2...200 {
                view.advance(to: Double(frame) / 60)
                frames.append(view.scene.views)
            }
            return frames
        }
        let first = try run(), second = try run()
        #expect(first == second)
        // And the frames did stretch: some item somewhere off its flow place.
        #expect(first.contains { views in views.contains { $0.attributes.frame.origin.y.truncatingRemainder(dividingBy: 110) != 0 } })
    }

    @Test func aFlingThrough100kItemsKeepsSpringsForWhatIsShownAndNothingPops() throws {
        var view = CollectionView(boundsSize: Self.bounds, layout: SpringyFlowLayout(flow: Self.flow()), data: items(100_000))
        view.setContentOffset(Point(0, 500_000))
        try view.pan(.began, translation: .zero, location: Point(160, 240))
        try view.pan(.changed, translation: Point(0, -50))
        try view.pan(.ended, translation: Point(0, -50), velocity: Point(0, -4000))
        var before = cells(view), offset = view.presentationContentOffset.y
        var most = 0, frames = 0, t = 0.0
        while view.needsTicks && frames < 1200 {
            frames += 1
            t += 1.0 / 60
            view.advance(to: t)
            most = max(most, view.dynamicItems.count)
            let now = cells(view), newOffset = view.presentationContentOffset.y
            let step = abs(newOffset - offset)
            // An item on screen in both frames moves at most the scroll step plus what its spring
            // can move it in a frame (never its whole displacement at once).
            for (indexPath, a) in now {
                if let was = before[indexPath] { #expect(abs(a.center.y - was.center.y) <= step + 12, "\(indexPath) in frame \(frames)") }
            }
            before = now
            offset = newOffset
        }
        #expect(!view.needsTicks && frames < 1200)
        // The view shows about 5 rows of 3; with the 100 pt margins about 7 rows: never more
        // than a few dozen springs, whatever the item count.
        #expect(most > 10 && most <= 40, "at most \(most) items in the animator")
        #expect(view.dynamicItems.isEmpty && view.dynamics.itemIDs.isEmpty)
    }

    @Test func updatesAndTransitionsTakeTheSpringsOffAndLandOnFlowFrames() throws {
        var (springy, _) = views()
        try springy.pan(.began, translation: .zero)
        try springy.pan(.changed, translation: Point(0, -40))
        try springy.pan(.ended, translation: Point(0, -40), velocity: .zero)
        springy.advance(to: 0.1)
        #expect(!springy.dynamicItems.isEmpty)
        // A batch update lets go of the springs: items animate from where they are to the new flow.
        try springy.performBatchUpdates(BatchUpdate([.insertItems(at: [IndexPath(0, 0)], items: [Item(id: "new")])]),
                                        animation: AnimationTiming(duration: 0.3, curve: .linear))
        #expect(springy.dynamicItems.isEmpty)
        var t = 0.1
        while springy.needsTicks && t < 5 { t += 1.0 / 60; springy.advance(to: t) }
        for (indexPath, a) in cells(springy) { #expect(a.frame == Self.flow().attributesInView(indexPath, springy)) }
        // A transition to a flow from a stretched springy lands on exact flow frames.
        try springy.pan(.began, translation: .zero)
        try springy.pan(.changed, translation: Point(0, -40))
        springy.setLayout(Self.flow(), animation: AnimationTiming(duration: 0.3, curve: .linear))
        #expect(springy.dynamicItems.isEmpty)
        while springy.needsTicks && t < 10 { t += 1.0 / 60; springy.advance(to: t) }
        for (indexPath, a) in cells(springy) { #expect(a.frame == springy.attributes(for: .cell(indexPath))?.frame) }
    }
}

extension FlowLayout {
    /// This flow's frame for `indexPath` with `view`'s data and bounds.
    func attributesInView(_ indexPath: IndexPath, _ view: CollectionView) -> Rect? {
        var copy = self
        copy.prepare(LayoutContext(data: view.data, boundsSize: view.scroll.boundsSize), invalidation: .all)
        return copy.attributes(for: .cell(indexPath))?.frame
    }
}
