import Testing
import TrellisCore
@testable import TrellisProtocol

/// The server's diff straight from the engine (views updated in place while they keep their
/// places) and the diff of built scenes report the same deltas and leave the same state, over
/// random sessions: batch updates animated or not, sections that shift every index path,
/// animated scrolls and layout changes, resizes and time.
@Suite struct PublishedSceneRandomTests {
    /// Where two scenes first differ, briefly (a whole scene is too long to read in a failure).
    private func firstDifference(_ a: Scene, _ b: Scene) -> String? {
        if a.views.count != b.views.count { return "\(a.views.count) views, expected \(b.views.count)" }
        for (x, y) in zip(a.views, b.views) where x != y { return "\(x) expected \(y)" }
        return a == b ? nil : "scroll geometry or time"
    }

    @Test(arguments: 0..<24) func directAndSceneDiffsAgree(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var fresh = 0
        func freshItem() -> Item {
            fresh += 1
            let payload: ItemPayload? = rng.below(3) == 0 ? ItemPayload(.object(["label": .string("x\(fresh)")])) : nil
            return Item(id: ItemID("n\(fresh)"), data: payload)
        }
        var flow = FlowLayout()
        flow.itemSize = Size(40, 40)
        let data = try CollectionData(sections: [Section(id: "a", items: (0..<30).map { _ in freshItem() }),
                                                 Section(id: "b", items: (0..<10).map { _ in freshItem() })])
        var view = CollectionView(boundsSize: Size(300, 400), layout: flow, data: data)
        var direct = PublishedScene(keyframe: view.scene)
        var built = PublishedScene(keyframe: view.scene)
        var time = 0.0

        func randomItem(among sections: [Int]) -> IndexPath? {
            let filled = sections.filter { view.data.numberOfItems(inSection: $0) > 0 }
            guard let s = filled.randomElement(using: &rng) else { return nil }
            return IndexPath(s, rng.below(view.data.numberOfItems(inSection: s)))
        }
        for step in 0..<120 {
            let timing = rng.below(2) == 0 ? AnimationTiming.immediate : AnimationTiming(duration: 0.25)
            let sections = Array(0..<view.data.numberOfSections)
            switch rng.below(9) {
            case 0, 1, 2:
                time += Double(1 + rng.below(8)) / 60
                view.advance(to: time)
            case 3:
                if let s = sections.randomElement(using: &rng) {
                    let at = IndexPath(s, rng.below(view.data.numberOfItems(inSection: s) + 1))
                    try view.performBatchUpdates(BatchUpdate([.insertItems(at: [at], items: [freshItem()])]), animation: timing)
                }
            case 4:
                if let at = randomItem(among: sections) {
                    try view.performBatchUpdates(BatchUpdate([.deleteItems(at: [at])]), animation: timing)
                }
            case 5:
                if let from = randomItem(among: sections), let to = randomItem(among: sections) {
                    try view.performBatchUpdates(BatchUpdate([.moveItem(from: from, to: to)]), animation: timing)
                }
            case 6:
                // An empty section in front or its removal: every index path shifts, frames stay.
                if let empty = sections.first(where: { view.data.numberOfItems(inSection: $0) == 0 }), rng.below(2) == 0 {
                    try view.performBatchUpdates(BatchUpdate([.deleteSections(at: [empty])]), animation: timing)
                } else {
                    fresh += 1
                    let section = Section(id: SectionID("e\(fresh)"))
                    try view.performBatchUpdates(BatchUpdate([.insertSections(at: [0], sections: [section])]), animation: timing)
                }
            case 7:
                _ = try view.setContentOffset(Point(0, Double(rng.below(900))), timing: timing)
            default:
                if rng.below(3) == 0 {
                    view.resize(to: Size(Double(200 + rng.below(200)), Double(300 + rng.below(200))))
                } else {
                    let layout: any Layout = rng.below(2) == 0 ? flow : CircleLayout(itemSize: Size(30, 30))
                    view.setLayout(layout, animation: timing)
                }
            }
            let pooled = view.reusePool.pooledViewIDs
            var fromEngine = SceneDelta(time: 0), fromScene = SceneDelta(time: 0)
            direct.publish(view, pooled: pooled, reporting: &fromEngine)
            built.publish(view.scene, pooled: pooled, reporting: &fromScene)
            #expect(fromEngine == fromScene, "seed \(seed), step \(step)")
            #expect(firstDifference(direct.scene, view.scene) == nil, "seed \(seed), step \(step)")
            #expect(direct.pooled == built.pooled, "seed \(seed), step \(step)")
        }
    }
}
