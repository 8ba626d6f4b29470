import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore
import TrellisProtocol

/// `trellis demo --headless`: the demo's steps on a live clock with no viewer of its own, for
/// viewers elsewhere (tools/web's page). It attaches to the session it made, to hear what
/// others do: when someone else drives it (a page with --control dragging, tapping, using the
/// toolbar), the step in progress is cut short (its bodies and behaviours taken back, its finger
/// lifted) and the demo waits until `quiet` ms pass without them, then counts the session
/// again and goes on with the next step. It stops after --steps steps, on SIGINT or SIGTERM, or
/// when the process that started it is gone (tools/web execs trellis-web in its place, so the
/// demo ends with the page's server).
struct DemoHeadless {
    let global: GlobalOptions
    let choreography: DemoChoreography
    let limit: Int?
    let hold: Double
    /// How long others' quiet must last before the demo goes on, ms.
    let quiet: Double

    func run() throws {
        let parent = getppid()
        try withServer(global) { c in
            guard let client = c.connection else {
                throw usageError("demo --headless needs a server connection of its own (not inside trellis run)")
            }
            let session = choreography.session
            let name = JSONValue.string(session)
            try replaceSession(c, choreography.createParams(clock: "live"))
            _ = try c.call("session.attach", ["session": name])
            let size = "\(JSONNumberText.format(choreography.bounds.width))x\(JSONNumberText.format(choreography.bounds.height))"
            // The one line on stdout: a script waits for it before it shows the session.
            print("demo: session '\(session)' made (\(size), live clock); driving it")
            fflush(nil)

            var player = DemoPlayer(choreography, limit: limit, hold: hold)
            var takeover = DemoTakeover()
            var pausedUntil: Double?

            /// The reply, or nil when the server refused the request (someone else changed the
            /// session under the step); a lost connection ends the demo.
            func send(_ method: String, _ params: [String: JSONValue]) throws(ClientError) -> JSONValue? {
                do {
                    let reply = try client.call(method, params)
                    takeover.sent(method, params, reply: reply)
                    return reply
                } catch {
                    guard case .server(_, let message, _, _) = error else { throw error }
                    printError("demo: \(method) refused: \(message)")
                    return nil
                }
            }
            func resynchronize() throws(ClientError) {
                if let info = try send("session.info", ["session": name]), let items = info["items"]?.numberValue {
                    player.resynchronize(itemCount: Int(items), layout: info["layout"]?.stringValue)
                }
            }

            while getppid() == parent {
                let now = demoClock()
                if let until = pausedUntil, now >= until {
                    pausedUntil = nil
                    try resynchronize()
                    printError("demo: resuming")
                }
                if pausedUntil == nil {
                    let due = player.due(at: now)
                    if due.finished { break }
                    if let caption = due.caption { printError("demo: \(caption)") }
                    for (request, params) in due.requests {
                        if let reply = try send(request.method, params) {
                            player.keep(request, reply: reply)
                        } else {
                            try resynchronize()
                        }
                    }
                }
                // Until the next frame, hearing what the session's viewers hear.
                var wait = 1.0 / 60
                while let notification = try client.nextNotification(timeout: wait) {
                    wait = 0
                    if notification["method"]?.stringValue == "session.closed" {
                        printError("demo: session '\(session)' closed (\(notification["params"]?["reason"]?.stringValue ?? "closed")); stopping")
                        return
                    }
                    guard takeover.isSomeoneElse(notification) else { continue }
                    if pausedUntil == nil {
                        printError("demo: someone else is driving '\(session)': paused until they leave it alone for \(JSONNumberText.format(quiet / 1000)) s")
                        if let lift = takeover.liftFinger(session: session) { _ = try send("gesture.pan", lift) }
                        for (request, params) in player.abandon() { _ = try? client.call(request.method, params) }
                    }
                    pausedUntil = demoClock() + quiet
                }
            }
            if let lift = takeover.liftFinger(session: session) { _ = try send("gesture.pan", lift) }
        }
    }
}
