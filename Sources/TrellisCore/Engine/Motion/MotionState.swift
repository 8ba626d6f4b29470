/// Everything in flight in one engine, as a plain value: the running transactions, every view
/// on screen with its animation, the views on their way out, the offset's motion and an
/// interactive transition with its progress. A state snapshot keeps it, so compaction never
/// waits for stillness and a restart resumes mid-motion (`CollectionView.resume(_:)`).
public struct MotionState: Sendable {
    /// One running animation from `from` to `to`, as `ValueAnimation` keeps it.
    public struct Animation<Value: Sendable>: Sendable {
        public var from: Value
        public var to: Value
        public var startTime: Double
        public var timing: AnimationTiming
        public var transaction: Int
        public var interactive: Bool

        public init(from: Value, to: Value, startTime: Double, timing: AnimationTiming, transaction: Int, interactive: Bool) {
            self.from = from; self.to = to; self.startTime = startTime; self.timing = timing
            self.transaction = transaction; self.interactive = interactive
        }
    }

    /// A bound view: the element it shows, its presentation attributes, its place in the
    /// layout's order and its animation, if any.
    public struct View: Sendable {
        public var element: ElementID
        public var reuseIdentifier: String
        public var attributes: LayoutAttributes
        public var order: Int
        public var animation: Animation<LayoutAttributes>?

        public init(element: ElementID, reuseIdentifier: String, attributes: LayoutAttributes, order: Int,
                    animation: Animation<LayoutAttributes>?) {
            self.element = element; self.reuseIdentifier = reuseIdentifier; self.attributes = attributes
            self.order = order; self.animation = animation
        }
    }

    /// A view on its way out of a deleted or vanished element, with what it still shows.
    public struct LeavingView: Sendable {
        public var view: View
        public var itemID: ItemID?
        public var data: ItemPayload?

        public init(view: View, itemID: ItemID?, data: ItemPayload?) {
            self.view = view; self.itemID = itemID; self.data = data
        }
    }

    /// An interactive layout transition: the layout it started from, the offset there, and
    /// the progress the client last set.
    public struct Transition: Sendable {
        public var transaction: Int
        public var oldLayout: any Layout
        public var oldOffset: Point
        public var progress: Double

        public init(transaction: Int, oldLayout: any Layout, oldOffset: Point, progress: Double) {
            self.transaction = transaction; self.oldLayout = oldLayout; self.oldOffset = oldOffset; self.progress = progress
        }
    }

    public var transactions: [AnimationTransaction] = []
    public var nextTransactionID = 1
    /// Every bound view, in the layout's order (only filled while something is in flight).
    public var views: [View] = []
    public var leaving: [LeavingView] = []
    public var scroll: Animation<Point>?
    public var transition: Transition?

    public init() {}

    /// Nothing in flight: the model state alone rebuilds the engine.
    public var isEmpty: Bool { transactions.isEmpty && transition == nil && scroll == nil && leaving.isEmpty }
}

extension CollectionView {
    /// What is in flight now; empty at rest.
    public var motion: MotionState {
        var m = MotionState()
        guard !animations.isEmpty || interactiveTransition != nil || scrollMotion.animation != nil else { return m }
        m.transactions = animations.transactions.keys.sorted().map { animations.transactions[$0]! }
        m.nextTransactionID = animations.nextID
        m.views = boundInOrder.map { element, b in
            MotionState.View(element: element, reuseIdentifier: b.reuseIdentifier, attributes: b.attributes, order: b.order,
                             animation: b.animation.map(MotionState.Animation.init))
        }
        m.leaving = disappearing.map { d in
            MotionState.LeavingView(view: MotionState.View(element: d.element, reuseIdentifier: d.reuseIdentifier,
                                                           attributes: d.attributes, order: d.order,
                                                           animation: MotionState.Animation(d.animation)),
                                    itemID: d.itemID, data: d.data)
        }
        m.scroll = scrollMotion.animation.map(MotionState.Animation.init)
        m.transition = interactiveTransition.map {
            MotionState.Transition(transaction: $0.transaction, oldLayout: $0.oldLayout, oldOffset: $0.oldOffset, progress: $0.progress)
        }
        return m
    }

    /// Puts back what was in flight on an engine rebuilt from the same model state (data,
    /// layout, bounds, offset, time): the views on screen become the saved ones with their
    /// animations (an element already bound keeps its view; view ids are otherwise new), the
    /// transactions, the offset's motion and an interactive transition resume where they were.
    public mutating func resume(_ motion: MotionState) {
        guard !motion.isEmpty else { return }
        let previous = boundInOrder
        bound.removeAll(keepingCapacity: true)
        var kept = Set<ViewID>()
        for saved in motion.views {
            let reused = previous.first { $0.key == saved.element && $0.value.reuseIdentifier == saved.reuseIdentifier }?.value.view
            let view = reused ?? reusePool.dequeue(saved.reuseIdentifier).view
            if let reused { kept.insert(reused) }
            bound[saved.element] = BoundView(view: view, reuseIdentifier: saved.reuseIdentifier, attributes: saved.attributes,
                                             order: saved.order, generation: 0, animation: saved.animation.map(ViewAnimation.init))
        }
        for (_, b) in previous where !kept.contains(b.view) { reusePool.enqueue(b.view, reuseIdentifier: b.reuseIdentifier) }
        disappearing = motion.leaving.compactMap { l in
            guard let animation = l.view.animation else { return nil }
            return DisappearingView(view: reusePool.dequeue(l.view.reuseIdentifier).view, reuseIdentifier: l.view.reuseIdentifier,
                                    element: l.view.element, itemID: l.itemID, data: l.data, attributes: l.view.attributes,
                                    order: l.view.order, animation: ViewAnimation(animation))
        }
        animations.restore(motion.transactions, nextID: motion.nextTransactionID)
        scrollMotion.animation = motion.scroll.map(OffsetAnimation.init)
        interactiveTransition = motion.transition.map {
            InteractiveTransitionState(transaction: $0.transaction, oldLayout: $0.oldLayout, oldOffset: $0.oldOffset, progress: $0.progress)
        }
        prepareForOnScreenBounds()
    }
}

extension MotionState.Animation where Value: Animatable {
    init(_ a: ValueAnimation<Value>) {
        self.init(from: a.from, to: a.to, startTime: a.startTime, timing: a.timing, transaction: a.transaction, interactive: a.interactive)
    }
}

extension ValueAnimation {
    init(_ a: MotionState.Animation<Value>) {
        self.init(from: a.from, to: a.to, startTime: a.startTime, timing: a.timing, transaction: a.transaction,
                  interactive: a.interactive)
    }
}
