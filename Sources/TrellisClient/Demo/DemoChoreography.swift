import TrellisCore
import TrellisProtocol

/// What `trellis demo` does to its session, step after step, as protocol requests on a
/// timeline: a cycle of twelve that shows the five systems by its sixth step — batch updates
/// with their initial and final attributes, a fling that decelerates and bounces, the springy
/// flow under a finger, UIKit Dynamics (a thud and a pile) — then tours the layouts: circle
/// (with a batch update in it), line, cover flow, stack, a rotary carousel spun by a fling,
/// the task switcher, a compositional layout's band flung across.
/// It keeps its own count of the items and a seeded generator, so the same steps come out on
/// every run; `resynchronize` takes the server's figures when someone else changed the session.
public struct DemoChoreography: Sendable {
    public let session: String
    public let metrics: DemoMetrics
    /// The flow layout's cells.
    public var itemSize: Size { metrics.itemSize }
    /// The session's bounds.
    public var bounds: Size { metrics.bounds }
    public private(set) var itemCount: Int
    /// The layout the last step set: flow, springy, circle, line, coverFlow, stack, carousel, taskSwitcher or compositional.
    public private(set) var layout = "flow"
    /// Steps made so far.
    public private(set) var stepsMade = 0
    /// How many items the batch updates keep the session near.
    private let target: Int
    private var nextItem: Int
    private var random: SplitMix64
    /// The content is known to be at the top (the batch updates and the drop happen on the
    /// cells there); otherwise a step scrolls there first.
    private var atTop = true

    /// The steps of one cycle: every system is reached by the sixth.
    public static let cycleLength = 13

    /// Named and hex colours alike, as `data.color` allows both.
    static let palette = ["tomato", "#3cb44b", "gold", "#4363d8", "orange", "#911eb4", "turquoise", "#f032e6", "crimson", "#469990"]

    /// `itemSize` nil: cells sized to the bounds (`DemoMetrics`).
    public init(session: String = "demo", items: Int = 24, itemSize: Size? = nil, bounds: Size = Size(480, 264),
                seed: UInt64 = 2002) {
        self.session = session
        metrics = DemoMetrics(bounds: bounds, itemSize: itemSize)
        itemCount = items
        target = items
        nextItem = items
        random = SplitMix64(seed: seed)
    }

    /// The `session.create` params: the starting items in a flow layout, in the bounds given at `init`.
    public func createParams(clock: String) -> [String: JSONValue] {
        ["name": .string(session), "bounds": .array([.number(bounds.width), .number(bounds.height)]),
         "clock": .string(clock), "layout": metrics.flowLayout,
         "sections": .array([.object(["id": .string("s0"), "items": .array((0..<itemCount).map(Self.item))])])]
    }

    /// Item `n`: id `d<n>`, label `#<n>`, a colour of the palette.
    public static func item(_ n: Int) -> JSONValue {
        .object(["id": .string("d\(n)"),
                 "data": .object(["label": .string("#\(n)"), "color": .string(palette[n % palette.count])])])
    }

    /// Starts counting again from the server's figures (after someone else changed the
    /// session): its items, and its layout's type when known. Where the content is scrolled
    /// is not known any more, so the next step that needs the top scrolls there.
    public mutating func resynchronize(itemCount: Int, layout: String? = nil) {
        self.itemCount = itemCount
        nextItem = max(nextItem, itemCount)
        if let layout, layout != self.layout, !(layout == "carousel" && self.layout == "taskSwitcher") { self.layout = layout }
        atTop = false
    }

    /// The next step of the cycle.
    public mutating func next() -> DemoStep {
        defer { stepsMade += 1 }
        switch stepsMade % Self.cycleLength {
        case 0: return insertStep()
        case 1: return deleteAndMoveStep()
        case 2: return flingStep()
        case 3: return springyStep()
        case 4: return dynamicsStep()
        case 5: return layoutStep("circle", "flow → circle (Apple's seed 002)")
        case 6: return circleBatchStep()
        case 7: return layoutStep("line", "→ line (Apple's LineLayout): the centred cell magnified", scrollTo: pickItem(late: true))
        case 8: return layoutStep("coverFlow", "→ cover flow: covers turned towards the middle one", scrollTo: pickItem(late: false))
        case 9: return layoutStep("stack", "→ stack (seed 002): one pile, each card turned its own way")
        case 10: return carouselStep()
        case 11: return layoutStep("taskSwitcher", "→ task switcher (iOS 9): cards fanned out from the left", scrollTo: pickItem(late: false))
        default: return compositionalStep()
        }
    }

