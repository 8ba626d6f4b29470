import Testing
import TrellisCore
@testable import TrellisClient
import TrellisProtocol

/// The demo's steps as values: what a cycle shows, the timelines, the player on a live clock,
/// and how the headless demo tells someone else's doings from its own.
@Suite struct DemoChoreographyTests {
    func cycle(bounds: Size = Size(480, 264)) -> [DemoStep] {
        var choreography = DemoChoreography(bounds: bounds)
        return (0..<DemoChoreography.cycleLength).map { _ in choreography.next() }
    }

    @Test func oneCycleShowsEverySystemByItsSixthStepThenTheLayouts() {
        let steps = cycle()
        #expect(steps.map(\.system) == [.batchUpdates, .batchUpdates, .scrollPhysics, .springy, .dynamics, .layouts,
                                        .batchUpdates, .layouts, .layouts, .layouts, .layouts, .layouts, .layouts])
        #expect(Set(steps.prefix(6).map(\.system)) == Set(DemoSystem.allCases))
        // Each caption fits an 80-column terminal's top line with its number.
        for (n, step) in steps.enumerated() {
            let line = " " + DemoPlayer.caption(step, number: n + 1)
            #expect(line.unicodeScalars.count <= 80, "\(line)")
            #expect(line.contains(step.system.rawValue + ": "))
        }
        // The tour's requests: the layouts in order, the carousel flung, the task switcher scrolled.
        let layouts = steps.flatMap(\.actions).filter { $0.request.method == "layout.set" }
            .compactMap { action -> String? in
                let layout = action.request.params["layout"]
                return layout?["transform"]?.stringValue ?? layout?["type"]?.stringValue
            }
        #expect(layouts == ["springy", "circle", "line", "coverFlow", "stack", "carousel", "taskSwitcher", "compositional"])
    }

    @Test func theCompositionalStepFlingsItsBandOneGroupAndLeavesTheCollectionViewAlone() throws {
        let metrics = DemoMetrics(bounds: Size(480, 264))
        let step = cycle()[12]
        let set = try #require(step.actions.first { $0.request.method == "layout.set" })
        #expect(set.request.params["layout"] == metrics.compositionalLayout)
        // The step's requests played on an engine: its layout, 24 items, its pan samples on time.
        let layout = try LayoutSpec.layout(metrics.compositionalLayout, path: "layout")
        let items = (0..<24).map { Item(id: ItemID("d\($0)")) }
        var view = CollectionView(boundsSize: Size(480, 264), layout: layout, data: try CollectionData(sections: [Section(id: "s0", items: items)]))
        func point(_ v: JSONValue?) -> Point? {
            guard case .array(let xy)? = v, xy.count == 2, let x = xy[0].numberValue, let y = xy[1].numberValue else { return nil }
            return Point(x, y)
        }
        for action in step.actions where action.request.method == "gesture.pan" {
            view.advance(to: action.at / 1000)
            let p = action.request.params
            let phase = try #require(p["phase"]?.stringValue.flatMap(PanPhase.init(rawValue:)))
            try view.pan(phase, translation: point(p["translation"]) ?? .zero, velocity: point(p["velocity"]) ?? .zero, location: point(p["location"]))
        }
        view.advance(to: step.duration / 1000)
        // Cards 0.3 × 480 = 144 wide, 12 apart: a flick turns the band one group, 156 (groupPaging).
        #expect(view.orthogonalOffset(section: 0) == 156)
        #expect(view.scroll.contentOffset == .zero)
        #expect(!view.needsTicks)
    }

    @Test func stepsAreTimelinesInOrderWithTheirShotsInside() {
        for step in cycle() + cycle(bounds: Size(960, 552)) {
            #expect(zip(step.actions, step.actions.dropFirst()).allSatisfy { $0.at <= $1.at }, "\(step.caption)")
            #expect(!step.shots.isEmpty && step.shots.allSatisfy { $0.at <= step.duration }, "\(step.caption)")
            #expect(step.actions.allSatisfy { $0.at <= step.duration && $0.request.params["session"] == .string("demo") })
        }
        // The second cycle starts back at the flow, at the top, before its batch.
        var choreography = DemoChoreography()
        for _ in 0..<DemoChoreography.cycleLength { _ = choreography.next() }
        let again = choreography.next()
        #expect(again.actions.map(\.request.method) == ["layout.set", "scroll.to", "batch"])
        #expect(choreography.layout == "flow")
    }

    @Test func theDynamicsStepKeepsTheBehavioursItAddsAndTakesThemBack() throws {
        let step = cycle()[4]
        let adds = step.actions.filter { $0.request.method == "dynamics.add" }
        #expect(adds.map { $0.request.keeps } == ["gravity", "collision", "item"])
        // Later requests name them by what was kept; without a kept id they are skipped.
        let update = try #require(step.actions.first { $0.request.method == "dynamics.update" })
        #expect(update.request.resolved([:]) == nil)
        let kept: [String: JSONValue] = ["gravity": .number(7), "collision": .number(8), "item": .number(9)]
        #expect(update.request.resolved(kept)?["behavior"] == .number(7))
        let keeping = adds[1].request.keeping(.object(["behavior": .number(8)]))
        #expect(keeping?.name == "collision" && keeping?.id == .number(8))
        // It ends by removing them and its five bodies, and says so for a step cut short.
        let last = step.actions.suffix(8).map(\.request.method)
        #expect(last == Array(repeating: "dynamics.remove", count: 3) + Array(repeating: "body.remove", count: 5))
        #expect(step.cleanup.map(\.method) == last)
    }

    @Test func cellsAreSizedToTheViewSoTwoDozenScroll() {
        let terminal = DemoMetrics(bounds: Size(480, 264))
        #expect(terminal.itemSize == Size(105, 60) && terminal.perRow == 4 && terminal.rowsVisible == 3)
        // Six rows of 72 points and the insets: 180 points to scroll.
        #expect(terminal.scrollRange(items: 24) == 180)
        let large = DemoMetrics(bounds: Size(960, 552))
        #expect(large.perRow == 4 && large.rowsVisible == 3 && large.scrollRange(items: 24) > 200)
        let page = DemoMetrics(bounds: Size(480, 640))
        #expect(page.scrollRange(items: 24) > 100)
        // A size given is kept.
        #expect(DemoMetrics(bounds: Size(480, 640), itemSize: Size(96, 72)).itemSize == Size(96, 72))
    }

    @Test func thePlayerSendsEachRequestAtItsTimeAndHoldsBetweenSteps() {
        var player = DemoPlayer(DemoChoreography(), limit: 2, hold: 500)
        let first = player.due(at: 1000)
        #expect(first.caption?.hasPrefix("1/13 batch updates: insert ") == true)
        #expect(first.requests.map { $0.request.method } == ["batch"] && !first.finished)
        let duration = player.step!.duration
        #expect(player.due(at: 1000 + duration + 499).caption == nil)
        let second = player.due(at: 1000 + duration + 500)
        #expect(second.caption?.hasPrefix("2/13 batch updates: delete ") == true)
        #expect(player.due(at: 1_000_000).finished)
        // A step cut short hands back its cleanup; the next due starts the next step.
        var dropping = DemoPlayer(DemoChoreography(), limit: nil, hold: 0)
        var now = 0.0
        while dropping.step?.system != .dynamics {
            now += 10_000
            _ = dropping.due(at: now)
        }
        // Scrolled to the top first, then the card and its behaviours.
        let due = dropping.due(at: now + 600)
        #expect(due.requests.contains { $0.request.method == "body.add" })
        for (request, _) in due.requests { dropping.keep(request, reply: .object(["behavior": .number(1)])) }
        #expect(dropping.abandon().map { $0.request.method } == Array(repeating: "dynamics.remove", count: 3) + Array(repeating: "body.remove", count: 5))
        #expect(dropping.due(at: now + 700).caption?.hasPrefix("6/13 layouts: ") == true)
    }

    @Test func someoneElsesDoingsAreToldFromTheDemosOwn() {
        var takeover = DemoTakeover()
        func someoneElse(_ method: String, _ params: [String: JSONValue] = [:]) -> Bool {
            takeover.isSomeoneElse(.object(["method": .string(method), "params": .object(params)]))
        }
        takeover.sent("batch", [:], reply: .object(["update": .number(3)]))
        takeover.sent("layout.set", [:], reply: .object(["transition": .number(2)]))
        #expect(!someoneElse("update.completed", ["update": .number(3)]))
        #expect(someoneElse("update.completed", ["update": .number(4)]))
        #expect(!someoneElse("transition.completed", ["transition": .number(2)]))
        #expect(someoneElse("transition.completed", ["transition": .number(5)]))
        #expect(someoneElse("selection.changed"))
        #expect(!someoneElse("dynamics.paused") && !someoneElse("frame"))
        // The demo's own pan, then another finger: the other one is someone else's, and it
        // replaced the demo's, so there is no finger of the demo's to lift.
        takeover.sent("gesture.pan", ["phase": .string("began"), "translation": .array([.number(0), .number(0)])], reply: .null)
        takeover.sent("gesture.pan", ["phase": .string("changed"), "translation": .array([.number(0), .number(-40)])], reply: .null)
        #expect(!someoneElse("scroll.willBeginDragging"))
        var lifting = takeover
        let lift = lifting.liftFinger(session: "demo")
        #expect(lift?["translation"] == .array([.number(0), .number(-40)]) && lift?["phase"] == .string("cancelled"))
        let again = lifting.liftFinger(session: "demo")
        #expect(again == nil)
        #expect(someoneElse("scroll.willBeginDragging"))
        let none = takeover.liftFinger(session: "demo")
        #expect(none == nil)
        // A pan inside an orthogonal band begins a band's drag: the demo's own, then someone else's.
        takeover.sent("gesture.pan", ["phase": .string("began"), "translation": .array([.number(0), .number(0)]),
                                      "location": .array([.number(240), .number(132)])], reply: .null)
        #expect(!someoneElse("scroll.band.willBeginDragging", ["section": .number(0), "id": .string("s0"), "offset": .number(0)]))
        #expect(someoneElse("scroll.band.willBeginDragging", ["section": .number(0), "id": .string("s0"), "offset": .number(0)]))
    }
}
