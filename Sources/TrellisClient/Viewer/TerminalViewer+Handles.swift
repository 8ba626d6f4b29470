#if canImport(Glibc)
import Glibc
#endif
import CLibUV
import TrellisCore
import TrellisProtocol

/// The loop's other handles: signals, timers, and closing everything once.
extension TerminalViewer {
    func watch(_ signal: Int32) {
        let handle = allocateHandle(UV_SIGNAL, as: uv_signal_t.self)
        uv_signal_init(loop, handle)
        register(handle)
        uv_signal_start(handle, { handle, signal in
            let viewer = Unmanaged<TerminalViewer>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            if signal == SIGWINCH {
                viewer.readWindowSize()
                viewer.screen.invalidate()
                viewer.render(countsAsFrame: false)
            } else {
                viewer.finish(.signal(signal))
            }
        }, signal)
    }

    func startTimer(_ seconds: Double, _ action: @escaping (TerminalViewer) -> Void) {
        let handle = allocateHandle(UV_TIMER, as: uv_timer_t.self)
        uv_timer_init(loop, handle)
        register(handle)
        timerActions[UnsafeMutableRawPointer(handle)] = action
        let ms = UInt64(max(1, (seconds * 1000).rounded()))
        uv_timer_start(handle, { handle in
            let viewer = Unmanaged<TerminalViewer>.fromOpaque(handle!.pointee.data).takeUnretainedValue()
            guard viewer.exitReason == nil else { return }
            viewer.timerActions[UnsafeMutableRawPointer(handle!)]?(viewer)
        }, ms, ms)
    }

    func allocateHandle<T>(_ type: uv_handle_type, as: T.Type) -> UnsafeMutablePointer<T> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: uv_handle_size(type), alignment: 16)
        return raw.bindMemory(to: T.self, capacity: 1)
    }

    /// Every handle's `data` is this viewer, which outlives them: `run` closes them all before
    /// it returns.
    func register<T>(_ handle: UnsafeMutablePointer<T>) {
        let generic = UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)
        generic.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        handles.append(generic)
    }

    /// Stops the viewer: the terminal is given back at once (a signal may be followed by worse),
    /// then the loop winds down.
    func finish(_ reason: Exit) {
        guard exitReason == nil else { return }
        exitReason = reason
        restoreTerminal()
        for handle in handles where uv_is_closing(handle) == 0 { uv_close(handle, nil) }
        if !connection.isClosed { connection.close(reason: "viewer stopped") }
        uv_stop(loop)
    }

    /// Closes every handle, lets their callbacks run, frees them and closes the loop.
    func closeEverything() {
        guard !loopClosed else { return }
        loopClosed = true
        for handle in handles where uv_is_closing(handle) == 0 { uv_close(handle, nil) }
        if !connection.isClosed { connection.close(reason: "viewer stopped") }
        uv_run(loop, UV_RUN_DEFAULT)
        for handle in handles { UnsafeMutableRawPointer(handle).deallocate() }
        handles.removeAll()
        uv_loop_close(loop)
    }

    static func now() -> Double { Double(uv_hrtime()) / 1e9 }
}
