import TrellisProtocol

/// A moment of a recorded session, as `session.seek` takes it: milliseconds since the recording
/// began, or a frame number of it (60 a second).
public enum PastMoment: Hashable, Sendable {
    case at(milliseconds: Double)
    case frame(Int)

    /// Frames a second of a recording (the server's `SessionHistory.framesPerSecond`).
    public static let framesPerSecond = 60.0

    /// Where the moment falls in frames, fractional between two (`at` 12.51 s is 750.6).
    public var position: Double {
        switch self {
        case .at(let ms): ms / 1000 * Self.framesPerSecond
        case .frame(let n): Double(n)
        }
    }

    /// The params naming it in `session.seek`.
    public var params: [String: JSONValue] {
        switch self {
        case .at(let ms): ["at": .number(ms)]
        case .frame(let n): ["atFrame": .number(Double(n))]
        }
    }

    /// The frame at or before the moment (the one a status line names), and the one at or after it.
    public var frameAtOrBefore: Int { Int((position + 1e-6).rounded(.down)) }
    public var frameAtOrAfter: Int { Int((position - 1e-6).rounded(.up)) }
}

/// The range and marks of a recording as `recording.info` answers: what a past-moment viewer
/// moves through (frames 0 … `lastFrame`, marks in time order).
public struct PastTimeline: Hashable, Sendable {
    /// A `recording.mark`: its label and where it was placed.
    public struct Mark: Hashable, Sendable {
        public var label: String
        public var at: Double
        public var position: Double { at / 1000 * PastMoment.framesPerSecond }
        public init(label: String, at: Double) {
            self.label = label
            self.at = at
        }
    }

    /// The range's end, ms after the recording began.
    public var end: Double
    public var lastFrame: Int
    public var marks: [Mark]
    /// The recording's history still grows (a live session's now moves on).
    public var growing: Bool

    public init(end: Double, lastFrame: Int, marks: [Mark], growing: Bool) {
        self.end = end
        self.lastFrame = lastFrame
        self.marks = marks
        self.growing = growing
    }

    /// Reads a `recording.info` result; every number checked finite and in range.
    public init(info: JSONValue) throws(ParamError) {
        guard case .object(let object) = info else { throw ParamError(path: "recording.info", .refused("expected an object")) }
        guard case .number(let end)? = object["at"], end.isFinite, end >= 0, end <= 1e15 else {
            throw ParamError(path: "recording.info.at", .refused("expected the range's end in ms (0 or more)"))
        }
        guard case .number(let last)? = object["lastFrame"], last.isFinite, last >= 0, last <= 1e12, last == last.rounded() else {
            throw ParamError(path: "recording.info.lastFrame", .refused("expected a whole frame number from 0"))
        }
        var marks: [Mark] = []
        if case .array(let list)? = object["marks"] {
            for (index, mark) in list.enumerated() {
                guard case .number(let at)? = mark["at"], at.isFinite, at >= 0, at <= 1e15 else {
                    throw ParamError(path: "recording.info.marks[\(index)].at", .refused("expected ms since the recording began"))
                }
                marks.append(Mark(label: mark["label"]?.stringValue ?? "", at: at))
            }
        }
        marks.sort { $0.at < $1.at }
        let growing = object["historyEnded"] == nil && object["writing"] != .bool(false)
        self.init(end: end, lastFrame: Int(last), marks: marks, growing: growing)
    }

    /// The first mark after `position` (frames), nil when none is.
    public func mark(after position: Double) -> Mark? {
        marks.first { $0.position > position + 1e-6 }
    }

    /// The last mark before `position` (frames), nil when none is.
    public func mark(before position: Double) -> Mark? {
        marks.last { $0.position < position - 1e-6 }
    }

    /// `frame` kept inside the range.
    public func clamped(_ frame: Int) -> Int { min(max(frame, 0), lastFrame) }
}
