import Testing
import TrellisProtocol
@testable import TrellisServer

/// When a recording writes its checkpoints: `frames` (the default) after a change at most once
/// a frame of session time and at the stop when changes came after the last one; `changes`
/// after every change; `marks` only at marks. Each checkpoint pins the scene as it is then.
@Suite struct RecordingCheckpointTests {
    typealias H = SessionHistoryLimitTests

    /// A server recording a scrollable session `m` with `params` for recording.start; what the
    /// start answered.
    static func start(_ scratch: ScratchDirectory, _ params: String) throws -> (Server, JSONValue) {
        let server = try H.server(scratch, historyBytes: SessionHistory.maximumChangeBytes)
        let items = (0..<60).map { #"{"id":"i\#($0)"}"# }.joined(separator: ",")
        try H.ok(server, "session.create", #"{"name":"m","clock":"manual","bounds":[320,480],"layout":{"type":"flow","itemSize":[100,100]},"sections":[{"id":"s","items":[\#(items)]}]}"#)
        return (server, try H.ok(server, "recording.start", params))
    }

    static func scroll(_ server: Server, _ y: Int) throws {
        try H.ok(server, "scroll.to", #"{"session":"m","offset":[0,\#(y)]}"#)
    }

    static func advance(_ server: Server, _ ms: Double) throws {
        try H.ok(server, "clock.advance", #"{"session":"m","ms":\#(ms)}"#)
    }

    /// The script's first checkpoint lines (`expect m time=…`), in order.
    static func checkpoints(_ stopped: JSONValue) -> [Substring] {
        (stopped["script"]?.stringValue ?? "").split(separator: "\n").filter { $0.hasPrefix("expect m time=") }
    }

    @Test func framesPinOnceAFrameAndTheLastChangesAtTheStop() throws {
        let scratch = ScratchDirectory(prefix: "trellis-checkpoints")
        let (server, started) = try Self.start(scratch, #"{"session":"m"}"#)
        defer { server.loop.close() }
        #expect(started["checkpoints"] == .string("frames"))
        // Three changes in the instant of the start's checkpoint, then half a frame: none.
        for y in [10, 20, 30] { try Self.scroll(server, y) }
        try Self.advance(server, 8)
        try Self.scroll(server, 40)
        // A frame after the start's checkpoint: the advance gets one, the scroll after it not.
        try Self.advance(server, 1000.0 / 60 - 8)
        try Self.scroll(server, 50)
        let stopped = try H.ok(server, "recording.stop", #"{"session":"m"}"#)
        #expect(stopped["changes"] == .number(7))
        let lines = Self.checkpoints(stopped)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first?.contains("time=0ms ") == true && lines.first?.contains(" offset=0,0 ") == true, "\(lines)")
        #expect(lines.dropFirst().first?.contains("time=16.67ms ") == true && lines.dropFirst().first?.contains(" offset=0,40 ") == true, "\(lines)")
        // The stop pins the last scroll, as the session is then.
        #expect(lines.last?.contains("time=16.67ms ") == true && lines.last?.contains(" offset=0,50 ") == true, "\(lines)")
        #expect(stopped["script"]?.stringValue?.hasSuffix("tolerance=0.5\n") == true)
    }

    /// `checkpointEvery`: with frames, at most one checkpoint every N frames; marks still get
    /// theirs; out of range, or with another mode, refused before anything is recorded.
    @Test func checkpointEverySpacesTheFramesCheckpoints() throws {
        let scratch = ScratchDirectory(prefix: "trellis-checkpoints")
        let (server, started) = try Self.start(scratch, #"{"session":"m","checkpointEvery":6}"#)
        defer { server.loop.close() }
        #expect(started["checkpointEvery"] == .number(6))
        // Twelve frames, a scroll in each: checkpoints at the start, at frame 6 and at frame 12.
        for k in 1...12 {
            try Self.advance(server, 1000.0 / 60)
            try Self.scroll(server, 10 * k)
        }
        try H.ok(server, "recording.mark", #"{"session":"m","label":"here"}"#)
        let lines = Self.checkpoints(try H.ok(server, "recording.stop", #"{"session":"m"}"#))
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.dropFirst().first?.contains("time=100ms ") == true && lines.dropFirst().first?.contains(" offset=0,50 ") == true, "\(lines)")
        #expect(lines.dropFirst(2).first?.contains("time=200ms ") == true, "\(lines)")
        for bad in [#""checkpointEvery":0"#, #""checkpointEvery":36001"#, #""checkpointEvery":1.5"#, #""checkpointEvery":"6""#,
                    #""checkpoints":"changes","checkpointEvery":6"#] {
            let refused = try H.refusal(server, "recording.start", "{\"session\":\"m\",\(bad)}")
            #expect(refused.code == -32602 && refused.message.hasPrefix("params.checkpointEvery: "), "\(bad): \(refused.message)")
        }
        #expect(try H.refusal(server, "recording.stop", #"{"session":"m"}"#).domainCode == "invalid_state")
    }

    @Test func aStopWithEveryChangePinnedAddsNoCheckpoint() throws {
        let scratch = ScratchDirectory(prefix: "trellis-checkpoints")
        let (server, _) = try Self.start(scratch, #"{"session":"m"}"#)
        defer { server.loop.close() }
        try Self.scroll(server, 10)
        try Self.advance(server, 20)
        let stopped = try H.ok(server, "recording.stop", #"{"session":"m"}"#)
        let lines = Self.checkpoints(stopped)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.last?.contains("time=20ms ") == true && lines.last?.contains(" offset=0,10 ") == true, "\(lines)")
    }

    @Test func changesPinEveryChangeAndMarksOnlyMarks() throws {
        for (mode, expected) in [("changes", 1 + 5 + 1), ("marks", 1 + 1)] {
            let scratch = ScratchDirectory(prefix: "trellis-checkpoints")
            let (server, started) = try Self.start(scratch, #"{"session":"m","checkpoints":"\#(mode)"}"#)
            defer { server.loop.close() }
            #expect(started["checkpoints"] == .string(mode))
            for y in [10, 20, 30] { try Self.scroll(server, y) }
            try Self.advance(server, 5)
            try H.ok(server, "recording.mark", #"{"session":"m","label":"here"}"#)
            try Self.scroll(server, 40)
            let stopped = try H.ok(server, "recording.stop", #"{"session":"m"}"#)
            let lines = Self.checkpoints(stopped)
            #expect(lines.count == expected, "\(mode): \(lines)")
            if mode == "changes" { #expect(lines.last?.contains(" offset=0,40 ") == true, "\(lines)") }
        }
    }

    @Test func anUnknownModeIsRefusedNamingTheThree() throws {
        let scratch = ScratchDirectory(prefix: "trellis-checkpoints")
        let server = try H.server(scratch, historyBytes: SessionHistory.maximumChangeBytes)
        defer { server.loop.close() }
        try H.ok(server, "session.create", #"{"name":"m","clock":"manual"}"#)
        let refused = try H.refusal(server, "recording.start", #"{"session":"m","checkpoints":"often"}"#)
        #expect(refused.message.contains("\"frames\"") && refused.message.contains("\"changes\"") && refused.message.contains("\"marks\""), "\(refused.message)")
        #expect(server.recordings["m"] == nil)
    }
}
