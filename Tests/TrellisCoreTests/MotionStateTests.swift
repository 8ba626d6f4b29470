import Testing
@testable import TrellisCore

/// What is in flight, saved and resumed on an engine rebuilt from the model state: the scene,
/// the events and what follows are the same as if nothing had happened (view ids aside).
@Suite struct MotionStateTests {
    /// The model state alone, as a state snapshot rebuilds it, then the motion on top.
    func rebuilt(_ view: CollectionView, layout: any Layout) -> CollectionView {
        var copy = CollectionView(boundsSize: view.scroll.boundsSize, layout: layout, data: view.data,
                                  contentInset: view.scroll.contentInset)
        copy.setContentOffset(view.scroll.contentOffset)
        copy.advance(to: view.time)
        _ = copy.drainEvents()
        copy.resume(view.motion)
        return copy
    }

    /// The scene without view ids (which also break drawing-order ties, so views are sorted).
    func shown(_ view: CollectionView) -> [String] {
        let s = view.scene
        return ["offset \(s.contentOffset) size \(s.contentSize)"]
            + s.views.map { "\($0.reuseIdentifier) \($0.element) \($0.itemID?.rawValue ?? "-") \($0.attributes)" }.sorted()
    }

    @Test func anUpdateAScrollAndLeavingViewsResumeWhereTheyWere() throws {
        var view = CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(200))
        let linear = AnimationTiming(duration: 1, curve: .linear)
        try view.setContentOffset(Point(0, 2000), timing: linear)
        view.advance(to: 0.2)
        try view.performBatchUpdates(BatchUpdate([.deleteItems(at: [IndexPath(0, 9), IndexPath(0, 10)])]),
                                     animation: AnimationTiming(duration: 0.5, curve: .easeInEaseOut))
        view.advance(to: 0.4)
        _ = view.drainEvents()
        #expect(!view.motion.isEmpty && !view.motion.leaving.isEmpty)
        var copy = rebuilt(view, layout: ListLayout())
        #expect(shown(copy) == shown(view))
        for t in [0.5, 0.75, 0.9, 1.0, 1.2] {
            view.advance(to: t)
            copy.advance(to: t)
            #expect(shown(copy) == shown(view), "at \(t)")
            #expect(copy.drainEvents() == view.drainEvents(), "at \(t)")
            #expect(copy.needsTicks == view.needsTicks)
        }
        #expect(!copy.needsTicks)
    }

    @Test func anInteractiveTransitionResumesAtItsProgress() throws {
        var view = CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(50))
        let transition = try view.beginInteractiveTransition(to: tallRows())
        try view.updateInteractiveTransition(progress: 0.4)
        var copy = rebuilt(view, layout: tallRows())
        #expect(copy.interactiveTransitionProgress == 0.4)
        #expect(shown(copy) == shown(view))
        for progress in [0.7, 0.2] {
            try view.updateInteractiveTransition(progress: progress)
            try copy.updateInteractiveTransition(progress: progress)
            #expect(shown(copy) == shown(view))
        }
        try view.cancelInteractiveTransition(animation: AnimationTiming(duration: 0.3, curve: .linear))
        try copy.cancelInteractiveTransition(animation: AnimationTiming(duration: 0.3, curve: .linear))
        view.advance(to: 0.3)
        copy.advance(to: 0.3)
        #expect(shown(copy) == shown(view))
        let events = view.drainEvents()
        #expect(events == [.transitionCompleted(transition: transition, finished: true, installed: false)])
        #expect(copy.drainEvents() == events)
        #expect(copy.layout.typeName == view.layout.typeName)
    }

    @Test func atRestNothingIsInFlight() {
        let view = CollectionView(boundsSize: Size(375, 812), layout: ListLayout(), data: items(50))
        #expect(view.motion.isEmpty && view.motion.views.isEmpty)
    }
}
