import TrellisCore
import TrellisProtocol

/// The choreography on a live clock: which requests are due at a time, when a step starts
/// (its caption), and when the steps asked for are done. The caller owns the clock and the
/// connection: it calls `due(at:)` often (every frame), sends what is due in order, and hands
/// back each reply to `keep`, so later requests can name the behaviours earlier ones added.
public struct DemoPlayer: Sendable {
    /// What to do now.
    public struct Due: Sendable {
        /// A step started: its caption line.
        public var caption: String?
        /// Requests to send, in order, their params resolved.
        public var requests: [(request: DemoRequest, params: [String: JSONValue])] = []
        /// The steps asked for are done: stop.
        public var finished = false
    }

    public private(set) var choreography: DemoChoreography
    /// Steps to play; nil: until stopped.
    public let limit: Int?
    /// Milliseconds a step's end stays on screen before the next starts.
    public let hold: Double
    public private(set) var step: DemoStep?
    public private(set) var stepsStarted = 0
    private var stepStart = 0.0
    private var nextAction = 0
    private var kept: [String: JSONValue] = [:]

    public init(_ choreography: DemoChoreography, limit: Int?, hold: Double) {
        self.choreography = choreography
        self.limit = limit
        self.hold = hold
    }

    /// The caption of the step numbered `n` (from 1), with its place in the cycle.
    public static func caption(_ step: DemoStep, number n: Int) -> String {
        let cycle = DemoChoreography.cycleLength
        return "\((n - 1) % cycle + 1)/\(cycle) \(step.caption)"
    }

    /// What is due at `now` (ms on any monotonic clock that the caller keeps using).
    public mutating func due(at now: Double) -> Due {
        var result = Due()
        let running = step.map { now < stepStart + $0.duration + hold } ?? false
        if !running {
            if let limit, stepsStarted >= limit {
                step = nil
                result.finished = true
                return result
            }
            let next = choreography.next()
            step = next
            stepsStarted += 1
            stepStart = now
            nextAction = 0
            kept = [:]
            result.caption = Self.caption(next, number: stepsStarted)
        }
        guard let current = step else { return result }
        while nextAction < current.actions.count, current.actions[nextAction].at <= now - stepStart {
            let request = current.actions[nextAction].request
            nextAction += 1
            // A stand-in whose behaviour was refused: the request is skipped.
            if let params = request.resolved(kept) { result.requests.append((request, params)) }
        }
        return result
    }

    /// A reply to one of the requests `due` gave: what it keeps is kept for the step's later ones.
    public mutating func keep(_ request: DemoRequest, reply: JSONValue) {
        if let (name, id) = request.keeping(reply) { kept[name] = id }
    }

    /// Cuts the step short (someone else took over): the requests that take back what it
    /// added, resolved; the next `due` starts the next step.
    public mutating func abandon() -> [(request: DemoRequest, params: [String: JSONValue])] {
        guard let current = step else { return [] }
        step = nil
        let requests = current.cleanup.compactMap { request in request.resolved(kept).map { (request, $0) } }
        kept = [:]
        return requests
    }

    /// The server's figures, after someone else changed the session.
    public mutating func resynchronize(itemCount: Int, layout: String?) {
        choreography.resynchronize(itemCount: itemCount, layout: layout)
    }
}
