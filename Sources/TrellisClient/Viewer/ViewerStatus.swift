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

    public init(session: String) { self.session = session }

    /// The line, cut or padded to `width` cells.
    public func line(width: Int) -> String {
        func figure(_ n: Int?) -> String { n.map(String.init) ?? "-" }
        var parts = [session, "seq \(seq)", "\(framesPerSecond) fps", "views \(bound)", "pooled \(figure(pooled))",
                     "created \(figure(created))", "reused \(figure(reused))"]
        if skippedFrames > 0 { parts.append("skipped \(skippedFrames)") }
        if readOnly { parts.append("read-only") }
        if !note.isEmpty { parts.append(note) }
        // The key hint only when there is room: the figures and the note matter more.
        var text = Array(TerminalText.cells(" " + parts.joined(separator: " · ")))
        if text.count + 10 <= width { text += Array(" · q quits".unicodeScalars) }
        let cut = text.prefix(width)
        return String(String.UnicodeScalarView(cut)) + String(repeating: " ", count: max(0, width - cut.count))
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
