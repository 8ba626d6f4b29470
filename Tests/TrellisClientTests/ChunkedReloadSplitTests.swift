import Testing
import TrellisClient
import TrellisCore
import TrellisProtocol

/// How `ChunkedReload` splits data: one `data.reload` when it fits, else chunks that each fit
/// the server's message limit and, joined by the protocol's rule (a chunk's first section
/// continues the last one when it has its id), give back exactly the data given.
@Suite struct ChunkedReloadSplitTests {
    /// Answers as a server would, keeping every request's params.
    final class RecordingCaller: MethodCaller {
        let limit: Int
        var calls: [(method: String, params: JSONValue, bytes: Int)] = []
        init(limit: Int) { self.limit = limit }
        func call(_ method: String, _ params: [String: JSONValue]) throws(ClientError) -> JSONValue {
            calls.append((method, .object(params), JSONWriter.bytes(.object(params)).count))
            switch method {
            case "data.reload.begin", "data.apply.begin": return .object(["upload": .string("u1")])
            default: return .object([:])
            }
        }
        func call(_ method: String, encodedParams: ByteBuffer) throws(ClientError) -> JSONValue {
            let params = (try? JSONParser.parse(encodedParams.bytes)) ?? .null
            guard case .object(let members) = params else { throw .unsendable("not an object: \(encodedParams)") }
            let result = try call(method, members)
            calls[calls.count - 1].bytes = encodedParams.count
            return result
        }
        func maximumMessageBytes() throws(ClientError) -> Int { limit }

        /// The sections the requests carried, joined as the server joins chunks.
        var sent: [(id: String, items: [JSONValue])] {
            var sections: [(id: String, items: [JSONValue])] = []
            for call in calls where call.method == "data.reload" || call.method == "data.reload.append" {
                for (k, section) in (call.params["sections"]?.arrayValue ?? []).enumerated() {
                    let id = section["id"]?.stringValue ?? "?", items = section["items"]?.arrayValue ?? []
                    if k == 0, call.method == "data.reload.append", sections.last?.id == id {
                        sections[sections.count - 1].items += items
                    } else {
                        sections.append((id, items))
                    }
                }
            }
            return sections
        }
    }

    static func item(_ n: Int) -> JSONValue {
        .object(["id": .string("it\(n)"), "data": .object(["note": .string(String(repeating: "x", count: n % 40))])])
    }

    /// `trellis apply`: the same split under `data.apply.*`, its options on the one-shot
    /// request or on the commit (never on a chunk), and every request under the limit.
    @Test func anApplyIsSplitTheSameWayWithItsOptionsOnTheCommit() throws {
        let options: [String: JSONValue] = ["animated": .bool(false), "mapping": .string("items")]
        let small = RecordingCaller(limit: 1 << 20)
        let one = try ChunkedReload(caller: small, session: "s", method: "data.apply", options: options)
        try one.beginSection("a")
        for n in 0..<10 { try one.append(item: Self.item(n)) }
        _ = try one.finish()
        #expect(small.calls.map(\.method) == ["data.apply"])
        #expect(small.calls[0].params["animated"] == .bool(false) && small.calls[0].params["mapping"] == .string("items"))
        #expect(small.calls[0].params["sections"]?.arrayValue?.first?["items"]?.arrayValue == (0..<10).map(Self.item))

        let caller = RecordingCaller(limit: 4096)
        let upload = try ChunkedReload(caller: caller, session: "s", method: "data.apply", options: options)
        try upload.beginSection("a")
        for n in 0..<400 { try upload.append(item: Self.item(n)) }
        _ = try upload.finish()
        let methods = caller.calls.map(\.method)
        #expect(methods.first == "data.apply.begin" && methods.last == "data.apply.commit")
        #expect(methods.dropFirst().dropLast().allSatisfy { $0 == "data.apply.append" } && methods.count > 3)
        #expect(caller.calls.allSatisfy { $0.bytes + 100 <= 4096 })
        #expect(caller.calls.last?.params["animated"] == .bool(false) && caller.calls.last?.params["mapping"] == .string("items"))
        #expect(caller.calls.filter { $0.method == "data.apply.append" }.allSatisfy { $0.params["animated"] == nil })
        var items: [JSONValue] = []
        for call in caller.calls where call.method == "data.apply.append" {
            for section in call.params["sections"]?.arrayValue ?? [] { items += section["items"]?.arrayValue ?? [] }
        }
        #expect(items == (0..<400).map(Self.item))
    }

    @Test func smallDataIsOneReload() throws {
        let caller = RecordingCaller(limit: 1 << 20)
        let reload = try ChunkedReload(caller: caller, session: "s")
        try reload.beginSection("a")
        for n in 0..<10 { try reload.append(item: Self.item(n)) }
        _ = try reload.finish()
        #expect(caller.calls.map(\.method) == ["data.reload"])
        #expect(caller.sent.map(\.id) == ["a"] && caller.sent[0].items == (0..<10).map(Self.item))
    }

    @Test(arguments: [1024, 2048, 5000])
    func largeDataIsSplitUnderTheLimitAndJoinsBackExactly(limit: Int) throws {
        let caller = RecordingCaller(limit: limit)
        let reload = try ChunkedReload(caller: caller, session: "a session")
        var chunkCounts: [Int] = []
        reload.onChunk = { chunkCounts.append($0) }
        // Sections of 0, 1, 300 and 45 items, one of them empty, ids running across them.
        let counts = [("s0", 0), ("s1", 1), ("s2", 300), ("s3", 45)]
        var next = 0, expected: [(id: String, items: [JSONValue])] = []
        for (id, count) in counts {
            try reload.beginSection(id)
            let items = (next..<(next + count)).map(Self.item)
            for item in items { try reload.append(item: item) }
            expected.append((id, items))
            next += count
        }
        _ = try reload.finish()
        let methods = caller.calls.map(\.method)
        #expect(methods.first == "data.reload.begin" && methods.last == "data.reload.commit")
        #expect(methods.dropFirst().dropLast().allSatisfy { $0 == "data.reload.append" })
        // Each request, with the envelope's 100 bytes or so, is under the server's limit.
        for call in caller.calls { #expect(call.bytes + 100 <= limit, "\(call.method): \(call.bytes) bytes") }
        #expect(caller.sent.map(\.id) == expected.map(\.id))
        #expect(caller.sent.map(\.items) == expected.map(\.items))
        #expect(chunkCounts.last == next && chunkCounts == chunkCounts.sorted())
    }

    @Test func anItemLargerThanARequestIsRefusedBeforeSending() throws {
        let caller = RecordingCaller(limit: 1024)
        let reload = try ChunkedReload(caller: caller, session: "s")
        try reload.beginSection("a")
        #expect(throws: ClientError.self) {
            try reload.append(item: .object(["id": .string("big"), "data": .string(String(repeating: "y", count: 2000))]))
        }
        #expect(caller.calls.isEmpty)
    }
}
