import Testing
import TrellisTransport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SignalWatcherTests {
    /// A signal sent to the own process reaches the watcher on the loop's thread.
    @Test func seesASignalRaisedToTheProcess() throws {
        let loop = try EventLoop()
        let watcher = SignalWatcher(loop: loop)
        let deadline = LoopTimer(loop: loop)
        var seen: [Int32] = []
        var timedOut = false
        watcher.onSignal = { signal in
            seen.append(signal)
            watcher.close()
            deadline.close()
        }
        deadline.onFire = {
            timedOut = true
            watcher.close()
        }
        #expect(watcher.start(SIGUSR2) == 0)
        // Sent once the loop runs: the watcher is armed by then either way, and libuv queues it.
        let kick = LoopTimer(loop: loop)
        kick.onFire = { kill(getpid(), SIGUSR2) }
        kick.start(after: 1)
        deadline.start(after: 5000)
        loop.run()
        #expect(!timedOut)
        #expect(seen == [SIGUSR2])
        kick.close()
        loop.close()
    }
}
