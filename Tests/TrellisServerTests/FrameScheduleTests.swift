import Testing
@testable import TrellisServer

@Suite struct FrameScheduleTests {
    @Test func deadlinesStayOnTheirGridWhateverATickCosts() {
        var schedule = FrameSchedule(interval: 1000.0 / 60, now: 0)
        #expect(schedule.delay(now: 0) == 17)
        // Ticks that take 5 ms each: the next deadline is still n × 16.67 ms.
        var now = 1000.0 / 60
        for n in 2...120 {
            now += 5
            let delay = schedule.nextDelay(after: now)
            #expect(abs(schedule.nextDeadline - Double(n) * 1000 / 60) < 1e-6)
            #expect(Double(delay) >= schedule.nextDeadline - now)
            now = schedule.nextDeadline
        }
    }

    @Test func aLateTickRestartsTheGridInsteadOfBursting() {
        var schedule = FrameSchedule(interval: 10, now: 0)
        #expect(schedule.nextDelay(after: 55) == 10)   // 20 was missed long ago: next is 65, not 20, 30, …
        #expect(schedule.nextDeadline == 65)
    }

    @Test func timingsKeepTheLastTicks() {
        var timings = FrameTimings()
        #expect(timings.summary.count == 0)
        for i in 1...100 { timings.record(Double(i)) }
        let s = timings.summary
        #expect(s.count == 100 && s.p50 == 50 && s.p99 == 99 && s.max == 100)
        for _ in 0..<FrameTimings.capacity { timings.record(1) }
        #expect(timings.summary.max == 1)
        #expect(timings.summary.count == 100 + FrameTimings.capacity)
    }
}
