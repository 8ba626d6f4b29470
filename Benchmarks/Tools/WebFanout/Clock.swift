#if canImport(Glibc)
import Glibc
#endif

/// Seconds on CLOCK_MONOTONIC: the one clock the direct viewer's thread and the WebSocket
/// clients' tasks both stamp arrivals with, so their difference is the bridge's delay.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
