import ArgumentParser
import Foundation
import TrellisClient
import TrellisCore

/// How long a drag whose connection broke looks for the server again to cancel its pan: long
/// enough for a supervisor to restart trellisd on a loaded machine (which restores the session
/// mid-pan from its journal; 3 s proved too short under CI's parallel tests), short enough that
/// a server gone for good costs little next to the 30 s call timeout.
let reconnectWindow = 10.0

extension SessionArguments {
    /// Sends a scripted pan to the session on its own clock (advanced on a manual clock, waited
    /// for on a live one) and prints the scroll state the last sample answers. A pan it began
    /// and could not end (a refused sample, a broken connection, SIGINT or SIGTERM) is
    /// cancelled before it exits.
    func perform(_ gesture: PanGesture) throws {
        try withServer(global, session: name) { c in
            let manual = try c.call("session.info", ["session": .string(name)])["clock"]?.stringValue == "manual"
            let start = ContinuousClock.now
            // Waits are measured from the first sample, so the calls' own time does not add up.
            let wait: (Double) -> Void = { ms in
                let left = ContinuousClock.now.duration(to: start + .microseconds(Int64(ms * 1000)))
                if left > .zero {
                    Thread.sleep(forTimeInterval: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
                }
            }
            var sender = PanSender(caller: c.caller, session: name, wait: manual ? nil : wait)
            sender.interruption = { InterruptSignals.pending }
            // Only a connection of this invocation's own is made again (a script run's is the run's).
            if c.connection != nil { sender.reconnect = { reconnect(global) } }
            do throws(PanSender.Failure) {
                let result = try InterruptSignals.catching { () throws(PanSender.Failure) in try sender.send(gesture) }
                c.emit(result, Human.scrollState)
            } catch {
                throw report(error, session: name, json: global.json)
            }
        }
    }
}

/// A new connection to the server on `global`'s socket within the reconnect window, without
/// starting one (a server started afresh would not hold the pan).
private func reconnect(_ global: GlobalOptions) -> RPCClient? {
    var launcher = ServerLauncher(socketPath: global.socketPath)
    launcher.callTimeout = global.timeout
    let deadline = ContinuousClock.now + .milliseconds(Int64(reconnectWindow * 1000))
    while ContinuousClock.now < deadline {
        if let client = try? launcher.connect(autoStart: false) { return client }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return nil
}

/// Prints why a pan stopped and how it was finished; returns the exit: the failure's own code
/// (as `report` gives it), or 128 + the signal.
private func report(_ failure: PanSender.Failure, session: String, json: Bool) -> ExitCode {
    let exit: ExitCode
    let ending: PanSender.Ending
    switch failure {
    case .failed(let error, let e):
        ScriptHost.current?.lastError = error
        exit = report(error, json: json, session: session)
        ending = e
    case .interrupted(let signal, let e):
        printError("trellis: interrupted by \(signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)")")
        exit = ExitCode(128 + signal)
        ending = e
    }
    switch ending {
    case .notBegun, .alreadyOver:
        break
    case .cancelled:
        printError("trellis: the pan was cancelled")
    case .cancelledAfterReconnecting:
        printError("trellis: reconnected and cancelled the pan")
    case .notCancelled(let error):
        printError("trellis: the pan could not be cancelled (\(error)); session '\(session)' may be left dragging until a pan ends there")
    }
    return exit
}
