import Foundation
import TrellisClient
import TrellisCore

extension SessionArguments {
    /// Sends a scripted pan to the session on its own clock (advanced on a manual clock, waited
    /// for on a live one) and prints the scroll state the last sample answers.
    func perform(_ gesture: PanGesture) throws {
        try withServer(global) { c in
            let manual = try c.call("session.info", ["session": .string(name)])["clock"]?.stringValue == "manual"
            let start = ContinuousClock.now
            // Waits are measured from the first sample, so the calls' own time does not add up.
            let wait: (Double) -> Void = { ms in
                let left = ContinuousClock.now.duration(to: start + .microseconds(Int64(ms * 1000)))
                if left > .zero {
                    Thread.sleep(forTimeInterval: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
                }
            }
            c.emit(try PanSender(caller: c.caller, session: name, wait: manual ? nil : wait).send(gesture), Human.scrollState)
        }
    }
}
