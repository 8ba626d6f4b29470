import Testing
@testable import TrellisDynamics

@Suite struct FixedTimestepTests {
    @Test func firstAdvanceOnlyStartsTheClock() {
        var clock = FixedTimestep(step: 0.01)
        #expect(clock.advance(to: 5) == 0)
    }

    @Test func sameStepsWhateverTheFrameRate() {
        var coarse = FixedTimestep(step: 1.0 / 60), fine = FixedTimestep(step: 1.0 / 60)
        _ = coarse.advance(to: 0); _ = fine.advance(to: 0)
        var coarseSteps = 0, fineSteps = 0
        for frame in 1...30 { coarseSteps += coarse.advance(to: Double(frame) / 30) }
        for frame in 1...120 { fineSteps += fine.advance(to: Double(frame) / 120) }
        #expect(coarseSteps == 60)
        #expect(fineSteps == 60)
    }

    @Test func remainderCarriesOver() {
        var clock = FixedTimestep(step: 0.1)
        _ = clock.advance(to: 0)
        #expect(clock.advance(to: 0.25) == 2)
        #expect(abs(clock.alpha - 0.5) < 1e-9)
        #expect(clock.advance(to: 0.30) == 1)
    }

    @Test func timeGoingBackwardsStepsNothing() {
        var clock = FixedTimestep(step: 0.1)
        _ = clock.advance(to: 1)
        #expect(clock.advance(to: 0.5) == 0)
    }

    @Test func longStallIsCapped() {
        var clock = FixedTimestep(step: 0.1, maximumStepsPerAdvance: 5)
        _ = clock.advance(to: 0)
        #expect(clock.advance(to: 100) == 5)
        #expect(clock.accumulated == 0)
    }
}
