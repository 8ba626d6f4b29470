import TrellisTransport
#if canImport(Glibc)
import Glibc
#endif

/// The live frame clock: one-shot libuv timers on `FrameSchedule`'s grid of deadlines, running
/// only while a tick says something still moves, with each tick's wall-clock and on-CPU time
/// (stats' frameTimeMs and frameCpuMs: the gap is time the CPU was taken away).
final class FrameClock {
    private let loop: EventLoop
    private let interval: Double
    private let now: () -> Double
    private var timer: LoopTimer?
    private var schedule: FrameSchedule
    private(set) var timings = FrameTimings()
    private(set) var cpuTimings = FrameTimings()
    /// One tick's work; returns whether to tick again.
    var onTick: () -> Bool = { false }

    /// `now` is the loop time in milliseconds.
    init(loop: EventLoop, framesPerSecond: Double, now: @escaping () -> Double) {
        self.loop = loop
        interval = 1000 / framesPerSecond
        self.now = now
        schedule = FrameSchedule(interval: interval, now: 0)
    }

    var isRunning: Bool { timer != nil }

    func start() {
        guard timer == nil else { return }
        let timer = LoopTimer(loop: loop)
        timer.onFire = { [unowned self] in self.fire() }
        self.timer = timer
        schedule = FrameSchedule(interval: interval, now: now())
        arm(delay: schedule.delay(now: now()))
    }

    func stop() {
        guard let timer else { return }
        self.timer = nil
        timer.close()
    }

    /// One-shot timers, each armed for the next deadline of `schedule`.
    private func arm(delay: UInt64) {
        guard let timer else { return }
        // libuv counts from the loop's cached time, which is as old as this iteration.
        loop.updateTime()
        timer.start(after: delay)
    }

    private func fire() {
        let start = now(), cpuStart = Self.threadCPUMilliseconds
        let goOn = onTick()
        let end = now()
        timings.record(end - start)
        cpuTimings.record(Self.threadCPUMilliseconds - cpuStart)
        if goOn { arm(delay: schedule.nextDelay(after: end)) } else { stop() }
    }

    /// CPU time this thread has run, in ms (excludes time it waited for a CPU, stolen time too).
    private static var threadCPUMilliseconds: Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
    }
}
