#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol
import TrellisTransport

/// The loop's other handles: signals, timers, and closing everything once.
extension TerminalViewer {
    // The handles' callbacks hold the viewer unowned: it outlives them, as `run` (or `deinit`)
    // closes them all.
    func watch(_ signal: Int32) {
        let watcher = SignalWatcher(loop: loop)
        watcher.onSignal = { [unowned self] signal in
            if signal == SIGWINCH {
                self.readWindowSize()
                self.screen.invalidate()
                self.render(countsAsFrame: false)
            } else {
                self.finish(.signal(signal))
            }
        }
        watcher.start(signal)
        signalWatchers.append(watcher)
    }

    func startTimer(_ seconds: Double, _ action: @escaping (TerminalViewer) -> Void) {
        let timer = LoopTimer(loop: loop)
        timer.onFire = { [unowned self] in
            guard self.exitReason == nil else { return }
            action(self)
        }
        let ms = UInt64(max(1, (seconds * 1000).rounded()))
        timer.start(after: ms, repeatingEvery: ms)
        runningTimers.append(timer)
    }

    /// Closes the terminals, signal watchers and timers (idempotent; freed as libuv calls back).
    private func closeHandles() {
        for watcher in signalWatchers { watcher.close() }
        for timer in runningTimers { timer.close() }
        stdoutTTY?.close()
        stdinTTY?.close()
    }

    /// Stops the viewer: the terminal is given back at once (a signal may be followed by worse),
    /// then the loop winds down.
    func finish(_ reason: Exit) {
        guard exitReason == nil else { return }
        exitReason = reason
        restoreTerminal()
        closeHandles()
        if !connection.isClosed { connection.close(reason: "viewer stopped") }
        loop.stop()
    }

    /// Closes every handle, lets their callbacks run (which frees them) and closes the loop.
    func closeEverything() {
        guard !loopClosed else { return }
        loopClosed = true
        closeHandles()
        if !connection.isClosed { connection.close(reason: "viewer stopped") }
        loop.close()
    }

    static func now() -> Double { Double(EventLoop.monotonicNanoseconds) / 1e9 }
}
