import TrellisCore

/// Sends a pan's samples to a session one at a time, each taken from the gesture when its turn
/// comes: a drag of any length is never held in memory as a list.
public struct PanSender {
    public var caller: any MethodCaller
    public let session: String
    /// How the session's clock moves between samples: nil for a manual clock (`clock.advance`
    /// by each sample's delay), else a wait that returns once that many milliseconds of real
    /// time have passed since the first sample (a live clock).
    public var wait: ((Double) -> Void)?

    public init(caller: any MethodCaller, session: String, wait: ((Double) -> Void)? = nil) {
        self.caller = caller
        self.session = session
        self.wait = wait
    }

    /// Sends the samples (a `PanGesture`'s) in order, each taken from the sequence when its
    /// turn comes, and returns the last reply (the scroll state).
    public func send(_ samples: some Sequence<PanGesture.Sample>) throws(ClientError) -> JSONValue {
        var elapsed = 0.0
        var last: JSONValue = .null
        for sample in samples {
            elapsed += sample.delay
            if sample.delay > 0 {
                if let wait {
                    wait(elapsed)
                } else {
                    _ = try caller.call("clock.advance", ["session": .string(session), "ms": .number(sample.delay)])
                }
            }
            var params = sample.params
            params["session"] = .string(session)
            last = try caller.call("gesture.pan", params)
        }
        return last
    }
}
