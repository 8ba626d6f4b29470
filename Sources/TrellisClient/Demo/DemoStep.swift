/// One step of the demo: a caption, its requests on a timeline, the moments the piped run
/// prints, and how long its motion lasts. Times are milliseconds from the step's start, on
/// the session's clock (a live clock's real time, or a manual clock the piped run advances).
public struct DemoStep: Sendable {
    /// A request and when it is sent.
    public struct Action: Sendable {
        public var at: Double
        public var request: DemoRequest

        public init(at: Double, _ request: DemoRequest) {
            self.at = at
            self.request = request
        }
    }

    /// A moment worth printing (the piped run) and what it shows.
    public struct Shot: Hashable, Sendable {
        public var at: Double
        public var label: String

        public init(at: Double, _ label: String) {
            self.at = at
            self.label = label
        }
    }

    public var system: DemoSystem
    /// What the step shows, in a few words after the system's name.
    public var summary: String
    /// In time order.
    public var actions: [Action]
    /// In time order, none after `duration`.
    public var shots: [Shot]
    /// When the step's motion is over: the next step may start.
    public var duration: Double
    /// What a step cut short sends to take back what it added (its bodies and behaviours);
    /// requests it already sent are refused harmlessly.
    public var cleanup: [DemoRequest] = []
    /// The viewer shows the debug layer during the step (UIKit Dynamics' `debugEnabled`: the
    /// terminal demo attaches again with `debug` for it, and without it after).
    public var debugLayer = false

    public init(_ system: DemoSystem, _ summary: String, actions: [Action], shots: [Shot], duration: Double,
                cleanup: [DemoRequest] = [], debugLayer: Bool = false) {
        self.system = system
        self.summary = summary
        // Requests at one time keep their order (a body is added before the behaviours naming it).
        self.actions = actions.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        self.shots = shots.sorted { $0.at < $1.at }
        self.duration = duration
        self.cleanup = cleanup
        self.debugLayer = debugLayer
    }

    /// The caption line: the system, then what happens.
    public var caption: String { "\(system.rawValue): \(summary)" }
}
