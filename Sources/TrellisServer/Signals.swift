import Logging
import TrellisCore
import TrellisProtocol
import TrellisTransport
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM mean a graceful stop, whatever mask a parent started us with.
extension Server {
    /// Unblocks SIGINT/SIGTERM and watches them on the loop (`signals` keeps the handles).
    func watchSignals() {
        // A parent may have started us with these blocked (the mask is inherited); unblock them
        // so SIGINT/SIGTERM always mean a graceful stop.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signum in [SIGINT, SIGTERM] {
            let watcher = SignalWatcher(loop: loop)
            watcher.onSignal = { [unowned self] signum in
                self.logger.info("signal \(signum): shutting down")
                self.shutdown()
            }
            watcher.start(signum)
            signals.append(watcher)
        }
    }

    /// Stops watching the signals.
    func unwatchSignals() {
        for watcher in signals { watcher.close() }
        signals.removeAll()
    }
}
