/// What the viewer's status line says: the session, the frame it shows, how fast frames come,
/// and the reuse figures (bound and pooled views, views created and reused by the server).
public struct ViewerStatus: Hashable, Sendable {
    public var session: String
    public var seq: Int = 0
    public var framesPerSecond: Int = 0
    public var bound: Int = 0
    /// From the server's `stats` (nil until it answers).
    public var pooled: Int?
    public var created: Int?
    public var reused: Int?
    public var skippedFrames: Int = 0
    public var readOnly: Bool = false
    /// A passing message: the demo's step, a refused scroll.
    public var note: String = ""
    /// Set when a past moment of a recording is shown (`attach --at`): the line names the
    /// moment instead of the live figures.
    public var past: Past?

    /// A past moment as the status line names it.
    public struct Past: Hashable, Sendable {
        public var moment: PastMoment
        /// The milliseconds the server answered for it.
        public var at: Double
        /// The range's last frame, nil while `recording.info` has not answered.
        public var lastFrame: Int?
        public var playing = false
        public var nextMark: String?

        public init(moment: PastMoment, at: Double) {
            self.moment = moment
            self.at = at
        }
    }

    public init(session: String) { self.session = session }

    /// The line, cut or padded to `width` cells.
    public func line(width: Int) -> String {
        func figure(_ n: Int?) -> String { n.map(String.init) ?? "-" }
        var parts: [String]
        if let past {
            parts = [session, "past \(Self.threeDecimals(past.at / 1000)) s",
                     "frame \(past.moment.frameAtOrBefore) of \(past.lastFrame.map(String.init) ?? "?")", "read-only"]
            if past.playing { parts.append("playing") }
            if let mark = past.nextMark { parts.append("next mark '\(mark)'") }
        } else {
            parts = [session, "seq \(seq)", "\(framesPerSecond) fps", "views \(bound)", "pooled \(figure(pooled))",
                     "created \(figure(created))", "reused \(figure(reused))"]
            if skippedFrames > 0 { parts.append("skipped \(skippedFrames)") }
            if readOnly { parts.append("read-only") }
        }
        if !note.isEmpty { parts.append(note) }
        // The key hint only when there is room: the figures and the note matter more.
        var text = Array(TerminalText.cells(" " + parts.joined(separator: " · ")))
        if text.count + 10 <= width { text += Array(" · q quits".unicodeScalars) }
        let cut = text.prefix(width)
        return String(String.UnicodeScalarView(cut)) + String(repeating: " ", count: max(0, width - cut.count))
    }

    /// `12.500`: seconds to the millisecond, always three decimals (a timeline's reading).
    static func threeDecimals(_ seconds: Double) -> String {
        let thousandths = Int((abs(seconds) * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return (seconds < 0 && thousandths > 0 ? "-" : "") + "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

/// Frames per second over the last second, from the arrival times of frames.
public struct FrameRateMeter: Sendable {
    private var times: [Double] = []

    public init() {}

    /// A frame arrived at `time` (seconds, any monotonic origin).
    public mutating func record(at time: Double) {
        times.append(time)
        trim(now: time)
    }

    /// Frames that arrived in the second before `now`.
    public mutating func rate(now: Double) -> Int {
        trim(now: now)
        return times.count
    }

    private mutating func trim(now: Double) {
        if let keep = times.firstIndex(where: { $0 > now - 1 }) { times.removeFirst(keep) } else { times.removeAll() }
    }
}
