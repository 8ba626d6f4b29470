import Testing
import TrellisDynamics
@testable import TrellisCore

/// The animator's step rate on the engine (60, 120 or 240 Hz): the dynamics stage steps at it,
/// a change keeps the time not yet simulated, and the released scroll keeps its own 60 Hz step.
@Suite struct DynamicsStepRateTests {
    /// 4 cells of 100×100 in a 400×600 view (one row), on a flow layout; nothing to collide with.
    func session(rate: Int = 60) -> CollectionView {
        var view = CollectionView(boundsSize: Size(400, 600),
                                  layout: FlowLayout(metrics: FlowLayoutMetrics(itemSize: Size(100, 100), minimumInteritemSpacing: 0)),
                                  data: items(4))
        let taken = view.setDynamicsStepRate(rate)
        #expect(taken)
        return view
    }

    /// Gravity (1000 pt/s², down) on item i1, whose centre starts at (150, 50).
    func dropping(rate: Int) throws -> CollectionView {
        var view = session(rate: rate)
        var resolver = view.dynamicElementResolver()
        let id = try resolver.id(for: .item("i1"))
        view.addDynamicBehavior(GravityBehavior(items: [id]), spec: TestBehaviorSpec(), resolver: resolver)
        return view
    }

    @Test func sixtyIsTheDefaultAndOnlyTheListedRatesAreTaken() {
        var view = CollectionView(boundsSize: Size(400, 600), layout: FlowLayout(), data: items(0))
        #expect(view.dynamicsStepRate == 60)
        #expect(CollectionView.dynamicsStepRates == [60, 120, 240])
        for refused in [0, 30, 59, 61, 100, 480, -60, Int.max, Int.min] {
            let taken = view.setDynamicsStepRate(refused)
            #expect(!taken)
            #expect(view.dynamicsStepRate == 60)
        }
        let taken = view.setDynamicsStepRate(240)
        #expect(taken)
        #expect(view.dynamicsStepRate == 240)
    }

    @Test(arguments: [120, 240])
    func aFasterRateTakesProportionallyMoreStepsPerSimulatedSecond(_ rate: Int) throws {
        var slow = try dropping(rate: 60), fast = try dropping(rate: rate)
        slow.advance(to: 1)
        fast.advance(to: 1)
        #expect(slow.dynamicsStepsTaken == 60)
        #expect(fast.dynamicsStepsTaken == rate)
        #expect(fast.dynamicsStepsTaken == slow.dynamicsStepsTaken * rate / 60)
    }

    /// A free fall lands at the same place whatever the rate, on its closed form: gravity is a
    /// constant force, which moves an item exactly over any step (symplectic Euler was off by
    /// g·h·t/2, about 4 pt at 60 Hz after 0.5 s).
    @Test func aFreeFallLandsAtNearlyTheSamePlaceAtEveryRate() throws {
        var landed: [Int: Double] = [:]
        for rate in CollectionView.dynamicsStepRates {
            var view = try dropping(rate: rate)
            view.advance(to: 0.5)
            landed[rate] = try view.dynamicState(of: .item("i1")).center.y
        }
        let exact = 50 + 1000 * 0.5 * 0.5 / 2
        // Exact at every rate (a constant force moves by v·t + ½·a·t²): to the last digits.
        for rate in CollectionView.dynamicsStepRates {
            #expect(near(landed[rate]!, landed[60]!, 1e-9), "at \(rate) Hz: \(landed[rate]!) against \(landed[60]!) at 60 Hz")
            #expect(near(landed[rate]!, exact, 1e-9), "at \(rate) Hz: \(landed[rate]!) against the closed form \(exact)")
        }
    }

    @Test func aChangeKeepsTheTimeNotYetSimulated() throws {
        var view = try dropping(rate: 60)
        // 25 ms at 60 Hz: one step, 8⅓ ms left over.
        view.advance(to: 0.025)
        #expect(view.dynamicsStepsTaken == 1)
        view.setDynamicsStepRate(240)
        // The 8⅓ ms left over are two steps at 240 Hz, taken with the next advance.
        view.advance(to: 0.0251)
        #expect(view.dynamicsStepsTaken == 3)
        // And on: a second at 240 Hz is 240 steps, none lost or taken twice.
        view.advance(to: 1.0251)
        #expect(view.dynamicsStepsTaken == 3 + 240)
        // Back to 60: the 0.1 ms left over stays left over.
        view.setDynamicsStepRate(60)
        view.advance(to: 1.0417)
        #expect(view.dynamicsStepsTaken == 3 + 240 + 1)
    }

    @Test func aRefusedRateChangesNothing() throws {
        var view = try dropping(rate: 120)
        view.advance(to: 0.1)
        let before = try view.dynamicState(of: .item("i1"))
        let taken = view.setDynamicsStepRate(61)
        #expect(!taken)
        #expect(view.dynamicsStepRate == 120)
        var twin = try dropping(rate: 120)
        twin.advance(to: 0.1)
        view.advance(to: 0.3)
        twin.advance(to: 0.3)
        #expect(try view.dynamicState(of: .item("i1")) == twin.dynamicState(of: .item("i1")))
        #expect(before.center.y < (try view.dynamicState(of: .item("i1"))).center.y)
    }

    /// The released scroll steps at 60 Hz whatever the animator's rate: a fling is the same,
    /// offset for offset, at every rate.
    @Test(arguments: [120, 240])
    func aFlingIsTheSameAtEveryRate(_ rate: Int) throws {
        func flung(_ rate: Int) throws -> [Point] {
            var view = CollectionView(boundsSize: Size(400, 600), layout: ListLayout(), data: items(1000))
            view.setDynamicsStepRate(rate)
            try view.pan(.began, translation: .zero)
            try view.pan(.ended, translation: .zero, velocity: Point(0, -3000))
            var offsets: [Point] = []
            var n = 0.0
            // Frames at 50 Hz, so frames and steps do not line up.
            while view.scrollDeceleration.decelerating && offsets.count < 1000 {
                n += 1
                view.advance(to: n / 50)
                offsets.append(view.presentationContentOffset)
            }
            return offsets
        }
        let sixty = try flung(60)
        #expect(sixty.count > 10)
        #expect(try flung(rate) == sixty)
    }
}
