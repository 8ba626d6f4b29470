#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// SIGINT and SIGTERM while a gesture is being sent: caught instead of fatal, so the gesture
/// can be cancelled before the process exits; a second one is fatal again (the handler puts
/// the default back), so a server that does not answer cannot hold the process.
enum InterruptSignals {
    /// The signal that came in, 0 for none. An atomic: a handler may only store to lock-free state.
    private static let caught = Atomic<Int32>(0)

    /// The signal caught since `catching` began, if any.
    static var pending: Int32? {
        let n = caught.load(ordering: .relaxed)
        return n == 0 ? nil : n
    }

    /// Runs `body` with SIGINT and SIGTERM caught, then puts their previous handlers back.
    static func catching<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        caught.store(0, ordering: .relaxed)
        let handler: @convention(c) (Int32) -> Void = { signum in
            InterruptSignals.caught.store(signum, ordering: .relaxed)
            signal(signum, SIG_DFL)
        }
        let previous = [SIGINT, SIGTERM].map { ($0, signal($0, handler)) }
        // One ignored by whoever started us (nohup, `cmd &` in a script) stays ignored.
        for (signum, old) in previous where isIgnore(old) { signal(signum, SIG_IGN) }
        // A parent may have started us with them blocked (the mask is inherited, from a test
        // runner's thread for one): unblocked, so the gesture can still be cancelled.
        var unblock = sigset_t(), mask = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, &mask)
        defer {
            pthread_sigmask(SIG_SETMASK, &mask, nil)
            for (signum, old) in previous { signal(signum, old) }
        }
        return try body()
    }

    private static func isIgnore(_ handler: __sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
