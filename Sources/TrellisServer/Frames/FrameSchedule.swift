/// When the live frame timer fires next: on a grid of absolute deadlines `interval` apart, so
/// the time a tick takes does not push every later tick back (libuv's repeating timers restart
/// their interval after the callback, and 16 ms plus the work drifts towards 20). A tick that
/// is late by more than an interval does not cause a burst: the grid restarts from now.
struct FrameSchedule {
    let interval: Double
    private(set) var nextDeadline: Double

    init(interval: Double, now: Double) {
        self.interval = interval
        nextDeadline = now + interval
    }

    /// After a tick at `now`: the next deadline and the delay to it in whole milliseconds (libuv
    /// timers count milliseconds; rounding up never fires early).
    mutating func nextDelay(after now: Double) -> UInt64 {
        nextDeadline += interval
        if nextDeadline < now { nextDeadline = now + interval }
        return delay(now: now)
    }

    /// Whole milliseconds from `now` to the next deadline.
    func delay(now: Double) -> UInt64 { UInt64(max(0, (nextDeadline - now).rounded(.up))) }
}

/// How long the last ticks took (the server's frame time: advance, diff, encode and write to
/// every viewer), for `stats`: a ring of the most recent durations.
struct FrameTimings {
    private var durations: [Double] = []
    private var next = 0
    private(set) var count = 0
    static let capacity = 4096

    mutating func record(_ milliseconds: Double) {
        count += 1
        if durations.count < Self.capacity {
            durations.append(milliseconds)
        } else {
            durations[next] = milliseconds
            next = (next + 1) % Self.capacity
        }
    }

    /// `{count, p50, p99, max}` in milliseconds over the kept ticks.
    var summary: (count: Int, p50: Double, p99: Double, max: Double) {
        guard !durations.isEmpty else { return (0, 0, 0, 0) }
        let sorted = durations.sorted()
        // Nearest rank: the smallest value with at least p % of the ticks at or below it.
        func percentile(_ p: Double) -> Double {
            sorted[min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))]
        }
        return (count, percentile(50), percentile(99), sorted.last!)
    }
}
