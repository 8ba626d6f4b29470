import CLibUV
import Logging
import TrellisCore
import TrellisProtocol
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
            let handle = UnsafeMutablePointer<uv_signal_t>.allocate(capacity: 1)
            uv_signal_init(loop.loop, handle)
            handle.pointee.data = Unmanaged.passUnretained(self).toOpaque()
            uv_signal_start(handle, { handle, signum in
                let server = Unmanaged<Server>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
                server.logger.info("signal \(signum): shutting down")
                server.shutdown()
            }, signum)
            signals.append(handle)
        }
    }

    /// Stops watching the signals.
    func unwatchSignals() {
        for handle in signals {
            uv_close(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) { $0?.deallocate() }
        }
        signals.removeAll()
    }
}
