import Foundation
import Testing
import TrellisCore
import TrellisProtocol

/// A batch's reply costs what changed, not what the session holds: on 200,000 items through
/// the real socket, one insert at 0:0 answers in well under a kilobyte, its ranges expand to
/// exactly the per-item mapping a client can still ask for, and a bad form is refused cleanly.
@Suite struct LargeBatchReplyTests {
    static let count = 200_000

    /// A server whose request limit lets one `data.reload` carry the items.
    static func server() throws -> ServerProcess {
        try ServerProcess(arguments: ["--no-persistence", "--max-message-bytes", "20000000"])
    }

    static func create(_ name: String, on c: RPCConnection) throws {
        _ = try c.result("session.create", ["name": .string(name), "clock": .string("manual"),
                                        "layout": PersistenceTests.flow(10)])
        let items = JSONValue.array((0..<count).map { .object(["id": .string("i\($0)")]) })
        let reloaded = try c.result("data.reload", ["session": .string(name),
                                                    "sections": .array([.object(["id": .string("s0"), "items": items])])])
        #expect(reloaded["items"] == .number(Double(count)))
    }

    /// Sends one request line and returns the reply line's bytes (the connection is used for
    /// nothing else, so no notification or earlier reply is pending on it).
    static func rawCall(_ c: RPCConnection, _ request: String) throws -> [UInt8] {
        c.sendRaw(request + "\n")
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = recv(c.fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw TestFailure("no reply to \(request.prefix(80))") }
            line += chunk[0..<n]
            if line.last == 10 { return Array(line.dropLast()) }
        }
    }

    /// `[[s,i],[t,j],n]` runs as `[old, new]` pairs, one per item.
    static func expand(_ ranges: JSONValue?) throws -> [JSONValue] {
        guard case .array(let runs)? = ranges else { throw TestFailure("mapping is not an array") }
        var pairs: [JSONValue] = []
        for run in runs {
            guard case .array(let parts) = run, parts.count == 3,
                  case .array(let old) = parts[0], case .array(let new) = parts[1], old.count == 2, new.count == 2,
                  let count = parts[2].numberValue.map(Int.init), count >= 1,
                  let s = old[0].numberValue.map(Int.init), let i = old[1].numberValue.map(Int.init),
                  let t = new[0].numberValue.map(Int.init), let j = new[1].numberValue.map(Int.init)
            else { throw TestFailure("not a run: \(JSONWriter.string(run))") }
            for k in 0..<count {
                pairs.append(.array([.array([.number(Double(s)), .number(Double(i + k))]),
                                     .array([.number(Double(t)), .number(Double(j + k))])]))
            }
        }
        return pairs
    }

    @Test func oneInsertAtTheStartAnswersInUnderAKilobyte() throws {
        let server = try Self.server()
        defer { server.stop() }
        let c = try server.connect(seconds: 60)
        try Self.create("big", on: c)
        let bytes = try Self.rawCall(c, #"{"jsonrpc":"2.0","id":7,"method":"batch","params":{"session":"big","animated":false,"ops":[{"op":"insertItems","at":[[0,0]],"items":[{"id":"n"}]}]}}"#)
        #expect(bytes.count < 1024, "reply of \(bytes.count) bytes")
        let reply = try JSONParser.parse(bytes)
        #expect(reply["result"]?["mapping"] == (try JSONParser.parse("[[[0,0],[0,1],\(Self.count)]]")))
        #expect(reply["result"]?["inserted"] == (try JSONParser.parse("[[0,0]]")))
        let attributes = try c.result("query.attributes", ["session": .string("big"), "at": PersistenceTests.pair(0, 1)])
        #expect(attributes["attributes"]?.arrayValue?.first?["element"]?["id"] == .string("i0"))
    }

    @Test func rangesExpandToTheItemsFormOfTheSameBatch() throws {
        let server = try Self.server()
        defer { server.stop() }
        let c = try server.connect(seconds: 60)
        try Self.create("a", on: c)
        try Self.create("b", on: c)
        // Deletes, an insert, moves within the section and a reload, spread over the items.
        let ops = """
            [{"op":"deleteItems","at":[[0,5],[0,150000]]},{"op":"insertItems","at":[[0,100]],"items":[{"id":"x"}]},\
            {"op":"moveItem","from":[0,1000],"to":[0,10]},{"op":"moveItem","from":[0,3],"to":[0,199990]},\
            {"op":"reloadItems","at":[[0,70000]]}]
            """
        func request(_ session: String, _ extra: String) -> String {
            #"{"jsonrpc":"2.0","id":1,"method":"batch","params":{"session":"\#(session)","animated":false\#(extra),"ops":\#(ops)}}"#
        }
        let rangesBytes = try Self.rawCall(c, request("a", ""))
        let itemsBytes = try Self.rawCall(c, request("b", #","mapping":"items""#))
        #expect(rangesBytes.count < 1024, "ranges reply of \(rangesBytes.count) bytes")
        let ranges = try JSONParser.parse(rangesBytes)["result"]
        let items = try JSONParser.parse(itemsBytes)["result"]
        guard case .array(let pairs)? = items?["mapping"] else {
            Issue.record("no items mapping: \(String(decoding: itemsBytes.prefix(300), as: UTF8.self))"); return
        }
        // Everything from the first delete (5) to the last index the batch touches shifted.
        #expect(pairs.count > 190_000)
        #expect(try Self.expand(ranges?["mapping"]) == pairs)
        // The rest of the reply does not depend on the form.
        for key in ["update", "inserted", "deleted", "moved", "reloaded"] {
            #expect(ranges?[key] == items?[key], "\(key)")
        }
    }

    @Test func anUnknownMappingFormIsRefusedAndChangesNothing() throws {
        let server = try Self.server()
        defer { server.stop() }
        let c = try server.connect()
        _ = try c.result("session.create", ["name": .string("m"), "clock": .string("manual"), "sections": PersistenceTests.items(5)])
        let insert: JSONValue = .array([.object(["op": .string("insertItems"), "at": .array([PersistenceTests.pair(0, 0)]),
                                                 "items": .array([.object(["id": .string("n")])])])])
        for bad: JSONValue in [.string("runs"), .number(1), .string(""), .array([])] {
            let reply = try c.call("batch", ["session": .string("m"), "ops": insert, "mapping": bad])
            #expect(reply["error"]?["code"] == .number(-32602), "\(JSONWriter.string(bad))")
            let message = reply["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains("params.mapping") && message.contains("\"ranges\"") && message.contains("\"items\""), "\(message)")
            let apply = try c.call("data.apply", ["session": .string("m"), "sections": PersistenceTests.items(3), "mapping": bad])
            #expect(apply["error"]?["code"] == .number(-32602))
        }
        #expect(try c.result("session.info", ["session": .string("m")])["items"] == .number(5))
        // No update number was taken by the refused requests.
        let done = try c.result("batch", ["session": .string("m"), "ops": insert, "animated": .bool(false)])
        #expect(done["update"] == .number(1))
    }
}