    // MARK: The steps

    /// Two cells inserted on screen: they come from the flow layout's initial attributes
    /// (UIKit's: where they will be, alpha 0), so they fade in.
    private mutating func insertStep() -> DemoStep {
        var (actions, start) = toFlowAtTop()
        let count = min(4, max(1, target + 2 - itemCount))
        var picked = Set<Int>()
        // Insert index paths are positions after the update: distinct, below the new count.
        let room = min(itemCount + count, metrics.cellsVisible)
        while picked.count < min(count, room) { picked.insert(random.below(room)) }
        let indexes = picked.sorted()
        let numbers = indexes.indices.map { nextItem + $0 }
        nextItem += indexes.count
        itemCount += indexes.count
        let what = numbers.map { "#\($0)" }.joined(separator: ", ")
        actions.append(.init(at: start, batch([["op": .string("insertItems"), "at": .array(indexes.map(wire)),
                                                "items": .array(numbers.map(Self.item))]])))
        return DemoStep(.batchUpdates, "insert \(what): fading in from their initial attributes",
                        actions: actions, shots: batchShots(start), duration: start + 700)
    }

    /// Cells deleted and one moved in one batch: the deleted ones go to their final attributes
    /// (alpha 0, where they were), the moved one slides across.
    private mutating func deleteAndMoveStep() -> DemoStep {
        var (actions, start) = toFlowAtTop()
        let onScreen = min(itemCount, metrics.cellsVisible)
        let count = min(max(1, itemCount - target), 4, max(0, onScreen - 2))
        var deleted = Set<Int>()
        while deleted.count < count { deleted.insert(random.below(onScreen)) }
        var ops: [[String: JSONValue]] = []
        var parts: [String] = []
        if !deleted.isEmpty {
            ops.append(["op": .string("deleteItems"), "at": .array(deleted.sorted().map(wire))])
            parts.append("delete " + deleted.sorted().map { "0:\($0)" }.joined(separator: ", ") + " (to final attributes)")
        }
        // The move's source is an index before the update, its destination one after it.
        let sources = (0..<onScreen).filter { !deleted.contains($0) }
        let after = itemCount - deleted.count
        if let from = sources.isEmpty ? nil : sources[random.below(sources.count)], after > 1 {
            var to = random.below(min(after, onScreen))
            if to == from { to = (to + 1) % min(after, onScreen) }
            ops.append(["op": .string("moveItem"), "from": wire(from), "to": wire(to)])
            parts.append("move 0:\(from) → 0:\(to)")
        }
        itemCount = after
        actions.append(.init(at: start, batch(ops)))
        return DemoStep(.batchUpdates, parts.joined(separator: ", "),
                        actions: actions, shots: batchShots(start), duration: start + 700)
    }

    /// A gentle fling that decelerates down to the end (UIKit's 0.998 per ms), then a hard one
    /// back that overshoots the top and bounces back on its spring.
    private mutating func flingStep() -> DemoStep {
        var (actions, start) = toFlowAtTop()
        let range = metrics.scrollRange(items: itemCount)
        let finger = Point(bounds.width / 2, bounds.height * 0.7)
        let gentle = max(300, DemoPan.flingVelocity(for: range * 1.08))
        let hard = max(2500, DemoPan.flingVelocity(for: range * 3))
        actions += DemoPan.actions(PanGesture.fling(velocity: Point(0, -gentle.rounded())).touchingDown(at: finger), session: session, at: start)
        let back = start + 2300
        actions += DemoPan.actions(PanGesture.fling(velocity: Point(0, hard.rounded())).touchingDown(at: finger), session: session, at: back)
        atTop = true
        return DemoStep(.scrollPhysics, "a fling decelerates to the end; a hard one back bounces",
                        actions: actions,
                        shots: [.init(at: start + 350, "decelerating"), .init(at: back - 50, "at the end"),
                                .init(at: back + 200, "past the top: the bounce"), .init(at: back + 1100, "at rest")],
                        duration: back + 1100)
    }

