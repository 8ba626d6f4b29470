import TrellisCore
import TrellisProtocol

/// Sends a pan's samples to a session one at a time, and finishes whatever pan it began: when
/// a later sample is refused or its connection breaks, or a signal asks it to stop, it sends
/// `gesture.pan` `cancelled` (UIKit's cancelled phase: the offset is released without
/// velocity), on a new connection when the old one broke. A session is never left dragging
/// with no finger that will lift, which `dragging`/`tracking` would report for ever.
public struct PanSender {
    /// What became of a pan whose samples did not all go through.
    public enum Ending: Sendable {
        /// No `began` was sent, or the server refused it: nothing to finish.
        case notBegun
        /// `cancelled` was accepted on the connection the samples went over.
        case cancelled
        /// The server had no pan of this session to cancel any more: it ended the pan itself
        /// (scrolling turned off, an interactive transition began, another client's `ended`)
        /// or the session is gone.
        case alreadyOver
        /// The connection broke; `cancelled` was accepted on a new one.
        case cancelledAfterReconnecting
        /// `cancelled` failed too (refused, or no connection could be had): the session may be
        /// left dragging.
        case notCancelled(ClientError)
    }

    /// Why the samples stopped, and how the pan was finished.
    public enum Failure: Error {
        /// A sample (or a clock step between two) failed with `error`.
        case failed(ClientError, Ending)
        /// Signal `signal` arrived between two samples.
        case interrupted(signal: Int32, Ending)
    }

    public var caller: any MethodCaller
    public let session: String
    /// How the session's clock moves between samples: nil for a manual clock (`clock.advance`
    /// by each sample's delay), else a wait that returns once that many milliseconds of real
    /// time have passed since the first sample (a live clock).
    public var wait: ((Double) -> Void)?
    /// Asked before each sample: a signal that came in and asks to stop, or nil.
    public var interruption: () -> Int32? = { nil }
    /// A new connection to the same server once the old one broke, or nil when none answers
    /// (the caller bounds how long it tries).
    public var reconnect: () -> (any MethodCaller)? = { nil }

    public init(caller: any MethodCaller, session: String, wait: ((Double) -> Void)? = nil) {
        self.caller = caller
        self.session = session
        self.wait = wait
    }

    /// Sends the samples (a `PanGesture`'s) in order, each taken from the sequence when its
    /// turn comes, and returns the last reply (the scroll state).
    public func send(_ samples: some Sequence<PanGesture.Sample>) throws(Failure) -> JSONValue {
        var elapsed = 0.0
        var last: JSONValue = .null
        // Whether the server may hold a pan of ours: set once a began went out unless the
        // server refused it (a refused request changes nothing).
        var begun = false
        // The translation the server last accepted: a cancel leaves the finger there.
        var accepted = Point(0, 0)
        for sample in samples {
            elapsed += sample.delay
            if sample.delay > 0, let wait { wait(elapsed) }
            if let signal = interruption() { throw .interrupted(signal: signal, finish(begun, at: accepted)) }
            do throws(ClientError) {
                if sample.delay > 0, wait == nil {
                    _ = try caller.call("clock.advance", ["session": .string(session), "ms": .number(sample.delay)])
                }
                var params = sample.params
                params["session"] = .string(session)
                if sample.phase == "began" { begun = true }
                last = try caller.call("gesture.pan", params)
                accepted = sample.translation
            } catch {
                if sample.phase == "began", !Self.mayHaveReachedTheServer(error) { begun = false }
                throw .failed(error, finish(begun, at: accepted))
            }
        }
        return last
    }

    /// Cancels the pan when one may be in progress: on the same connection, then, when that one
    /// is lost, on a new one.
    private func finish(_ begun: Bool, at translation: Point) -> Ending {
        guard begun else { return .notBegun }
        let params: [String: JSONValue] = ["session": .string(session), "phase": .string("cancelled"),
                                           "translation": PanGesture.Sample.wire(translation)]
        do throws(ClientError) {
            _ = try caller.call("gesture.pan", params)
            return .cancelled
        } catch where Self.connectionLost(error) {
            guard let fresh = reconnect() else { return .notCancelled(error) }
            do throws(ClientError) {
                _ = try fresh.call("gesture.pan", params)
                return .cancelledAfterReconnecting
            } catch {
                return Self.noPanLeft(error) ? .alreadyOver : .notCancelled(error)
            }
        } catch {
            return Self.noPanLeft(error) ? .alreadyOver : .notCancelled(error)
        }
    }

    /// Whether a failed request may have been carried out: a refusal changes nothing and an
    /// unsendable request was never sent, but a reply lost to a broken connection or a timeout
    /// may follow a change the server made.
    static func mayHaveReachedTheServer(_ error: ClientError) -> Bool {
        switch error {
        case .server, .unsendable: return false
        case .connect, .disconnected, .timeout, .launch, .badReply: return true
        }
    }

    /// The server refused the cancel because no pan of the session is in progress: every
    /// `invalid_state` of a `cancelled` means that (a pan cannot outlive `scrollEnabled` or the
    /// start of an interactive transition), and a session that is gone holds none.
    static func noPanLeft(_ error: ClientError) -> Bool {
        switch error {
        case .server(_, _, "invalid_state", _), .server(_, _, "unknown_session", _): return true
        default: return false
        }
    }

    /// The connection can carry no more requests: it broke, or the server is stopping (a
    /// restarted server restores the session mid-pan from its journal, so it is worth
    /// reaching).
    static func connectionLost(_ error: ClientError) -> Bool {
        switch error {
        case .disconnected: return true
        case .server(_, _, "shutting_down", _): return true
        default: return false
        }
    }
}
