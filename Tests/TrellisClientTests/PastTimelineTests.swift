import Testing
@testable import TrellisClient
import TrellisProtocol

/// The past-moment viewer's timeline: recording.info read with every number checked, marks
/// found either side of a moment, frames either side of one, and the status line's reading.
@Suite struct PastTimelineTests {
    static let info: JSONValue = .object([
        "session": .string("s"), "at": .number(1500), "lastFrame": .number(90), "writing": .bool(true),
        "marks": .array([.object(["label": .string("late"), "at": .number(1200), "frame": .number(72)]),
                         .object(["label": .string("early"), "at": .number(500), "frame": .number(30)])]),
    ])

    @Test func readsRecordingInfoAndFindsMarksEitherSide() throws {
        let timeline = try PastTimeline(info: Self.info)
        #expect(timeline.end == 1500 && timeline.lastFrame == 90 && timeline.growing)
        #expect(timeline.marks.map(\.label) == ["early", "late"])
        #expect(timeline.mark(after: 0)?.label == "early")
        #expect(timeline.mark(after: 30)?.label == "late")   // a mark at the moment is not "next"
        #expect(timeline.mark(after: 72) == nil)
        #expect(timeline.mark(before: 72)?.label == "early")
        #expect(timeline.mark(before: 30) == nil)
        #expect(timeline.clamped(91) == 90 && timeline.clamped(-1) == 0)
    }

    @Test func refusesNumbersOutOfRangeAndSeesAnEndedHistory() throws {
        for bad: (String, JSONValue) in [("at", .number(-1)), ("at", .string("x")), ("lastFrame", .number(1.5)), ("lastFrame", .number(-2))] {
            guard case .object(var object) = Self.info else { return }
            object[bad.0] = bad.1
            #expect(throws: ParamError.self) { try PastTimeline(info: .object(object)) }
        }
        guard case .object(var object) = Self.info else { return }
        object["historyEnded"] = .string("32 MiB of changes")
        #expect(try PastTimeline(info: .object(object)).growing == false)
    }

    @Test func momentsInFramesAndTheStatusLine() {
        #expect(PastMoment.at(milliseconds: 600).position == 36)
        #expect(PastMoment.at(milliseconds: 12_510).frameAtOrBefore == 750 && PastMoment.at(milliseconds: 12_510).frameAtOrAfter == 751)
        #expect(PastMoment.frame(37).frameAtOrBefore == 37 && PastMoment.frame(37).frameAtOrAfter == 37)
        var status = ViewerStatus(session: "s")
        var past = ViewerStatus.Past(moment: .frame(750), at: 12_500)
        past.lastFrame = 1800
        past.nextMark = "after the fling"
        status.past = past
        #expect(status.line(width: 120).hasPrefix(" s · past 12.500 s · frame 750 of 1800 · read-only · next mark 'after the fling' · q quits"))
        status.past?.lastFrame = nil
        status.past?.playing = true
        status.past?.at = 616.6666
        #expect(status.line(width: 120).hasPrefix(" s · past 0.617 s · frame 750 of ? · read-only · playing ·"))
    }
}
