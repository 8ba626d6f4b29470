#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol
import TrellisTransport

/// The terminal device: taken in raw mode on the alternate screen, its size, written to, and given back as it was found.
extension TerminalViewer {
    func openTerminal() {
        if isatty(1) == 1, let tty = try? TTY(loop: loop, fileDescriptor: 1, readable: false) {
            // Output is written synchronously: a slow terminal then slows our reading of the
            // socket, and the server skips frames for us instead of queueing them.
            tty.setBlocking(true)
            stdoutTTY = tty
            readWindowSize()
        }
        if isatty(0) == 1, let tty = try? TTY(loop: loop, fileDescriptor: 0, readable: true) {
            stdinTTY = tty
        }
    }

    /// Raw keys and the alternate screen, once the session is attached (an attach that fails
    /// leaves the terminal untouched and its message readable).
    func takeTerminal() {
        guard case .terminal = configuration.output, !terminalTaken else { return }
        terminalTaken = true
        if let tty = stdinTTY {
            tty.setRawMode()
            tty.onInput = { [unowned self] keys in self.handleKeys(keys) }
            // The terminal went away: nothing left to draw on.
            tty.onEnd = { [unowned self] in self.finish(.quit) }
            tty.startReading()
        }
        writeOut(TerminalScreen.enter)
    }

    func readWindowSize() {
        if let size = stdoutTTY?.windowSize, size.columns > 0, size.rows > 1 {
            self.size = size
        }
    }

    func restoreTerminal() {
        guard terminalTaken else { return }
        terminalTaken = false
        writeOut(TerminalScreen.leave)
        TTY.resetMode()
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