    /// The springy flow under a finger near the bottom, dragging the list up to its end: cells
    /// far from the finger move less at once and lag on their springs, then catch up.
    private mutating func springyStep() -> DemoStep {
        var (actions, start) = scrollToTop()
        if layout != "springy" {
            // Seed 000 at rest is the flow: nothing moves when it is set.
            actions.insert(.init(at: 0, layoutSet(metrics.springyLayout, animated: false)), at: 0)
            layout = "springy"
        }
        let range = max(metrics.scrollRange(items: itemCount), bounds.height * 0.5)
        let drag = PanGesture.drag(by: Point(0, -range.rounded()), over: 1000, releaseVelocity: Point(0, 0))
            .touchingDown(at: Point(bounds.width / 2, bounds.height * 0.85))
        actions += DemoPan.actions(drag, session: session, at: start, hold: 500)
        let lifted = start + DemoPan.duration(drag) + 500
        atTop = false
        return DemoStep(.springy, "a finger drags; cells far from it lag on their springs",
                        actions: actions,
                        shots: [.init(at: start + 500, "dragging: the far cells lag"), .init(at: start + 1000, "the finger stops"),
                                .init(at: lifted, "the springs caught up"), .init(at: lifted + 1200, "let go: at rest")],
                        duration: lifted + 1200)
    }

    /// The thud drop and a pile, on bodies over the cells at the top.
    private mutating func dynamicsStep() -> DemoStep {
        var (actions, start) = scrollToTop()
        let drop = DemoDynamics.actions(session: session, bounds: bounds, at: start)
        actions += drop.actions
        return DemoStep(.dynamics, "a card drops with a thud, boxes pile on; debug layer on",
                        actions: actions,
                        shots: [.init(at: start + 450, "the card falls"), .init(at: start + 750, "thud: it bounced"),
                                .init(at: start + 1800, "at rest"), .init(at: start + 3300, "the boxes pile up"),
                                .init(at: drop.end - 100, "a pile, at rest")],
                        duration: drop.end + 100, cleanup: DemoDynamics.cleanup(session: session), debugLayer: true)
    }

    /// Apple's circle: new cells grow out of the centre (its initial attributes), deleted ones
    /// shrink into it (its final attributes: scale 0.1, alpha 0).
    private mutating func circleBatchStep() -> DemoStep {
        var actions: [DemoStep.Action] = []
        if layout != "circle" { actions.append(.init(at: 0, layoutSet(metrics.circleLayout))) }
        layout = "circle"
        let start = actions.isEmpty ? 0.0 : 1000
        let count = min(2, max(0, itemCount - 1))
        var deleted = Set<Int>()
        while deleted.count < count { deleted.insert(random.below(itemCount)) }
        let after = itemCount - deleted.count
        var inserted = Set<Int>()
        while inserted.count < 2 { inserted.insert(random.below(after + 2)) }
        let numbers = inserted.sorted().indices.map { nextItem + $0 }
        nextItem += 2
        itemCount = after + 2
        var ops: [[String: JSONValue]] = []
        if !deleted.isEmpty { ops.append(["op": .string("deleteItems"), "at": .array(deleted.sorted().map(wire))]) }
        ops.append(["op": .string("insertItems"), "at": .array(inserted.sorted().map(wire)), "items": .array(numbers.map(Self.item))])
        actions.append(.init(at: start, batch(ops, duration: 0.8)))
        return DemoStep(.batchUpdates, "insert \(numbers.count), delete \(deleted.count): from and into the circle's centre",
                        actions: actions, shots: [.init(at: start + 350, "animating"), .init(at: start + 900, "done")],
                        duration: start + 900)
    }

    /// An animated change of layout, then (for the layouts that scroll along a row) an
    /// animated scroll to an item, so the layout is seen moving.
    private mutating func layoutStep(_ type: String, _ summary: String, scrollTo item: Int? = nil) -> DemoStep {
        let spec: JSONValue
        switch type {
        case "circle": spec = metrics.circleLayout
        case "line": spec = metrics.lineLayout
        case "coverFlow": spec = metrics.coverFlowLayout
        case "stack": spec = metrics.stackLayout
        case "taskSwitcher": spec = metrics.taskSwitcherLayout
        default: spec = metrics.flowLayout
        }
        layout = type
        atTop = false
        var actions = [DemoStep.Action(at: 0, layoutSet(spec))]
        var shots = [DemoStep.Shot(at: 450, "on the way"), .init(at: 950, "there")]
        var duration = 950.0
        if let item {
            actions.append(.init(at: 1000, DemoRequest("scroll.toItem", ["session": .string(session), "at": wire(item),
                                                                         "position": .string("centeredHorizontally"), "animated": .bool(true),
                                                                         "duration": .number(1.2), "curve": .string("easeInEaseOut")])))
            shots += [.init(at: 1600, "scrolling to 0:\(item)"), .init(at: 2300, "at 0:\(item)")]
            duration = 2300
        }
        return DemoStep(.layouts, summary, actions: actions, shots: shots, duration: duration)
    }

