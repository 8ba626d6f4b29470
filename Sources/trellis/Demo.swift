import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis demo`: the README's run command. Starts (or reuses) the server, replaces the session
/// `demo` with generated items, and drives it with batch updates and animated flow ↔ circle
/// layout changes while the terminal viewer shows it; without a terminal it prints a fixed
/// number of steps as text and exits.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the server and watch a demo session: batch updates and layout transitions.",
        discussion: """
            Creates (or replaces) the session 'demo' on the server (started in the background \
            when none runs), then every --interval seconds inserts, deletes or moves items, or \
            animates the layout between flow and circle, while the terminal viewer draws it \
            (as `trellis attach demo`). q quits; the session stays, so `trellis attach demo` \
            from another terminal watches it too. When stdout is not a terminal, the session \
            gets a manual clock and --steps steps (default 6) are printed as text, each in the \
            middle of its animation and at its end.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Steps to run (default: until q on a terminal, 6 otherwise).", valueName: "N")) var steps: Int?
    @Option(help: ArgumentHelp("Seconds between steps on a terminal.", valueName: "seconds")) var interval = 1.5
    @Option(help: "Items to start with.") var items = 12
    @Option(help: "Characters across, for text output.") var columns = 60
    @Option(help: "Lines down, for text output.") var rows = 30

    func validate() throws {
        if let steps, steps < 0 { throw ValidationError("--steps takes a number of 0 or more") }
        guard interval >= 0.05 else { throw ValidationError("--interval takes at least 0.05 seconds") }
        guard (1...200).contains(items) else { throw ValidationError("--items takes 1 to 200") }
    }

    func run() throws {
        if let size = TerminalViewer.terminalSize() {
            try runLive(columns: size.columns, rows: size.rows)
        } else {
            try runAsText(steps: steps ?? 6)
        }
    }

    /// The session sized to the terminal (about 6 points per column and 12 per row, the
    /// viewer's cell aspect), a live clock, the viewer attached, steps on a timer.
    private func runLive(columns: Int, rows: Int) throws {
        let bounds = Size(Double(max(20, columns)) * 6, Double(max(6, rows - 1)) * 12)
        let driver = DemoDriver(DemoChoreography(items: items, bounds: bounds), limit: steps)
        try withServer(global) { c in try replaceSession(c, driver.choreography.createParams(clock: "live")) }
        var configuration = TerminalViewer.Configuration(socketPath: global.socketPath, session: driver.choreography.session)
        configuration.environment = ProcessInfo.processInfo.environment
        try runViewer(configuration) { viewer in
            viewer.repeatEvery(interval) { driver.step($0) }
        }
    }

    /// A manual clock, so the text is the same on every run: each step, then its animation in
    /// the middle and at its end.
    private func runAsText(steps: Int) throws {
        let renderer = TextRenderer(columns: columns, rows: rows)
        try withServer(global) { c in
            var choreography = DemoChoreography(items: items, bounds: Size(375, 600))
            try replaceSession(c, choreography.createParams(clock: "manual"))
            let name = JSONValue.string(choreography.session)
            try showScene(c, name, renderer, "demo: \(choreography.itemCount) items, flow layout")
            for n in 0..<steps {
                let step = choreography.next()
                _ = try c.call(step.method, step.params)
                for request in step.followUps { _ = try c.call(request.method, request.params) }
                _ = try c.call("clock.advance", ["session": name, "ms": .number(200)])
                try showScene(c, name, renderer, "step \(n + 1)/\(steps): \(step.title), animating")
                _ = try c.call("clock.advance", ["session": name, "ms": .number(800)])
                try showScene(c, name, renderer, "step \(n + 1)/\(steps): \(step.title), done")
            }
        }
    }

    /// The session's scene now, with a title line and the reuse counters.
    private func showScene(_ c: ClientContext, _ session: JSONValue, _ renderer: TextRenderer, _ title: String) throws {
        let scene = try WireScene.scene(try c.call("query.scene", ["session": session]))
        let stats = try c.call("stats", ["session": session])
        var created = 0, reused = 0
        if case .object(let pools)? = stats["pool"] {
            for (_, pool) in pools {
                created += Int(pool["created"]?.numberValue ?? 0)
                reused += Int(pool["reused"]?.numberValue ?? 0)
            }
        }
        print("── \(title) — t=\(JSONNumberText.format(scene.time * 1000))ms views=\(scene.views.count) created=\(created) reused=\(reused)")
        for line in renderer.render(scene) { print("│" + line + "│") }
    }
}

/// The demo's steps on the viewer's loop: one request per tick, the step shown in the status
/// line, and a count kept in step with the server when a step is refused.
private final class DemoDriver {
    var choreography: DemoChoreography
    let limit: Int?
    private var done = 0

    init(_ choreography: DemoChoreography, limit: Int?) {
        self.choreography = choreography
        self.limit = limit
    }

    func step(_ viewer: TerminalViewer) {
        if let limit, done >= limit {
            viewer.stop()
            return
        }
        done += 1
        let step = choreography.next()
        viewer.setNote(step.title)
        viewer.call(step.method, step.params) { [self] result in
            guard case .failure(let error) = result else { return }
            viewer.setNote("refused: \(error)")
            // Someone else changed the session: count its items again.
            viewer.call("session.info", ["session": .string(self.choreography.session)]) { [self] info in
                if case .success(let value) = info, let items = value["items"]?.numberValue {
                    self.choreography.resynchronize(itemCount: Int(items))
                }
            }
        }
        // Sent after the step's request, on the same connection: the server takes them in order.
        for request in step.followUps { viewer.call(request.method, request.params) { _ in } }
    }
}
