#if canImport(Glibc)
import Glibc
#endif
import TrellisCore
import TrellisProtocol

/// A finger in the demo: a `PanGesture`'s samples (one a frame at 60 Hz, as `trellis drag`
/// sends them) as timed `gesture.pan` requests of a step.
enum DemoPan {
    /// The samples of `gesture` from `start` (ms), the release `hold` ms after the last move
    /// (a finger that stops before it lifts: the springy layout's springs settle meanwhile).
    static func actions(_ gesture: PanGesture, session: String, at start: Double, hold: Double = 0) -> [DemoStep.Action] {
        var time = start
        var result: [DemoStep.Action] = []
        for sample in gesture {
            time += sample.delay
            var params = sample.params
            params["session"] = .string(session)
            let at = sample.phase == "ended" ? time + hold : time
            result.append(DemoStep.Action(at: at, DemoRequest("gesture.pan", params)))
        }
        return result
    }

    /// How long `gesture` takes from its began to its ended, ms (without a hold).
    static func duration(_ gesture: PanGesture) -> Double { Double(gesture.frames) * PanGesture.frame }

    /// The release velocity that carries released content `distance` points on UIKit's
    /// normal deceleration (0.998 of the velocity kept per ms: a fling travels v / (−1000 ln 0.998)).
    static func flingVelocity(for distance: Double) -> Double { distance * -1000 * log(0.998) }
}
