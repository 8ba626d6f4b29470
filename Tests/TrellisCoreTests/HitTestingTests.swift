import Testing
@testable import TrellisCore

@Suite struct HitTestingTests {
    func view(_ elements: [LayoutAttributes]) -> CollectionView {
        CollectionView(boundsSize: Size(400, 400), layout: FixedLayout(elements: elements), data: items(4))
    }

    @Test func topmostByZIndexWins() {
        let back = LayoutAttributes(element: .cell(0, 0), frame: Rect(0, 0, 100, 100), zIndex: 1)
        let front = LayoutAttributes(element: .cell(0, 1), frame: Rect(50, 50, 100, 100), zIndex: 2)
        let v = view([front, back])
        #expect(v.hitTest(Point(75, 75))?.element == .cell(0, 1))
        #expect(v.hitTest(Point(25, 25))?.element == .cell(0, 0))
        #expect(v.hitTest(Point(300, 300)) == nil)
    }

    @Test func laterInLayoutOrderWinsAtEqualZIndex() {
        let first = LayoutAttributes(element: .cell(0, 0), frame: Rect(0, 0, 100, 100))
        let second = LayoutAttributes(element: .cell(0, 1), frame: Rect(0, 0, 100, 100))
        #expect(view([first, second]).hitTest(Point(10, 10))?.element == .cell(0, 1))
    }

    @Test func hiddenAndTransparentViewsLetTouchesThrough() {
        let below = LayoutAttributes(element: .cell(0, 0), frame: Rect(0, 0, 100, 100))
        let hidden = LayoutAttributes(element: .cell(0, 1), frame: Rect(0, 0, 100, 100), zIndex: 1, isHidden: true)
        let clear = LayoutAttributes(element: .cell(0, 2), frame: Rect(0, 0, 100, 100), alpha: 0.005, zIndex: 2)
        let faint = LayoutAttributes(element: .cell(0, 3), frame: Rect(0, 0, 10, 10), alpha: 0.01, zIndex: 3)
        let v = view([below, hidden, clear, faint])
        #expect(v.hitTest(Point(50, 50))?.element == .cell(0, 0))
        #expect(v.hitTest(Point(5, 5))?.element == .cell(0, 3))
    }

    @Test func edgesAreHalfOpen() {
        let v = view([LayoutAttributes(element: .cell(0, 0), frame: Rect(10, 10, 20, 20))])
        #expect(v.hitTest(Point(10, 10)) != nil)
        #expect(v.hitTest(Point(30, 29)) == nil)
    }

    @Test func rotationIsInvertedIntoTheElementsSpace() {
        // A 200×20 bar centred at (200,200), turned 90°: it now stands upright.
        var bar = LayoutAttributes(element: .cell(0, 0), frame: Rect(100, 190, 200, 20))
        bar.transform = .rotation(angle: .pi / 2, x: 0, y: 0, z: 1)
        let v = view([bar])
        #expect(v.hitTest(Point(200, 120))?.element == .cell(0, 0))   // up the standing bar
        #expect(v.hitTest(Point(120, 200)) == nil)                      // where the bar used to be
    }

    @Test func scaleGrowsAndShrinksTheTarget() {
        var small = LayoutAttributes(element: .cell(0, 0), frame: Rect(0, 0, 100, 100))
        small.transform = .scale(x: 0.5, y: 0.5)     // now 25…75
        var big = LayoutAttributes(element: .cell(0, 1), frame: Rect(200, 200, 20, 20))
        big.transform = .scale(x: 4, y: 4)           // now 170…250
        let v = view([small, big])
        #expect(v.hitTest(Point(20, 20)) == nil)
        #expect(v.hitTest(Point(30, 30))?.element == .cell(0, 0))
        #expect(v.hitTest(Point(175, 245))?.element == .cell(0, 1))
    }

    @Test func rotatedElementOverlappingAnotherIsTestedByShapeNotBox() {
        // A square turned 45° in front of another: its bounding box covers the corner of the
        // square behind, its shape does not.
        var diamond = LayoutAttributes(element: .cell(0, 1), frame: Rect(100, 100, 100, 100), zIndex: 1)
        diamond.transform = .rotation(angle: .pi / 4, x: 0, y: 0, z: 1)
        let behind = LayoutAttributes(element: .cell(0, 0), frame: Rect(60, 60, 60, 60))
        let v = view([behind, diamond])
        #expect(v.hitTest(Point(85, 85))?.element == .cell(0, 0))    // inside the diamond's box, outside its shape
        #expect(v.hitTest(Point(150, 90))?.element == .cell(0, 1))   // the diamond's top corner region
    }

    @Test func perspectiveTiltIsUnprojected() {
        var card = LayoutAttributes(element: .cell(0, 0), frame: Rect(100, 100, 200, 200))
        card.transform = Transform3D.rotation(angle: .pi / 3, x: 0, y: 1, z: 0)
            .concatenating(.perspective(eyeDistance: 500))
        let v = view([card])
        // Turned 60° about y, the card's on-screen width shrinks to roughly half.
        #expect(v.hitTest(Point(200, 200)) != nil)
        #expect(v.hitTest(Point(115, 200)) == nil)
        #expect(v.hitTest(Point(285, 200)) == nil)
        let edgeOn = LayoutAttributes(element: .cell(0, 1), frame: Rect(0, 0, 50, 50),
                                      transform: .rotation(angle: .pi / 2, x: 0, y: 1, z: 0))
        #expect(view([edgeOn]).hitTest(Point(25, 25)) == nil)
    }
}
