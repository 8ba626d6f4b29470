import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// Rigid attachments are solved by sequential impulses, as Box2D's joints are, so how much
/// mass a chain of light links can hold is limited (PROTOCOL.md, "Dynamics": Box2D's manual
/// advises mass ratios under 10:1). Up to 10:1 a five-link chain holds within a few percent;
/// this pins down the documented bound.
@Suite struct MassRatioTests {
    /// Five 20×20 links 60 pt apart hanging from a fixed point by rigid attachments, the
    /// last `ratio` times as dense, under gravity for 5 s: how far the last one hangs below
    /// where rigid rods keep it (340), as a share of the chain's length (300).
    static func stretch(ratio: Double) -> Double {
        var a = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1000, height: 3000))
        let n = 5
        for k in 0..<n { a.setItem(DynamicItemID(k), DynamicBody(center: Point(500, 100 + 60 * Double(k)), size: Size(20, 20))) }
        a.add(AttachmentBehavior(item: DynamicItemID(0), anchor: .point(Point(500, 40))))
        for k in 1..<n { a.add(AttachmentBehavior(item: DynamicItemID(k), anchor: .item(DynamicItemID(k - 1), offset: .zero))) }
        a.add(GravityBehavior(items: (0..<n).map(DynamicItemID.init)))
        var heavy = ItemBehavior(items: [DynamicItemID(n - 1)])
        heavy.properties.density = ratio
        a.add(heavy)
        a.advance(steps: 300)
        return (a.bodies[DynamicItemID(n - 1)]!.center.y - 340) / 300
    }

    @Test(arguments: [1.0, 10])
    func aChainHoldsAWeightUpToTenTimesItsLinks(ratio: Double) {
        #expect(abs(Self.stretch(ratio: ratio)) < 0.03)
    }

    @Test func pastAHundredTimesTheLightLinksCannotHoldIt() {
        // Documented, not a goal: the heavy end falls as if free (Box2D's sequential impulses
        // too need ratios under 10:1); a scene needs links closer in mass to what they hold.
        #expect(Self.stretch(ratio: 1e12) > 10)
    }
}
