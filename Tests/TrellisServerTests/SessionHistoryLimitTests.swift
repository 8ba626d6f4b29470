import Foundation
import Logging
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// A recording's seek history is bounded: by a byte budget over its changes (each counted at
/// its encoded size), and by its recording's file (when that stops, the history stops too).
/// Past either end a seek is refused naming the reason; before it, it still shows the live frame.
@Suite struct SessionHistoryLimitTests {
    static let frame = 1000.0 / 60

    /// A server with a journal and recordings in `scratch`, its history budget `historyBytes`.
    static func server(_ scratch: ScratchDirectory, historyBytes: Int) throws -> Server {
        var configuration = ServerConfiguration(socketPath: scratch.path + "/s.sock")
        configuration.stateDirectory = scratch.path + "/state"
        configuration.maximumHistoryBytes = historyBytes
        return try Server(configuration: configuration, logger: Logger(label: "test"))
    }

    /// The request's result (a result the handler encoded itself read back), or its refusal.
    static func call(_ server: Server, _ method: String, _ params: String) throws -> Result<JSONValue, RPCError> {
        let client = Client(connection: nil)
        let execution = server.execute(method, params: try JSONParser.parse(params), client: client)
        server.finishRequest(touched: execution.touched, client: client)
        guard case .success = execution.outcome, let encoded = execution.encoded else { return execution.outcome }
        return .success(try JSONParser.parse(encoded.bytes))
    }

    static func ok(_ server: Server, _ method: String, _ params: String) throws -> JSONValue {
        try call(server, method, params).get()
    }

    static func refusal(_ server: Server, _ method: String, _ params: String) throws -> RPCError {
        guard case .failure(let error) = try call(server, method, params) else {
            throw TestFailure("\(method) \(params) was not refused")
        }
        return error
    }

    /// Frame by frame, a batch inserting one item with a long id, then a sixtieth of a second;
    /// the scene after each frame's batch.
    static func drive(_ server: Server, frames: Int, prefix: String = "item") throws -> [String] {
        var scenes: [String] = []
        for k in 0..<frames {
            let id = "\(prefix)-\(k)-" + String(repeating: "x", count: 80)
            try ok(server, "batch", #"{"session":"m","ops":[{"op":"insertItems","at":[[0,0]],"items":[{"id":"\#(id)"}]}]}"#)
            scenes.append(JSONWriter.string(try ok(server, "query.scene", #"{"session":"m"}"#)))
            try ok(server, "clock.advance", #"{"session":"m","ms":\#(frame)}"#)
        }
        return scenes
    }

    static func start(_ server: Server) throws {
        try ok(server, "session.create", #"{"name":"m","clock":"manual","bounds":[320,480],"sections":[{"id":"s","items":[{"id":"a"}]}]}"#)
        try ok(server, "recording.start", #"{"session":"m","checkpoints":"marks"}"#)
    }

    @Test func aHistoryStopsAtItsByteBudgetAndSeeksBeforeItStillWork() throws {
        let scratch = ScratchDirectory(prefix: "trellis-history")
        let budget = 6000
        let server = try Self.server(scratch, historyBytes: budget)
        defer { server.loop.close() }
        try Self.start(server)
        // About 190 bytes a frame (a batch line and an advance): well past the budget.
        let live = try Self.drive(server, frames: 80)
        let history = try #require(server.recordings["m"]?.history)
        let stopped = try #require(history.stopped, "the history did not stop at its budget")
        #expect(stopped.reason.contains("\(budget) bytes of changes"), "\(stopped.reason)")
        // Memory stays bounded: what it counts never passes the budget, and it took no change after.
        #expect(history.changeBytes <= budget && history.changeBytes > budget / 2)
        let count = history.changes.count
        try Self.ok(server, "batch", #"{"session":"m","ops":[{"op":"deleteItems","at":[[0,0]]}]}"#)
        #expect(history.changes.count == count)
        // Seeks up to the stop show the live frames; one past it is refused naming the reason.
        let lastFrame = Int(((stopped.time - history.startTime) * 60 + 1e-6).rounded(.down))
        #expect(lastFrame > 10 && lastFrame < 70, "stopped at frame \(lastFrame)")
        for n in [0, 1, lastFrame / 2, lastFrame] {
            let scene = try Self.ok(server, "session.seek", #"{"session":"m","atFrame":\#(n)}"#)["scene"] ?? .null
            #expect(JSONWriter.string(scene) == live[n], "frame \(n) differs")
        }
        let refused = try Self.refusal(server, "session.seek", #"{"session":"m","atFrame":\#(lastFrame + 1)}"#)
        #expect(refused.domainCode == "out_of_range" && refused.message.contains("the history ends there: it holds its limit of \(budget) bytes of changes"),
                "\(refused.message)")
        // The recording's file goes on (its own limit is far off): only the history stopped.
        #expect(server.recordings["m"]?.isWriting == true)
    }

    @Test func aHistoryStopsWhenItsRecordingDoes() throws {
        let scratch = ScratchDirectory(prefix: "trellis-history")
        let server = try Self.server(scratch, historyBytes: SessionHistory.maximumChangeBytes)
        defer { server.loop.close() }
        try Self.start(server)
        let live = try Self.drive(server, frames: 10)
        let recording = try #require(server.recordings["m"])
        // The file vanishes: the next write after the place check's interval notices it.
        unlink(recording.path)
        usleep(UInt32(ScriptRecording.placeCheckInterval * 1000) + 20_000)
        _ = try Self.drive(server, frames: 5, prefix: "after")
        #expect(!recording.isWriting)
        let stopped = try #require(recording.history.stopped, "the history went on after its recording stopped")
        #expect(stopped.reason.contains("the recording stopped") && stopped.reason.contains("removed"), "\(stopped.reason)")
        let count = recording.history.changes.count
        _ = try Self.drive(server, frames: 3, prefix: "later")
        #expect(recording.history.changes.count == count)
        // What it holds is still there to revisit; past its end is refused with the reason.
        let scene = try Self.ok(server, "session.seek", #"{"session":"m","atFrame":9}"#)["scene"] ?? .null
        #expect(JSONWriter.string(scene) == live[9])
        let refused = try Self.refusal(server, "session.seek", #"{"session":"m","atFrame":17}"#)
        #expect(refused.domainCode == "out_of_range" && refused.message.contains("the recording stopped"), "\(refused.message)")
    }
}
