#if canImport(Glibc)
import Glibc
#endif
import CLibUV
import TrellisCore
import TrellisProtocol

/// The terminal device: taken in raw mode on the alternate screen, its size, written to, and given back as it was found.
extension TerminalViewer {
    func openTerminal() {
        if isatty(1) == 1 {
            let tty = allocateHandle(UV_TTY, as: uv_tty_t.self)
            if uv_tty_init(loop, tty, 1, 0) == 0 {
                // Output is written synchronously: a slow terminal then slows our reading of the
                // socket, and the server skips frames for us instead of queueing them.
                uv_stream_set_blocking(UnsafeMutableRawPointer(tty).assumingMemoryBound(to: uv_stream_t.self), 1)
                stdoutTTY = tty
                register(tty)
                readWindowSize()
            } else {
                UnsafeMutableRawPointer(tty).deallocate()
            }
        }
        if isatty(0) == 1 {
            let tty = allocateHandle(UV_TTY, as: uv_tty_t.self)
            if uv_tty_init(loop, tty, 0, 1) == 0 {
                stdinTTY = tty
                register(tty)
            } else {
                UnsafeMutableRawPointer(tty).deallocate()
            }
        }
    }

    /// Raw keys and the alternate screen, once the session is attached (an attach that fails
    /// leaves the terminal untouched and its message readable).
    func takeTerminal() {
        guard case .terminal = configuration.output, !terminalTaken else { return }
        terminalTaken = true
        if let tty = stdinTTY {
            uv_tty_set_mode(tty, UV_TTY_MODE_RAW)
            uv_read_start(UnsafeMutableRawPointer(tty).assumingMemoryBound(to: uv_stream_t.self), { _, suggested, buf in
                let size = min(suggested, 4096)
                buf!.pointee = uv_buf_init(UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1).assumingMemoryBound(to: CChar.self), UInt32(size))
            }, { stream, nread, buf in
                defer { if let base = buf?.pointee.base { UnsafeMutableRawPointer(base).deallocate() } }
                let viewer = Unmanaged<TerminalViewer>.fromOpaque(stream!.pointee.data).takeUnretainedValue()
                if nread > 0, let base = buf?.pointee.base {
                    viewer.handleKeys(Array(UnsafeRawBufferPointer(start: base, count: nread)))
                } else if nread < 0 {
                    // The terminal went away: nothing left to draw on.
                    viewer.finish(.quit)
                }
            })
        }
        writeOut(TerminalScreen.enter)
    }

    func readWindowSize() {
        guard let tty = stdoutTTY else { return }
        var width: Int32 = 0, height: Int32 = 0
        if uv_tty_get_winsize(tty, &width, &height) == 0, width > 0, height > 1 {
            size = (Int(width), Int(height))
        }
    }

    func restoreTerminal() {
        guard terminalTaken else { return }
        terminalTaken = false
        writeOut(TerminalScreen.leave)
        uv_tty_reset_mode()
    }

    /// Writes everything, waiting for the terminal when it pushes back.
    func writeOut(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n; continue }
            if n < 0 && (errno == EINTR) { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var descriptor = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 1000)
                continue
            }
            return   // stdout is gone; nothing to show anything on
        }
        bytes.removeAll()
    }
}
