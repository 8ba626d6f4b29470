import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// The demo without a terminal (piped, CI): a manual clock, so the text is the same on every
/// run. Each step's caption is a heading; its requests go out at their times on the session's
/// clock (advanced in between), and the scene is printed at each of the step's shots, drawn as
/// the terminal viewer draws it. A refused request stops the run (exit 65): the steps are the
/// session's only writer here, so a refusal is the demo's bug.
struct DemoTextRun {
    let global: GlobalOptions
    let choreography: DemoChoreography
    let columns: Int
    let rows: Int

    func run(steps: Int) throws {
        let environment = ProcessInfo.processInfo.environment
        let rasterizer = SceneRasterizer(colorDepth: .none, unicode: BoxGlyphs.terminalSpeaksUTF8(environment))
        try withServer(global) { c in
            var choreography = self.choreography
            try replaceSession(c, choreography.createParams(clock: "manual"))
            let name = JSONValue.string(choreography.session)
            func show(_ title: String) throws {
                try showScene(c, name, rasterizer, "── \(title)")
            }
            let size = "\(JSONNumberText.format(choreography.bounds.width))×\(JSONNumberText.format(choreography.bounds.height))"
            try show("demo: \(choreography.itemCount) items in a flow layout of \(size) points")
            for n in 0..<steps {
                let step = choreography.next()
                print("══ step \(n + 1)/\(steps) · \(step.caption)")
                var kept: [String: JSONValue] = [:]
                var elapsed = 0.0
                func advance(to t: Double) throws {
                    guard t > elapsed else { return }
                    _ = try c.call("clock.advance", ["session": name, "ms": .number(t - elapsed)])
                    elapsed = t
                }
                var actions = step.actions[...], shots = step.shots[...]
                // Requests and shots in time order; a shot at the time of a request shows its effect.
                while let next = [actions.first?.at, shots.first?.at].compactMap({ $0 }).min() {
                    try advance(to: next)
                    if let action = actions.first, action.at <= next {
                        actions.removeFirst()
                        guard let params = action.request.resolved(kept) else { continue }
                        let reply = try c.call(action.request.method, params)
                        if let (name, id) = action.request.keeping(reply) { kept[name] = id }
                    } else if let shot = shots.popFirst() {
                        try show(shot.label)
                    }
                }
                try advance(to: step.duration)
            }
        }
    }

    /// The session's scene now, with a title line and the reuse counters.
    private func showScene(_ c: ClientContext, _ session: JSONValue, _ rasterizer: SceneRasterizer, _ title: String) throws {
        let scene = try WireScene.scene(try c.call("query.scene", ["session": session]))
        let stats = try c.call("stats", ["session": session])
        var created = 0, reused = 0
        if case .object(let pools)? = stats["pool"] {
            for (_, pool) in pools {
                created += Int(pool["created"]?.numberValue ?? 0)
                reused += Int(pool["reused"]?.numberValue ?? 0)
            }
        }
        print("\(title) — t=\(JSONNumberText.format((scene.time * 1000).rounded()))ms views=\(scene.views.count) created=\(created) reused=\(reused)")
        var canvas = TerminalCanvas(columns: columns, rows: rows)
        let mapping = ViewportMapping(visible: Rect(origin: scene.contentOffset, size: scene.boundsSize), columns: columns, rows: rows)
        rasterizer.draw(scene, mapping: mapping, into: &canvas)
        let edge = rasterizer.unicode ? "│" : "|"
        for line in canvas.lines {
            print(edge + line + String(repeating: " ", count: max(0, columns - line.unicodeScalars.count)) + edge)
        }
    }
}
