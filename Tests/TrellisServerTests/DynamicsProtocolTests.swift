import Foundation
import Testing
import TrellisCore
import TrellisProtocol

/// Dynamics over the wire, against a real `trellisd` on its socket, on manual clocks so that
/// every number is reproducible: determinism of whole frames, the integrator's closed form seen
/// through `dynamics.item`, dynamic cells followed by item id through batch updates, and rest
/// detection (a paused animator sends nothing).
@Suite struct DynamicsProtocolTests {
    static let g = 1000.0          // pt/s² for a gravity magnitude of 1 (UIKit)
    static let h = 1.0 / 60.0      // the animator's fixed step (s)

    // MARK: Determinism

    /// The same requests on two sessions give the same frames, byte for byte: the physics owns
    /// no clock and no randomness, and frames are encoded the same way from the same state.
    @Test func theSameRequestsGiveTheSameFramesByteForByte() throws {
        let server = try ServerProcess()
        let first = try Self.recordScenario(server)
        let second = try Self.recordScenario(server)
        let frames = first.filter { $0.contains("\"method\":\"frame\"") }
        #expect(frames.count > 40, "the scenario should publish a frame per step batch, got \(frames.count)")
        // Bodies turned (an off-centre push): frames carry transforms, not only translations.
        #expect(frames.contains { $0.contains("\"transform\"") })
        #expect(first.count == second.count)
        for (k, (a, b)) in zip(first, second).enumerated() where a != b {
            Issue.record("line \(k) differs:\n  \(a)\n  \(b)")
            break
        }
        server.stop()
    }

