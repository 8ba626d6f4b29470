import Foundation
import Synchronization

/// One line of progress on stderr for long work (a reload of many items, a run of many scripts,
/// a recording), drawn in place ("\r", then erase to the end of the line). Only when stderr is a
/// terminal, and only once the work has taken half a second: pipes, logs, a script run's output
/// and quick commands never see it. Erased when the work ends (and before other output on the
/// same terminal), so what remains is what the command prints without it.
final class ProgressLine: Sendable {
    private struct State {
        var text = ""
        var shown = false
        var ticking: ContinuousClock.Instant?
    }

    let isEnabled: Bool
    private let state = Mutex(State())
    private let start = ContinuousClock.now
    /// Work quicker than this shows nothing: half a second, or `TRELLIS_PROGRESS_AFTER_MS`
    /// (0 to 60,000), which lets tests see the line without depending on how fast a machine is.
    static let delay: Duration = {
        guard let text = ProcessInfo.processInfo.environment["TRELLIS_PROGRESS_AFTER_MS"],
              let ms = Int(text), (0...60_000).contains(ms) else { return .milliseconds(500) }
        return .milliseconds(ms)
    }()

    init(enabled: Bool = isatty(2) == 1 && ScriptHost.current == nil) {
        isEnabled = enabled
    }

    /// Sets the text, drawn at once when the work has run long enough.
    func update(_ text: String) {
        guard isEnabled else { return }
        state.withLock { state in
            state.text = text
            if ContinuousClock.now - start >= Self.delay { draw(&state) }
        }
    }

    /// Erases the line; the next `update` draws it again.
    func clear() {
        guard isEnabled else { return }
        state.withLock { state in
            if state.shown { Self.write("\r\u{1B}[K") }
            state.shown = false
        }
    }

    /// Runs `body`, a long call that cannot report as it goes, while the line shows the time it
    /// has taken, a few times a second; erased after.
    func ticking<T>(_ body: () throws -> T) rethrows -> T {
        guard isEnabled else { return try body() }
        let began = ContinuousClock.now
        state.withLock { $0.ticking = began }
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.25)
                let going = state.withLock { state -> Bool in
                    guard state.ticking == began else { return false }
                    if ContinuousClock.now - start >= Self.delay { draw(&state) }
                    return true
                }
                if !going { return }
            }
        }
        thread.start()
        defer {
            state.withLock { $0.ticking = nil }
            clear()
        }
        return try body()
    }

    private func draw(_ state: inout State) {
        var text = state.text
        if let ticking = state.ticking {
            let seconds = ContinuousClock.now - ticking
            text += String(format: " %.1f s", Double(seconds.components.seconds) + Double(seconds.components.attoseconds) / 1e18)
        }
        // A line longer than the terminal would wrap, and "\r" goes back to its last row only.
        let width = Self.terminalWidth()
        if text.count >= width { text = String(text.prefix(max(0, width - 2))) + "…" }
        Self.write("\r\u{1B}[K" + text)
        state.shown = true
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
