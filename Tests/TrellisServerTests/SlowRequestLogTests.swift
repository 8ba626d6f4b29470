import Foundation
import Testing
import TrellisClient
import TrellisCore
import TrellisTestSupport
import TrellisProtocol

/// A request that holds the loop for over twice the request budget is logged, named with its
/// session (Redis's slow log). (That a quick one is not logged is not asserted: on a loaded
/// machine even `session.info` can take over 2 ms.) And the server hands free heap memory back
/// after clients close (`stats`' memoryTrims).
@Suite struct SlowRequestLogTests {
    @Test func aSlowRequestIsLoggedByName() throws {
        let directory = TrellisdProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/run/s.sock"
        // A 1 ms budget: a reload of 20,000 items takes longer than 2 ms on any machine.
        let server = try ServiceProcess("trellisd", ["--socket", socket, "--no-persistence", "--log-level", "warning",
                                                     "--request-budget-ms", "1"], readingErrors: true)
        defer { server.stop() }
        var client: RPCClient?
        for _ in 0..<500 where client == nil {
            client = try? RPCClient(path: socket, timeout: 10)
            if client == nil { usleep(10_000) }
        }
        let c = try #require(client)
        _ = try c.call("session.create", ["name": .string("big")])
        _ = try c.call("session.info", ["session": .string("big")])
        let items = (0..<20_000).map { JSONValue.object(["id": .string("i\($0)")]) }
        _ = try c.call("data.reload", ["session": .string("big"), "sections": .array([.object(["id": .string("s0"), "items": .array(items)])])])
        // Other requests may be slow too on a loaded machine; the reload is.
        let line = server.line(containing: "slow request: data.reload", seconds: 10)
        #expect(line?.contains("slow request: data.reload on 'big' held the loop ") == true, "\(line ?? "nothing logged")")
        #expect(line?.contains("over twice the 1 ms budget") == true)
    }

    @Test func freeMemoryIsHandedBackAfterClientsClose() throws {
        let server = try TrellisdProcess()
        defer { server.stop() }
        let first = try server.client()
        _ = try first.call("hello")
        first.close()
        let c = try server.client()
        var trims = 0.0
        for _ in 0..<200 where trims < 1 {
            trims = try c.call("stats")["memoryTrims"]?.numberValue ?? 0
            if trims < 1 { usleep(10_000) }
        }
        #expect(trims >= 1)
    }
}