    /// Runs one scenario on a new session named "twin" (destroyed at the end, so the second run
    /// starts from nothing with the same name) and returns every line the viewer connection got.
    static func recordScenario(_ server: ServerProcess) throws -> [String] {
        let c = try server.connect()
        var raw = RawLines(fd: c.fd)
        let requests: [(String, String)] = [
            ("session.create", #"{"name":"twin","clock":"manual","bounds":[300,600],"layout":{"type":"flow","itemSize":[80,80]},"sections":[{"id":"s0","items":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}]}]}"#),
            ("session.attach", #"{"session":"twin"}"#),
            ("body.add", #"{"session":"twin","body":"card","center":[150,300],"size":[120,60],"data":{"label":"card"}}"#),
            ("dynamics.add", #"{"session":"twin","behavior":{"type":"gravity","items":["a","c",{"body":"card"}]}}"#),
            ("dynamics.add", #"{"session":"twin","behavior":{"type":"collision","items":["a","b","c",{"body":"card"}],"translatesReferenceBoundsIntoBoundary":true}}"#),
            ("dynamics.add", #"{"session":"twin","behavior":{"type":"item","items":["a","c",{"body":"card"}],"elasticity":0.4,"friction":0.3}}"#),
            ("dynamics.add", #"{"session":"twin","behavior":{"type":"push","items":[{"body":"card"}],"mode":"instantaneous","angle":-1.2,"magnitude":2,"targetOffsetFromCenter":[40,10]}}"#),
            ("dynamics.add", #"{"session":"twin","behavior":{"type":"attachment","item":"b","anchor":[150,40],"frequency":1.5,"damping":0.3}}"#),
        ]
        var lines: [String] = []
        var id = 0
        func send(_ method: String, _ params: String) throws {
            id += 1
            c.sendRaw(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"# + "\n")
            lines += try raw.through(replyID: id)
        }
        for (method, params) in requests { try send(method, params) }
        for step in 0..<60 {
            try send("clock.advance", #"{"session":"twin","ms":50}"#)
            if step == 20 {
                try send("batch", #"{"session":"twin","animated":false,"ops":[{"op":"insertItems","at":[[0,0]],"items":[{"id":"new"}]}]}"#)
            }
        }
        for element in [#""a""#, #""b""#, #""c""#, #"{"body":"card"}"#] {
            try send("dynamics.item", #"{"session":"twin","element":\#(element)}"#)
        }
        try send("session.destroy", #"{"session":"twin"}"#)
        c.close()
        return lines
    }

    // MARK: The integrator through the protocol

    /// A body dropped under gravity (no collision) falls exactly as a test author writes it, after
    /// t = n·h seconds: v = g·t and Δy = g·t²/2 (not symplectic Euler's g·h²·n(n+1)/2, 6.7 %
    /// further at 0.25 s).
    @Test func aDroppedBodyFallsAsTheContinuousClosedFormSays() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        try c.ok("session.create", #"{"name":"fall","clock":"manual","bounds":[300,600]}"#)
        try c.ok("body.add", #"{"session":"fall","body":"rock","center":[150,100],"size":[50,50]}"#)
        try c.ok("dynamics.add", #"{"session":"fall","behavior":{"type":"gravity","items":[{"body":"rock"}]}}"#)
        for k in 1...40 {
            // 50 ms is exactly 3 steps.
            try c.ok("clock.advance", #"{"session":"fall","ms":50}"#)
            let state = try c.ok("dynamics.item", #"{"session":"fall","element":{"body":"rock"}}"#)
            let n = Double(3 * k)
            let center = try Self.pair(state, "center")
            let velocity = try Self.pair(state, "velocity")
            #expect(state["dynamic"] == .bool(true))
            #expect(abs(velocity[1] - Self.g * Self.h * n) < 1e-9, "after \(Int(n)) steps v = \(velocity[1])")
            #expect(abs(center[1] - (100 + Self.g * Self.h * Self.h * n * n / 2)) < 1e-9, "after \(Int(n)) steps y = \(center[1])")
            #expect(center[0] == 150 && velocity[0] == 0)
        }
        server.stop()
    }

    // MARK: Dynamic cells and batch updates

    /// A cell made dynamic is followed by its item id: an insert before it moves its index path,
    /// and it keeps its place, velocity and behaviour (the push goes on acting on it); the view
    /// at its new index path is drawn where the simulation has it. Deleted, it leaves the animator.
    @Test func aDynamicCellKeepsItsStateThroughABatchThatMovesIt() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        try c.ok("session.create", #"{"name":"cells","clock":"manual","bounds":[300,600],"layout":{"type":"flow","itemSize":[100,100]},"sections":[{"id":"s0","items":[{"id":"i0"},{"id":"i1"},{"id":"i2"}]}]}"#)
        // Where i2 ([0, 2]) is drawn before it is dynamic: its layout's place, no velocity.
        let start = try c.ok("dynamics.item", #"{"session":"cells","element":"i2"}"#)
        #expect(start["dynamic"] == .bool(false) && start["velocity"] == .array([.number(0), .number(0)]))
        let (x0, y0) = (try Self.pair(start, "center")[0], try Self.pair(start, "center")[1])
        // A push of magnitude 1 accelerates a 100×100 item of density 1 at 100 pt/s², here to the left.
        try c.ok("dynamics.add", #"{"session":"cells","behavior":{"type":"push","items":["i2"],"pushDirection":[-1,0]}}"#)
        try c.ok("clock.advance", #"{"session":"cells","ms":100}"#)
        let before = try c.ok("dynamics.item", #"{"session":"cells","element":"i2"}"#)
        let a = 100.0
        func x(after n: Double) -> Double { x0 - a * Self.h * Self.h * n * n / 2 }
        #expect(abs(try Self.pair(before, "center")[0] - x(after: 6)) < 1e-9)
        #expect(try Self.pair(before, "center")[1] == y0)

        let update = try c.ok("batch", #"{"session":"cells","animated":false,"ops":[{"op":"insertItems","at":[[0,0]],"items":[{"id":"new"}]}]}"#)
        // One run: i0…i2 shift by one, i2 from [0, 2] to [0, 3].
        #expect(update["mapping"] == (try JSONParser.parse("[[[0,0],[0,1],3]]")))
        // Same state, same element id, now at [0, 3]: nothing stepped in between.
        let after = try c.ok("dynamics.item", #"{"session":"cells","element":{"item":"i2"}}"#)
        #expect(after["dynamic"] == .bool(true))
        #expect(try Self.pair(after, "center") == Self.pair(before, "center"))
        #expect(try Self.pair(after, "velocity") == Self.pair(before, "velocity"))
        // The view of [0, 3] (i2) is drawn at the simulation's place, not at the layout's place for [0, 3].
        let scene = try c.ok("query.scene", #"{"session":"cells"}"#)
        let view = try #require(scene["views"]?.arrayValue?.first { $0["element"]?["id"] == .string("i2") })
        #expect(view["element"]?["item"] == .number(3))
        let frame = try Self.numbers(view, "frame", count: 4)
        #expect(abs(frame[0] + 50 - x(after: 6)) < 1e-3 && frame[1] + 50 == y0, "i2 drawn at \(frame)")
        let layoutPlace = try c.ok("query.attributes", #"{"session":"cells","at":[0,3]}"#)
        #expect(layoutPlace["attributes"]?.arrayValue?.first?["frame"] == view["frame"], "model attributes follow the simulation too")
        // The push goes on: 6 more steps continue the same closed form.
        try c.ok("clock.advance", #"{"session":"cells","ms":100}"#)
        let later = try c.ok("dynamics.item", #"{"session":"cells","element":"i2"}"#)
        #expect(abs(try Self.pair(later, "center")[0] - x(after: 12)) < 1e-9)
        #expect(abs(try Self.pair(later, "velocity")[0] + a * Self.h * 12) < 1e-9)
        // Deleted, it leaves the animator (the behaviour still names it, and skips it).
        try c.ok("batch", #"{"session":"cells","animated":false,"ops":[{"op":"deleteItems","at":[[0,3]]}]}"#)
        let gone = try c.reply("dynamics.item", #"{"session":"cells","element":"i2"}"#)
        #expect(gone["error"]?["data"]?["code"] == .string("unknown_element"))
        let list = try c.ok("dynamics.list", #"{"session":"cells"}"#)
        #expect(list["items"] == .array([]))
        server.stop()
    }

    // MARK: Rest detection

    /// A body dropped into the bounds comes to rest; the animator pauses and says so once, and
    /// from then on the session publishes nothing and does not animate (a live one would not
    /// tick), however far its clock moves.
    @Test func anIdleSessionSendsNoFramesAfterItPaused() throws {
        let server = try ServerProcess()
        let c = try server.connect()
        let viewer = try server.connect()
        try c.ok("session.create", #"{"name":"rest","clock":"manual","bounds":[300,400]}"#)
        try viewer.ok("session.attach", #"{"session":"rest"}"#)
        try c.ok("body.add", #"{"session":"rest","body":"box","center":[150,100],"size":[80,80]}"#)
        try c.ok("dynamics.add", #"{"session":"rest","behavior":{"type":"gravity","items":[{"body":"box"}]}}"#)
        try c.ok("dynamics.add", #"{"session":"rest","behavior":{"type":"collision","items":[{"body":"box"}],"translatesReferenceBoundsIntoBoundary":true}}"#)
        try c.ok("dynamics.add", #"{"session":"rest","behavior":{"type":"item","items":[{"body":"box"}],"elasticity":0.3}}"#)
        var pausedAt: Int?
        for k in 1...100 where pausedAt == nil {
            try c.ok("clock.advance", #"{"session":"rest","ms":100}"#)
            _ = try viewer.result("hello")   // every frame and event before this reply has arrived
            if viewer.notifications.contains(where: { $0["method"] == .string("dynamics.paused") }) { pausedAt = k }
        }
        let k = try #require(pausedAt, "the box never came to rest in 10 s")
        #expect(k < 40, "at rest only after \(k * 100) ms")
        let paused = viewer.notifications.filter { $0["method"] == .string("dynamics.paused") }
        #expect(paused.count == 1)
        #expect(paused.first?["params"]?["time"] == .number(Double(k * 100)))
        #expect(viewer.notifications.last?["method"] == .string("dynamics.paused"), "the pause follows the tick's frame")
        let resting = try c.ok("dynamics.item", #"{"session":"rest","element":{"body":"box"}}"#)
        #expect(abs(try Self.pair(resting, "center")[1] - 360) < 0.6, "on the floor: 400 − 40, within Box2D's slop")

        let statsBefore = try c.ok("stats", #"{"session":"rest"}"#)
        #expect(statsBefore["animating"] == .bool(false))
        viewer.notifications.removeAll()
        for _ in 0..<10 { try c.ok("clock.advance", #"{"session":"rest","ms":500}"#) }
        _ = try viewer.result("hello")
        #expect(viewer.notifications.isEmpty, "an idle session sent \(viewer.notifications.count) messages")
        let statsAfter = try c.ok("stats", #"{"session":"rest"}"#)
        #expect(statsAfter["frames"] == statsBefore["frames"] && statsAfter["seq"] == statsBefore["seq"])
        #expect(statsAfter["animating"] == .bool(false))
        #expect(try c.ok("dynamics.list", #"{"session":"rest"}"#)["running"] == .bool(false))
        #expect(try c.ok("dynamics.item", #"{"session":"rest","element":{"body":"box"}}"#) == resting)
        server.stop()
    }

    // MARK: Helpers

    static func params(_ json: String) throws -> [String: JSONValue] {
        guard case .object(let members) = try JSONParser.parse(json) else { throw TestFailure("not an object: \(json)") }
        return members
    }

    static func pair(_ state: JSONValue, _ key: String) throws -> [Double] { try numbers(state, key, count: 2) }

    static func numbers(_ value: JSONValue, _ key: String, count: Int) throws -> [Double] {
        guard let values = value[key]?.arrayValue?.compactMap(\.numberValue), values.count == count else {
            throw TestFailure("no \(count) numbers at \(key) in \(JSONWriter.string(value))")
        }
        return values
    }
}

extension RPCConnection {
    /// The result of a request whose params are written as JSON text; it must succeed.
    @discardableResult
    func ok(_ method: String, _ params: String) throws -> JSONValue { try result(method, try DynamicsProtocolTests.params(params)) }

    /// The whole reply (result or error) of a request whose params are written as JSON text.
    func reply(_ method: String, _ params: String) throws -> JSONValue { try call(method, try DynamicsProtocolTests.params(params)) }
}

/// The lines a connection receives, as the server wrote them (no parsing, so two runs can be
/// compared byte for byte).
struct RawLines {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    /// Every line up to and including the reply with `replyID`, as text.
    mutating func through(replyID: Int) throws -> [String] {
        var lines: [String] = []
        let marker = Array("\"id\":\(replyID),".utf8)
        while true {
            guard let line = try next() else { throw TestFailure("no reply \(replyID)") }
            lines.append(String(decoding: line, as: UTF8.self))
            if line.starts(with: Array("{\"jsonrpc\":\"2.0\",".utf8) + marker) { return lines }
        }
    }

    private mutating func next() throws -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }
}
