import Testing
@testable import TrellisCore

/// An animation step writes the view's attributes in place (`interpolate`); whatever they held
/// before, they come out as `interpolated` says: position, size and alpha part way, the element,
/// z-index and hidden flag the target's at once, the transform between its ends.
@Suite struct LayoutAttributesInterpolationTests {
    @Test func inPlaceStepsOverwriteEverything() {
        var rng = SplitMix64(seed: 3)
        let transforms: [Transform3D] = [.identity, .scale(x: 2, y: 0.5), .translation(x: 30, y: -4),
                                         .rotation(angle: 0.7, x: 0, y: 1, z: 0)]
        func random() -> LayoutAttributes {
            LayoutAttributes(element: .cell(rng.below(3), rng.below(50)),
                             frame: Rect(Double(rng.below(500)), Double(rng.below(500)), Double(1 + rng.below(90)), Double(1 + rng.below(90))),
                             transform: transforms[rng.below(transforms.count)], alpha: Double(rng.below(11)) / 10,
                             zIndex: rng.below(5) - 2, isHidden: rng.below(4) == 0)
        }
        for n in 0..<400 {
            let from = random(), to = random()
            let t = [0, 1, 0.25, 0.5, 0.9, 1.3, -0.2][n % 7]
            var shown = random()   // what the view held after the last step, or anything
            shown.interpolate(from: from, to: to, progress: t)
            #expect(shown == from.interpolated(to: to, progress: t))
            guard t != 0 else { continue }
            #expect(shown.element == to.element && shown.zIndex == to.zIndex && shown.isHidden == to.isHidden)
            #expect(abs(shown.frame.minX - (from.frame.minX + (to.frame.minX - from.frame.minX) * t)) < 1e-9)
            #expect(shown.alpha >= 0 && shown.alpha <= 1)
            if from.transform == to.transform { #expect(shown.transform == to.transform) }
        }
    }
}
