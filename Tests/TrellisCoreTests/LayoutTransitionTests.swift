import Testing
@testable import TrellisCore

@Suite struct LayoutTransitionTests {
    /// 10 rows of 50 pt in a 400×600 view; the circle's radius is 400 / 2.5 = 160 about (200, 300).
    func listView() -> CollectionView {
        CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(10))
    }
    let linear = AnimationTiming(duration: 1, curve: .linear)

    @Test func animatedTransitionInterpolatesEveryElement() {
        var view = listView()
        let id = view.setLayout(CircleLayout(), animation: linear)
        #expect(view.layout.typeName == "circle")
        #expect(view.presentationAttributes(for: .cell(0, 0))?.frame == Rect(0, 0, 400, 50))   // starts where it was
        view.advance(to: 0.5)
        // Row 0 (centre 200,25; 400×50) → item 0 at three o'clock (centre 360,300; 70×70).
        let half = view.presentationAttributes(for: .cell(0, 0))!
        #expect(half.center == Point(280, 162.5))
        #expect(half.size == Size(235, 60))
        view.advance(to: 1)
        #expect(view.presentationAttributes(for: .cell(0, 0))?.frame == Rect(325, 265, 70, 70))
        #expect(view.drainEvents() == [.transitionCompleted(transition: id, finished: true, installed: true)])
        #expect(!view.needsTicks)
    }

    @Test func withoutDurationTheLayoutLandsAtOnce() {
        var view = listView()
        let id = view.setLayout(CircleLayout(), animation: .immediate)
        #expect(view.presentationAttributes(for: .cell(0, 0))?.frame == Rect(325, 265, 70, 70))
        #expect(view.drainEvents() == [.transitionCompleted(transition: id, finished: true, installed: true)])
    }

    @Test func elementsOffScreenBeforeStillAnimateAlongTheirPath() {
        // 30 rows: rows 14…29 are beyond 600 + 64 and unbound in the list; all are on the circle.
        var view = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(30))
        #expect(view.presentationAttributes(for: .cell(0, 20)) == nil)
        view.setLayout(CircleLayout(), animation: linear)
        // It starts from its list position (y = 1000), far below the screen.
        #expect(view.presentationAttributes(for: .cell(0, 20))?.frame == Rect(0, 1000, 400, 50))
        view.advance(to: 1)
        #expect(view.boundViewCount == 30)
    }

    @Test func interactiveProgressFollowsTheClient() throws {
        var view = listView()
        let id = try view.beginInteractiveTransition(to: CircleLayout())
        let start = Rect(0, 0, 400, 50), end = Rect(325, 265, 70, 70)
        for p in [0.25, 0.75, 0.1, 0.5] {
            try view.updateInteractiveTransition(progress: p)
            let a = view.presentationAttributes(for: .cell(0, 0))!
            #expect(near(a.center, start.center.interpolated(to: end.center, p)))
        }
        view.advance(to: 10)   // time alone does not move an interactive transition
        #expect(near(view.presentationAttributes(for: .cell(0, 0))!.center, start.center.interpolated(to: end.center, 0.5)))
        #expect(throws: EngineError.transitionInProgress) { try view.beginInteractiveTransition(to: ListLayout()) }
        try view.finishInteractiveTransition(animation: AnimationTiming(duration: 1, curve: .linear))
        view.advance(to: 10.5)
        // Half way from the 0.5 state to the end.
        #expect(near(view.presentationAttributes(for: .cell(0, 0))!.center,
                     start.center.interpolated(to: end.center, 0.5).interpolated(to: end.center, 0.5)))
        view.advance(to: 11)
        #expect(view.presentationAttributes(for: .cell(0, 0))?.frame == end)
        #expect(view.drainEvents() == [.transitionCompleted(transition: id, finished: true, installed: true)])
        #expect(view.layout.typeName == "circle")
    }

    @Test func cancelAnimatesBackAndKeepsTheOldLayout() throws {
        var view = listView()
        let id = try view.beginInteractiveTransition(to: CircleLayout())
        try view.updateInteractiveTransition(progress: 0.6)
        try view.cancelInteractiveTransition(animation: AnimationTiming(duration: 0.5, curve: .easeOut))
        #expect(view.layout.typeName == "test-list")
        view.advance(to: 0.5)
        #expect(view.presentationAttributes(for: .cell(0, 0))?.frame == Rect(0, 0, 400, 50))
        #expect(view.drainEvents() == [.transitionCompleted(transition: id, finished: true, installed: false)])
        #expect(throws: EngineError.noTransitionInProgress) { try view.updateInteractiveTransition(progress: 0.2) }
        #expect(throws: EngineError.noTransitionInProgress) { try view.finishInteractiveTransition() }
    }

    @Test func interruptionStartsFromThePresentationWithoutAJump() {
        var view = listView()
        let first = view.setLayout(CircleLayout(), animation: AnimationTiming(duration: 1, curve: .easeInEaseOut))
        view.advance(to: 0.3)
        let before = view.scene
        let second = view.setLayout(ListLayout(), animation: AnimationTiming(duration: 1, curve: .easeInEaseOut))
        let after = view.scene
        for v in before.views {
            let same = after.views.first { $0.view == v.view }
            #expect(same?.attributes == v.attributes, "view \(v.view) jumped")
        }
        #expect(view.drainEvents() == [.transitionCompleted(transition: first, finished: false, installed: true)])
        view.advance(to: 1.3)
        #expect(view.presentationAttributes(for: .cell(0, 3))?.frame == Rect(0, 150, 400, 50))
        #expect(view.drainEvents() == [.transitionCompleted(transition: second, finished: true, installed: true)])
    }

    @Test func circleLayoutGeometryFollowsTheSample() {
        var circle = CircleLayout()
        circle.prepare(LayoutContext(data: items(4), boundsSize: Size(500, 1000)), invalidation: .all)
        #expect(circle.effectiveRadius == 200)
        #expect(circle.attributes(for: .cell(0, 0))?.center == Point(450, 500))
        #expect(near(circle.attributes(for: .cell(0, 1))!.center, Point(250, 700)))   // clockwise on screen
        #expect(circle.attributes(for: .cell(0, 4)) == nil)
        let initial = circle.initialAttributes(forAppearing: .cell(0, 2))!
        #expect(initial.center == Point(250, 500) && initial.alpha == 0)
        let final = circle.finalAttributes(forDisappearing: .cell(0, 2), from: circle.attributes(for: .cell(0, 2))!)!
        #expect(final.center == Point(250, 500) && final.alpha == 0 && final.transform == .scale(x: 0.1, y: 0.1))
    }
}
