#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol

/// The session side: attaching, the frames and events it sends, resynchronising after a gap, the stats shown in the status line.
extension TerminalViewer {
    func attach() {
        awaitingKeyframe = true
        var params: [String: JSONValue] = ["session": .string(configuration.session)]
        if configuration.readOnly { params["readOnly"] = .bool(true) }
        // Toggling the debug layer attaches again: the keyframe then holds it, or not.
        let debug = showsDebug
        if debug { params["debug"] = .bool(true) }
        connection.call("session.attach", params) { [unowned self] result in
            switch result {
            case .failure(let error): self.finish(.failed(error))
            case .success(let reply):
                guard let keyframe = reply["keyframe"], let scene = try? WireScene.scene(keyframe),
                      let seq = reply["seq"]?.numberValue else {
                    self.finish(.failed(.badReply("session.attach: \(JSONWriter.string(reply).prefix(200))")))
                    return
                }
                let firstTime = self.mirror == nil
                self.mirror = ViewerMirror(keyframe: scene, seq: Int(seq))
                self.debugLayer = DebugLayerState(debug ? (try? WireDebug.layer(reply["debug"] ?? .null)) ?? [] : [])
                self.awaitingKeyframe = false
                self.scrollTarget = nil
                self.statsWanted = true
                if firstTime {
                    self.takeTerminal()
                    for (seconds, action) in self.timers { self.startTimer(seconds, action) }
                }
                self.sceneChanged = true
                self.requestStats()
            }
        }
    }

    func handleNotification(_ message: JSONValue) {
        let params = message["params"] ?? .null
        guard params["session"]?.stringValue == configuration.session else { return }
        switch message["method"]?.stringValue {
        case "frame":
            // Frames between a re-attach and its reply are deltas against the old state: the
            // keyframe replaces them.
            guard !awaitingKeyframe, var held = mirror, let seq = params["seq"]?.numberValue else { return }
            let delta: SceneDelta, debugDelta: DebugLayerDelta?
            do {
                delta = try WireScene.delta(params)
                debugDelta = try WireDebug.delta(params)
            } catch {
                resynchronize("a frame that does not parse")
                return
            }
            // A frame that changes only the debug layer repeats the seq of the views' frame.
            if let debugDelta, showsDebug, Int(seq) == held.seq, delta.isEmpty {
                debugLayer.apply(debugDelta)
                sceneChanged = true
                return
            }
            switch held.apply(delta, seq: Int(seq)) {
            case .applied:
                mirror = held
                if let debugDelta, showsDebug { debugLayer.apply(debugDelta) }
                meter.record(at: Self.now())
                sceneChanged = true
                if !(delta.created.isEmpty && delta.bound.isEmpty && delta.unbound.isEmpty && delta.destroyed.isEmpty) {
                    statsWanted = true
                }
                if let target = scrollTarget, delta.contentOffset == target { scrollTarget = nil }
            case .stale:
                break
            case .needsKeyframe(let reason):
                resynchronize(reason)
            }
        case "session.closed":
            finish(.sessionClosed(reason: params["reason"]?.stringValue ?? "closed"))
        default:
            break   // events the viewer does not show (update.completed, selection.changed, …)
        }
    }

    /// Asks for the whole state again: attaching anew resets what the server holds for this
    /// viewer to the keyframe it sends, so the deltas that follow fit again.
    func resynchronize(_ reason: String) {
        status.note = "resynchronised (\(reason))"
        attach()
    }

    func requestStats() {
        guard !statsInFlight else { return }
        statsInFlight = true
        statsWanted = false
        connection.call("stats", ["session": .string(configuration.session)]) { [unowned self] result in
            self.statsInFlight = false
            if case .success(let stats) = result, case .object(let pools)? = stats["pool"] {
                var pooled = 0, created = 0, reused = 0
                for (_, pool) in pools {
                    pooled += Int(pool["pooled"]?.numberValue ?? 0)
                    created += Int(pool["created"]?.numberValue ?? 0)
                    reused += Int(pool["reused"]?.numberValue ?? 0)
                }
                (self.status.pooled, self.status.created, self.status.reused) = (pooled, created, reused)
            }
            if !self.ready {
                self.ready = true
                self.render(countsAsFrame: true)
            } else if case .terminal = self.configuration.output {
                self.render(countsAsFrame: false)
            }
        }
    }

    func statusTick() {
        guard ready else { return }
        if statsWanted { requestStats() }
        // Redrawn only when the rate shown changes: an idle viewer costs nothing.
        if case .terminal = configuration.output, meter.rate(now: Self.now()) != status.framesPerSecond {
            render(countsAsFrame: false)
        }
    }
}
