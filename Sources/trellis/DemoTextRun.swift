import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisDynamics
import TrellisProtocol

/// The demo without a terminal (piped, CI): a manual clock, so the text is the same on every
/// run. Each step's caption is a heading; its requests go out at their times on the session's
/// clock (advanced in between), and the scene is printed at each of the step's shots, drawn as
/// the terminal viewer draws it, with the debug layer under the views in a step that shows it
/// (`DemoStep.debugLayer`), as the terminal viewer's `d` does. A refused request stops the run
/// (exit 65): the steps are the session's only writer here, so a refusal is the demo's bug.
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
            func show(_ title: String, debug: Bool = false) throws {
                try showScene(c, name, rasterizer, "── \(title)", debug: debug)
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
                        try show(shot.label, debug: step.debugLayer)
                    }
                }
                try advance(to: step.duration)
            }
        }
    }

    /// The session's scene now, with a title line and the reuse counters; with `debug`, the
    /// debug layer drawn under the views (and counted in the title line). The layer is the
    /// keyframe of a debug attach, detached again at once: the clock stands still in between,
    /// so no frame comes, and the server stops building the layer after the shot.
    private func showScene(_ c: ClientContext, _ session: JSONValue, _ rasterizer: SceneRasterizer, _ title: String,
                           debug: Bool = false) throws {
        let scene: Scene
        var shapes: [DebugShape] = []
        if debug {
            let attached = try c.call("session.attach", ["session": session, "debug": .bool(true)])
            _ = try c.call("session.detach", [:])
            scene = try WireScene.scene(attached["keyframe"] ?? .null)
            shapes = try WireDebug.layer(attached["debug"] ?? .null)
        } else {
            scene = try WireScene.scene(try c.call("query.scene", ["session": session]))
        }
        let stats = try c.call("stats", ["session": session])
        var created = 0, reused = 0
        if case .object(let pools)? = stats["pool"] {
            for (_, pool) in pools {
                created += Int(pool["created"]?.numberValue ?? 0)
                reused += Int(pool["reused"]?.numberValue ?? 0)
            }
        }
        let debugNote = debug ? " debug=\(shapes.count) shapes" : ""
        print("\(title) — t=\(JSONNumberText.format((scene.time * 1000).rounded()))ms views=\(scene.views.count) created=\(created) reused=\(reused)\(debugNote)")
        var canvas = TerminalCanvas(columns: columns, rows: rows)
        let mapping = ViewportMapping(visible: Rect(origin: scene.contentOffset, size: scene.boundsSize), columns: columns, rows: rows)
        // The debug layer first, dim (dimness does not show in plain text): the views over it.
        if debug {
            DebugLayerRasterizer(colorDepth: rasterizer.colorDepth, unicode: rasterizer.unicode)
                .draw(DebugLayerPlacement.inContent(shapes, scene: scene), mapping: mapping, into: &canvas)
        }
        rasterizer.draw(scene, mapping: mapping, into: &canvas)
        let edge = rasterizer.unicode ? "│" : "|"
        for line in canvas.lines {
            print(edge + line + String(repeating: " ", count: max(0, columns - line.unicodeScalars.count)) + edge)
        }
    }
}
