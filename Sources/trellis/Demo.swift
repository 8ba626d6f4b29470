import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis demo`: the README's run command. Starts (or reuses) the server, replaces the
/// session `demo` and walks it through the five systems (`DemoChoreography`): in the terminal
/// viewer with a caption line per step, as text on a manual clock when stdout is not a
/// terminal, or with no viewer at all (`--headless`, for a browser watching through `trellis web`).
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the server and watch a demo session walk through batch updates, scroll physics, the springy flow, UIKit Dynamics and the layouts.",
        discussion: """
            Creates (or replaces) the session 'demo' on the server (started in the background \
            when none runs) and plays a cycle of \(DemoChoreography.cycleLength) steps on it, each named by a \
            caption: batch updates with initial and final attributes, a fling that decelerates and \
            bounces, the springy flow under a dragging finger, a card dropped with a thud and a \
            pile (UIKit Dynamics), then the layouts: circle, line, cover flow, stack, a rotary \
            carousel, the task switcher. On a terminal the viewer draws it (as `trellis attach \
            demo`) until q, the caption on its top line; the session stays, so `trellis attach \
            demo` from another terminal watches it too. When stdout is not a terminal, the session \
            gets a manual clock and --steps steps (default: one cycle) are printed as text, each \
            step's caption as a heading and its scene at the moments that show it. --headless \
            drives the session on a live clock with no viewer (tools/web runs it for the browser): \
            it prints one line once the session is made, each caption on stderr, pauses while \
            someone else drives the session (until they leave it alone for --pause seconds) and \
            stops when its parent process does.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Steps to run (default: until stopped on a terminal or --headless, one cycle of \(DemoChoreography.cycleLength) otherwise).", valueName: "N"))
    var steps: Int?
    @Option(help: ArgumentHelp("Seconds each step's end stays before the next, on a live clock.", valueName: "seconds"))
    var interval = 1.0
    @Option(help: "Items to start with.") var items = 24
    @Option(help: "Characters across, for text output.") var columns = 80
    @Option(help: "Lines down for the scene, for text output.") var rows = 22
    @Flag(help: "Drive the session on a live clock without a viewer (for a browser: tools/web).") var headless = false
    @Option(help: ArgumentHelp("The session's bounds with --headless.", valueName: "WxH")) var bounds = "480x640"
    @Option(help: ArgumentHelp("With --headless: seconds others must leave the session alone before the demo goes on.", valueName: "seconds"))
    var pause = 8.0

    func validate() throws {
        if let steps, steps < 0 { throw ValidationError("--steps takes a number of 0 or more") }
        guard interval >= 0, interval <= 60 else { throw ValidationError("--interval takes 0 to 60 seconds") }
        guard pause >= 0, pause <= 3600 else { throw ValidationError("--pause takes 0 to 3600 seconds") }
        guard (1...200).contains(items) else { throw ValidationError("--items takes 1 to 200") }
        guard (20...1000).contains(columns), (6...1000).contains(rows) else { throw ValidationError("--columns takes 20 to 1000, --rows 6 to 1000") }
    }

    func run() throws {
        if headless {
            let size = try parsing { () throws(SyntaxError) in try CommandSyntax.size(bounds) }
            try DemoHeadless(global: global, choreography: DemoChoreography(items: items, bounds: size),
                             limit: steps, hold: interval * 1000, quiet: pause * 1000).run()
        } else if let size = TerminalViewer.terminalSize() {
            try runLive(columns: size.columns, rows: size.rows)
        } else {
            // The scene at the viewer's scale: 6 points a column, 12 a row.
            let choreography = DemoChoreography(items: items, bounds: Size(Double(columns) * 6, Double(rows) * 12))
            try DemoTextRun(global: global, choreography: choreography, columns: columns, rows: rows)
                .run(steps: steps ?? DemoChoreography.cycleLength)
        }
    }

    /// The session sized to the terminal below the caption and above the status line (6
    /// points a column and 12 a row, the viewer's cell aspect), a live clock, the viewer
    /// attached, the steps played on its loop.
    private func runLive(columns: Int, rows: Int) throws {
        let bounds = Size(Double(max(20, columns)) * 6, Double(max(6, rows - 2)) * 12)
        let driver = DemoTerminalDriver(DemoPlayer(DemoChoreography(items: items, bounds: bounds), limit: steps, hold: interval * 1000))
        try withServer(global) { c in try replaceSession(c, driver.player.choreography.createParams(clock: "live")) }
        var configuration = TerminalViewer.Configuration(socketPath: global.socketPath, session: driver.player.choreography.session)
        configuration.environment = ProcessInfo.processInfo.environment
        try runViewer(configuration) { viewer in
            // Once a frame: gestures send a sample each.
            viewer.repeatEvery(1.0 / 60) { driver.tick($0) }
        }
    }
}

/// Milliseconds on a monotonic clock: the live demo's timeline.
func demoClock() -> Double { ProcessInfo.processInfo.systemUptime * 1000 }