    /// iCarousel's rotary ring, then a flick across spins it; it snaps to a card at rest.
    private mutating func carouselStep() -> DemoStep {
        layout = "carousel"
        atTop = false
        var actions = [DemoStep.Action(at: 0, layoutSet(metrics.carouselLayout(items: itemCount)))]
        let flick = PanGesture.fling(velocity: Point(-1500, 0)).touchingDown(at: Point(bounds.width / 2, bounds.height / 2))
        actions += DemoPan.actions(flick, session: session, at: 1100)
        return DemoStep(.layouts, "→ rotary carousel (iCarousel), flung: near cards heavier",
                        actions: actions,
                        shots: [.init(at: 450, "on the way"), .init(at: 1050, "a ring: the nearer cards in front"),
                                .init(at: 1500, "spinning"), .init(at: 3600, "at rest on a card")],
                        duration: 3600)
    }

    /// A compositional layout's orthogonal band (Apple's "Orthogonal Sections"): a flick
    /// inside it turns the band a group, not the collection view.
    private mutating func compositionalStep() -> DemoStep {
        layout = "compositional"
        atTop = false
        var actions = [DemoStep.Action(at: 0, layoutSet(metrics.compositionalLayout))]
        let flick = PanGesture.fling(velocity: Point(-1200, 0)).touchingDown(at: Point(bounds.width / 2, bounds.height / 2))
        actions += DemoPan.actions(flick, session: session, at: 1100)
        return DemoStep(.layouts, "→ compositional (iOS 13): a band flung across, a group a page",
                        actions: actions,
                        shots: [.init(at: 450, "on the way"), .init(at: 1050, "one band of cards"),
                                .init(at: 1400, "the band turns"), .init(at: 2600, "at rest on a group")],
                        duration: 2600)
    }

    // MARK: Requests

    /// Back to the flow at the top (from another layout, or scrolled), then the step's own
    /// requests from the time returned.
    private mutating func toFlowAtTop() -> ([DemoStep.Action], Double) {
        var actions: [DemoStep.Action] = []
        var start = 0.0
        if layout != "flow" && layout != "springy" {
            actions.append(.init(at: 0, layoutSet(metrics.flowLayout)))
            layout = "flow"
            atTop = false
            start = 900
        }
        let (scroll, after) = scrollToTop(at: start)
        return (actions + scroll, after)
    }

    /// An animated scroll to the top when the content may be elsewhere; the time after it.
    private mutating func scrollToTop(at start: Double = 0) -> ([DemoStep.Action], Double) {
        guard !atTop else { return ([], start) }
        atTop = true
        return ([.init(at: start, DemoRequest("scroll.to", ["session": .string(session), "offset": .array([.number(0), .number(0)]),
                                                            "animated": .bool(true), "duration": .number(0.4)]))], start + 550)
    }

    private func layoutSet(_ spec: JSONValue, animated: Bool = true) -> DemoRequest {
        var params: [String: JSONValue] = ["session": .string(session), "layout": spec, "animated": .bool(animated)]
        if animated {
            params["duration"] = .number(0.8)
            params["curve"] = .string("easeInEaseOut")
        }
        return DemoRequest("layout.set", params)
    }

    private func batch(_ ops: [[String: JSONValue]], duration: Double = 0.6) -> DemoRequest {
        DemoRequest("batch", ["session": .string(session), "ops": .array(ops.map { .object($0) }),
                              "duration": .number(duration), "curve": .string("easeInEaseOut")])
    }

    private func batchShots(_ start: Double) -> [DemoStep.Shot] {
        [.init(at: start + 250, "animating"), .init(at: start + 700, "done")]
    }

    /// An item to scroll to, in the later half of the items or the earlier one: a layout
    /// change keeps the item at the centre, so alternating halves makes every scroll travel.
    private mutating func pickItem(late: Bool) -> Int {
        guard itemCount > 8 else { return max(0, itemCount - 1) }
        let half = itemCount / 2
        return late ? half + 1 + random.below(itemCount - half - 3) : 2 + random.below(half - 3)
    }

    private func wire(_ item: Int) -> JSONValue { .array([.number(0), .number(Double(item))]) }
}
