import Testing
import TrellisTransport

/// Timers on a real loop: `run` returns once nothing is armed, so a timer that failed to stop
/// would hang the test, and one that never fired would leave its count at 0.
@Suite struct LoopTimerTests {
    @Test func oneShotFiresOnce() throws {
        let loop = try EventLoop()
        let timer = LoopTimer(loop: loop)
        var fired = 0
        timer.onFire = { fired += 1 }
        loop.updateTime()
        timer.start(after: 1)
        #expect(timer.isActive)
        loop.run()
        #expect(fired == 1)
        #expect(!timer.isActive)
        // Re-armed after it fired, as the frame clock re-arms its one-shot timer.
        timer.start(after: 1)
        loop.run()
        #expect(fired == 2)
        timer.close()
        loop.close()
    }

    @Test func repeatsUntilStopped() throws {
        let loop = try EventLoop()
        let timer = LoopTimer(loop: loop)
        var fired = 0
        timer.onFire = {
            fired += 1
            if fired == 3 { timer.stop() }
        }
        timer.start(after: 1, repeatingEvery: 1)
        loop.run()
        #expect(fired == 3)
        #expect(!timer.isActive)
        timer.close()
        loop.close()
    }

    @Test func closedInItsOwnCallbackAndDropped() throws {
        let loop = try EventLoop()
        var timer: LoopTimer? = LoopTimer(loop: loop)
        var fired = 0
        timer?.onFire = {
            fired += 1
            timer?.close()
            timer = nil   // the last reference goes while its callback runs
        }
        timer?.start(after: 1, repeatingEvery: 1)
        loop.run()
        #expect(fired == 1)
        #expect(timer == nil)
        loop.close()
    }

    @Test func droppedTimerNeverFires() throws {
        let loop = try EventLoop()
        var fired = 0
        do {
            let timer = LoopTimer(loop: loop)
            timer.onFire = { fired += 1 }
            timer.start(after: 1)
        }
        loop.run()
        #expect(fired == 0)
        loop.close()
    }

    @Test func closeAfterTheLoopClosedIsHarmless() throws {
        let loop = try EventLoop()
        let timer = LoopTimer(loop: loop)
        timer.start(after: 1000)
        loop.close()   // closes every handle left, this one too
        timer.close()
    }
}
