import Foundation
import Testing
import TrellisCore
import TrellisProtocol
@testable import TrellisServer

/// The in-process server (embedded `trellis run`) answers exactly as trellisd does, with
/// manual clocks only and no viewers.
@Suite struct InProcessServerTests {
    typealias P = [String: JSONValue]

    /// The same requests to both: a reply from the socket as the in-process reply would be.
    static let script: [(String, P)] = [
        ("session.create", ["name": .string("m"), "clock": .string("manual"), "bounds": PersistenceTests.pair(300, 400)]),
        ("data.reload", ["session": .string("m"), "sections": PersistenceTests.items(12)]),
        ("batch", ["session": .string("m"), "ops": .array([.object(["op": .string("deleteItems"), "at": .array([PersistenceTests.pair(0, 3)])])])]),
        ("clock.advance", ["session": .string("m"), "ms": .number(150)]),
        ("query.scene", ["session": .string("m")]),
        ("batch", ["session": .string("m"), "ops": .array([.object(["op": .string("deleteItems"), "at": .array([PersistenceTests.pair(0, 40)])])])]),
        ("scroll.toItem", ["session": .string("m"), "at": PersistenceTests.pair(0, 9), "position": .string("bottom")]),
        ("query.attributes", ["session": .string("m"), "at": PersistenceTests.pair(0, 9)]),
        ("session.info", ["session": .string("nope")]),
        ("no.such.method", [:]),
    ]

    static func envelope(_ reply: InProcessReply) -> JSONValue {
        switch reply {
        case .result(let r): return .object(["result": r])
        case .error(let code, let message, let data):
            var e: P = ["code": .number(Double(code)), "message": .string(message)]
            if let data { e["data"] = data }
            return .object(["error": .object(e)])
        }
    }

    @Test func answersAsTheSocketServerDoes() throws {
        let inProcess = try InProcessServer()
        let server = try ServerProcess(arguments: ["--no-persistence"])
        let c = try server.connect()
        for (method, params) in Self.script {
            var remote = try c.call(method, params)
            remote = .object(["result": remote["result"], "error": remote["error"]].compactMapValues { $0 })
            #expect(Self.envelope(inProcess.call(method, .object(params))) == remote, "\(method)")
        }
        server.stop()
    }

    @Test func everySessionHasAManualClock() throws {
        let s = try InProcessServer()
        guard case .result(let info) = s.call("session.create", .object(["name": .string("live")])) else {
            Issue.record("session.create failed"); return
        }
        #expect(info["clock"] == .string("manual"))
        guard case .result(let advanced) = s.call("clock.advance", .object(["session": .string("live"), "ms": .number(250)])) else {
            Issue.record("clock.advance refused on an in-process session"); return
        }
        #expect(advanced["time"] == .number(250))
    }

    @Test func attachIsRefusedWithAReason() throws {
        let s = try InProcessServer()
        _ = s.call("session.create", .object(["name": .string("a")]))
        guard case .error(_, let message, let data) = s.call("session.attach", .object(["session": .string("a")])) else {
            Issue.record("attach succeeded in process"); return
        }
        #expect(data?["code"] == .string("invalid_state"))
        #expect(message.contains("--socket"))
        guard case .error(let code, _, _) = s.call("session.create", .string("x")) else { Issue.record("bad params accepted"); return }
        #expect(code == -32602)
    }
}
